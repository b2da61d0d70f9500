// Scenarios of the store's own endpoints: catalog, cart, estimate, placement, payment webhooks.
// Fixtures are made through the admin API (an admin is ensured from ADMIN_EMAIL/ADMIN_PASSWORD,
// which bench/run.ts sets) or, for bulk data, with SQL.
import { randomBytes } from 'node:crypto';
import { signSandboxWebhook } from '../src/payments/plugins/sandbox/signing.js';
import { scheduleDeliveriesSql, WEBHOOK_SCHEDULE_JOB } from '../src/webhooks/delivery-schedule.js';
import type { Scenario, SetupContext } from './scenarios.js';
import { type BenchReceiver, startBenchReceiver } from './webhook-receiver.js';

export const BENCH_ADMIN = { email: 'bench-admin@example.com', password: 'bench-admin-password' };
export const CA = {
  first_name: 'Bench',
  last_name: 'Buyer',
  street_address: '1 Main St',
  city: 'Los Angeles',
  postal_code: '90001',
  state: 'CA',
  country: 'US',
  email: 'buyer@example.com',
};

type Json = Record<string, unknown>;

export const adminHeaders = (ctx: SetupContext) =>
  ctx.memo('admin', async () => {
    const session = (await ctx.call('POST', '/user/storefront/api/login/', { body: BENCH_ADMIN, expect: 200 })) as {
      access: string;
    };
    return { authorization: `Bearer ${session.access}` };
  });

async function adminPost(ctx: SetupContext, path: string, body: unknown): Promise<Json> {
  return (await ctx.call('POST', path, { body, headers: await adminHeaders(ctx), expect: 201 })) as Json;
}

/** Tax, shipping, a promo code and 200 variants (stock that never runs out), made once per run. */
export const pricingFixture = (ctx: SetupContext) =>
  ctx.memo('pricing', async () => {
    const taxClass = await adminPost(ctx, '/tax/dashboard/api/tax-classes/', { name: 'Bench Standard' });
    await adminPost(ctx, '/tax/dashboard/api/tax-rates/', {
      tax_class_id: taxClass.id,
      country: 'US',
      state: 'CA',
      rate: '7.25',
    });
    await adminPost(ctx, '/tax/dashboard/api/tax-rates/', { tax_class_id: taxClass.id, country: 'US', rate: '5' });
    const method = await adminPost(ctx, '/shipping/dashboard/api/shipping-methods/', { name: 'Bench Ground' });
    await adminPost(ctx, '/shipping/dashboard/api/shipping-rates/', {
      shipping_method_id: method.id,
      country: 'US',
      weight_min_kg: '0',
      base_rate: '5.00',
      per_kg_rate: '0.50',
    });
    await adminPost(ctx, '/discount/dashboard/api/promo-codes/', {
      code: 'BENCH10',
      code_type: 'percentage',
      value: '10',
    });
    const variants: { id: number; alias: string }[] = [];
    for (let p = 0; p < 2; p++) {
      const product = (await adminPost(ctx, '/product/dashboard/api/products/', {
        name: `Bench product ${p}`,
        tax_class_id: taxClass.id,
        variants: Array.from({ length: 100 }, (_, i) => ({
          alias: `bench-${p}-${i}`,
          name: `V${i}`,
          price: `${10 + i}.${String(i % 100).padStart(2, '0')}`,
          stock: 1_000_000_000,
          weight_grams: '250',
        })),
      })) as { variants: { id: number; alias: string }[] };
      variants.push(...product.variants);
    }
    return { methodId: method.id as number, taxClassId: taxClass.id as number, variants };
  });

/** A shipping address in Japan, the `bench-jp` market's country. */
const TOKYO = { ...CA, state: undefined, city: 'Tokyo', postal_code: '100-0001', country: 'JP' };

/**
 * A JPY market converting at 151.37 and rounding to ¥100 (decision 0031), serving Japan, with the same tax and shipping
 * work as the US orders (a 10 % rate of the bench class, the bench method's rate for Japan): an estimate or a
 * placement there against the same in USD is what converting costs (issue #28 item 8: at least 0.9 × it).
 */
const jpyFixture = (ctx: SetupContext) =>
  ctx.memo('jpy', async () => {
    const pricing = await pricingFixture(ctx);
    await adminPost(ctx, '/tax/dashboard/api/tax-rates/', {
      tax_class_id: pricing.taxClassId,
      country: 'JP',
      rate: '10',
    });
    await adminPost(ctx, '/shipping/dashboard/api/shipping-rates/', {
      shipping_method_id: pricing.methodId,
      country: 'JP',
      weight_min_kg: '0',
      base_rate: '5.00',
      per_kg_rate: '0.50',
    });
    await adminPost(ctx, '/market/dashboard/api/markets/', {
      code: 'bench-jp',
      name: 'Bench Japan',
      currency: 'JPY',
      exchange_rate: '151.37',
      rounding_step: '100',
      countries: ['JP'],
    });
    return pricing;
  });

async function estimatePayload(ctx: SetupContext, lines: number) {
  const { methodId, variants } = await pricingFixture(ctx);
  return {
    variants: variants.slice(0, lines).map((v) => ({ alias: v.alias, quantity: 2 })),
    shipping_address: CA,
    shipping_method_id: methodId,
    promocode: 'BENCH10',
  };
}

function estimateScenario(lines: number, name = `estimate-${lines}`, connections?: number): Scenario {
  return {
    name,
    method: 'POST',
    path: '/order/storefront/api/estimate/',
    connections,
    async setup(ctx) {
      const body = await estimatePayload(ctx, lines);
      await ctx.call('POST', '/order/storefront/api/estimate/', { body, expect: 200 });
      return { body };
    },
  };
}

/**
 * Ten automatic promotions of every action kind (one exclusive) and a code, all conditioned on products of their
 * own (200 variants), so orders of the other scenarios (made earlier in the run) meet them only as candidates
 * whose conditions fail.
 */
const promotionsFixture = (ctx: SetupContext) =>
  ctx.memo('promotions', async () => {
    await pricingFixture(ctx);
    // Two products of 100 variants (the most one product takes).
    const products: { id: number; variants: { id: number; alias: string }[] }[] = [];
    for (let p = 0; p < 2; p++) {
      products.push(
        (await adminPost(ctx, '/product/dashboard/api/products/', {
          name: `Bench promoted product ${p}`,
          variants: Array.from({ length: 100 }, (_, i) => ({
            alias: `bench-promo-${p}-${i}`,
            name: `P${i}`,
            price: `${5 + (i % 40)}.${String((i * 7) % 100).padStart(2, '0')}`,
            stock: 1_000_000_000,
            weight_grams: '100',
          })),
        })) as { id: number; variants: { id: number; alias: string }[] },
      );
    }
    const only = { type: 'contains_products', products: products.map((p) => p.id) };
    const promotions: { action: Json; conditions?: Json[] }[] = [
      { action: { type: 'order_percentage', percent: '5' } },
      { action: { type: 'item_percentage', percent: '10', max_units: 3 } },
      { action: { type: 'item_fixed', amount: '0.50' } },
      { action: { type: 'order_fixed', amount: '2.00' } },
      { action: { type: 'buy_x_get_y', buy_quantity: 2, get_quantity: 1, percent: '50', repeat: true } },
      { action: { type: 'shipping_percentage', percent: '50' } },
      { action: { type: 'shipping_fixed', amount: '1.00' } },
      { action: { type: 'order_percentage', percent: '15' } },
      { action: { type: 'item_percentage', percent: '2' }, conditions: [{ type: 'min_quantity', quantity: 5 }] },
      { action: { type: 'order_fixed', amount: '1.00' }, conditions: [{ type: 'min_subtotal', amount: '50.00' }] },
    ];
    for (const [i, { action, conditions = [] }] of promotions.entries()) {
      // The eighth is exclusive: priced alone against the others together.
      await adminPost(ctx, '/discount/dashboard/api/promotions/', {
        name: `Bench automatic ${i}`,
        priority: i % 3,
        combinable: i !== 7,
        conditions: [only, ...conditions],
        action,
      });
    }
    await adminPost(ctx, '/discount/dashboard/api/promotions/', {
      name: 'Bench code',
      code: 'BENCHPROMO',
      conditions: [only],
      action: { type: 'order_percentage', percent: '3' },
    });
    return { variants: products.flatMap((p) => p.variants) };
  });

/** An estimate of `lines` lines of the promoted product, with ten automatic promotions and a code to apply. */
function promotedEstimateScenario(
  lines: number,
  name = `estimate-promotions-${lines}`,
  connections?: number,
): Scenario {
  return {
    name,
    method: 'POST',
    path: '/order/storefront/api/estimate/',
    connections,
    async setup(ctx) {
      const { methodId } = await pricingFixture(ctx);
      const { variants } = await promotionsFixture(ctx);
      const body = {
        variants: variants.slice(0, lines).map((v) => ({ alias: v.alias, quantity: 2 })),
        shipping_address: CA,
        shipping_method_id: methodId,
        promocode: 'BENCHPROMO',
      };
      const answer = (await ctx.call('POST', '/order/storefront/api/estimate/', { body, expect: 200 })) as {
        promotions: unknown[];
      };
      if (answer.promotions.length === 0) throw new Error('no promotion applied to the promoted estimate');
      return { body };
    },
  };
}

/** Waits until `done` says yes, polling every 50 ms; throws after `ms`. */
async function waitFor(what: string, done: () => boolean | Promise<boolean>, ms: number): Promise<number> {
  const started = performance.now();
  while (!(await done())) {
    if (performance.now() - started > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return performance.now() - started;
}

/**
 * BENCH_WEBHOOK_WORKER=off: the app runs no job worker nor dispatcher (start it with JOBS_ENABLED=false, e.g.
 * AB_ENV_<label>), so place-3-lines-webhook measures what subscribing costs placement itself (the `webhook.schedule`
 * job written with each batch), with deliveries left to workers elsewhere; the teardown counts the events left to
 * schedule.
 */
const WORKER_OFF = process.env.BENCH_WEBHOOK_WORKER === 'off';

/** Deliveries the capacity measurement makes at once, for a receiver that answers at once. */
const BACKLOG = 2_000;

/** Deliveries a store that has sent webhooks for a while keeps (succeeded, of an endpoint switched off since). */
const WEBHOOK_HISTORY = 20_000;

/**
 * A store that has sent webhooks before (decision 0041): WEBHOOK_HISTORY settled deliveries of another endpoint, and
 * the statistics autovacuum's ANALYZE would keep, before the app first plans its delivery statements. Prepared on a
 * table of a few rows, their generic plans scanned `webhook_deliveries` whole on some connections as it grew.
 */
async function sentWebhooksBefore(ctx: SetupContext, url: string): Promise<void> {
  const before = await adminPost(ctx, '/webhook/dashboard/api/endpoints/', {
    url,
    events: ['order.placed'],
    description: 'bench: an endpoint of the past',
  });
  await ctx.sql('update webhook_endpoints set is_active = false where id = $1', [before.id]);
  await ctx.sql(
    `insert into webhook_deliveries (endpoint_id, event_id, event_type, message_id, payload, status, attempts,
        first_attempt_at, next_attempt_at, last_response_code)
      select $1, gen_random_uuid()::text, 'order.placed', 'msg_before_' || g, '{}'::jsonb, 'succeeded', 1, now(),
        null, 200
      from generate_series(1, $2::integer) g`,
    [before.id, WEBHOOK_HISTORY],
  );
  await ctx.sql('vacuum (analyze) webhook_deliveries');
}

/**
 * place-3-lines with an endpoint subscribed to order.placed on a receiver in a process of its own: each placement
 * batch also enqueues the job that schedules its orders' deliveries, which the app's job worker runs meanwhile, and
 * the app's delivery dispatcher attempts each delivery (decision 0044). Compared with
 * place-3-lines, measured just before (issue #16: at least 0.85 × it). The teardown lets the deliveries catch up,
 * then measures how fast the app delivers a backlog of BACKLOG deliveries made at once (deliveries per second, from
 * the first arrival to the last), and switches the endpoint off so later scenarios make no deliveries.
 */
function placeWithWebhookScenario(): Scenario {
  let receiver: BenchReceiver | undefined;
  let endpointId = 0;
  const counts = async (ctx: SetupContext) => {
    const [row] = await ctx.sql(
      `select count(*)::int as total, (count(*) filter (where status = 'pending'))::int as pending,
        (count(*) filter (where status = 'failed'))::int as failed
      from webhook_deliveries where endpoint_id = $1`,
      [endpointId],
    );
    const [waiting] = await ctx.sql(
      `select coalesce(sum(jsonb_array_length(payload->'event_ids')), 0)::int as events from jobs
      where kind = $1 and status in ('queued', 'running')`,
      [WEBHOOK_SCHEDULE_JOB],
    );
    return {
      total: Number(row?.total),
      pending: Number(row?.pending),
      failed: Number(row?.failed),
      /** Events whose deliveries are not scheduled yet. */
      unscheduled: Number(waiting?.events),
    };
  };
  return {
    name: 'place-3-lines-webhook',
    method: 'POST',
    path: '/order/storefront/api/guest-user-order-create/',
    compareTo: 'place-3-lines',
    async setup(ctx) {
      const { methodId, variants } = await pricingFixture(ctx);
      const hook = await startBenchReceiver();
      receiver = hook;
      const endpoint = await adminPost(ctx, '/webhook/dashboard/api/endpoints/', {
        url: hook.url,
        events: ['order.placed'],
        description: 'bench receiver',
      });
      endpointId = endpoint.id as number;
      await sentWebhooksBefore(ctx, `${hook.url}before`);
      const body = {
        variants: variants.slice(0, 3).map((v) => ({ alias: v.alias, quantity: 1 })),
        shipping_address: CA,
        shipping_method_id: methodId,
      };
      await ctx.call('POST', '/order/storefront/api/guest-user-order-create/', { body, expect: 201 });
      if (WORKER_OFF)
        await waitFor(
          'the first delivery to be asked for',
          async () => {
            // A job that will schedule it, or the delivery itself (as builds before decision 0018 wrote it).
            const now = await counts(ctx);
            return now.unscheduled + now.total >= 1;
          },
          5_000,
        );
      else await waitFor('the first delivery', async () => (await hook.counts()).count >= 1, 30_000);
      return { body };
    },
    async teardown(ctx): Promise<Record<string, string | number>> {
      const hook = receiver;
      if (!hook) throw new Error('no receiver');
      try {
        const afterLoad = await counts(ctx);
        // No worker: the events placement left to schedule are counted, and nothing is delivered.
        if (WORKER_OFF)
          return { events_to_schedule: afterLoad.unscheduled, deliveries_scheduled: afterLoad.total, worker: 'off' };
        const catchUpMs = await waitFor(
          'the deliveries to catch up',
          async () => {
            const now = await counts(ctx);
            return now.unscheduled === 0 && now.pending === 0;
          },
          300_000,
        );
        const settled = await counts(ctx);
        await hook.reset();
        const [made] = await ctx.sql(
          `with input as (
            select gen_random_uuid() as id, 'order.placed'::text as type, now() as created_at,
              jsonb_build_object('bench', g) as data
            from generate_series(1, $1::integer) g
          ), ${scheduleDeliveriesSql('input')}
          select count(*)::int as n from webhook_scheduled`,
          [BACKLOG],
        );
        if (Number(made?.n) !== BACKLOG) throw new Error(`made ${String(made?.n)} deliveries, not ${BACKLOG}`);
        await waitFor(`${BACKLOG} deliveries`, async () => (await hook.counts()).count >= BACKLOG, 600_000);
        const arrived = await hook.counts();
        const spanMs = (arrived.lastAt ?? 0) - (arrived.firstAt ?? 0);
        return {
          deliveries_during_load: settled.total,
          pending_when_load_ended: afterLoad.pending + afterLoad.unscheduled,
          caught_up_after_s: Number((catchUpMs / 1000).toFixed(1)),
          failed: settled.failed,
          backlog_deliveries_per_s: Number(((BACKLOG - 1) / (spanMs / 1000)).toFixed(1)),
        };
      } finally {
        await ctx.call('PATCH', `/webhook/dashboard/api/endpoints/${endpointId}/`, {
          body: { is_active: false },
          headers: await adminHeaders(ctx),
          expect: 200,
        });
        await hook.close();
      }
    },
  };
}

const catalogPage = { method: 'GET' as const, path: '/product/storefront/api/products/?limit=5' };

export const domainScenarios: Scenario[] = [
  {
    // Runs first, on an empty catalog: 5 products of 20 variants = 100 variants.
    name: 'catalog-100',
    ...catalogPage,
    async setup(ctx) {
      for (let p = 0; p < 5; p++) {
        await adminPost(ctx, '/product/dashboard/api/products/', {
          name: `Catalog ${p}`,
          variants: Array.from({ length: 20 }, (_, i) => ({ name: `V${i}`, price: '9.99', stock: 10 })),
        });
      }
      const [row] = await ctx.sql('select count(*)::int as n from product_variants');
      if (row?.n !== 100) throw new Error(`expected 100 variants, found ${String(row?.n)}`);
      return undefined;
    },
  },
  {
    // The same first page once 100,000 more variants exist.
    name: 'catalog-100k',
    ...catalogPage,
    async setup(ctx) {
      await ctx.sql(`insert into products (name, handle)
        select 'Bulk product ' || g, 'bulk-product-' || g from generate_series(1, 20000) g`);
      await ctx.sql(`insert into product_variants (product_id, alias, name, price, stock, weight_grams)
        select p.id, 'bulk-' || p.id || '-' || v, 'V' || v, 1000 + v, 100, 250
        from products p cross join generate_series(1, 5) v where p.name like 'Bulk product %'`);
      // Only the tables filled here: analysing the others while they are empty would tell the planner
      // they stay empty, and plans made from that (orders' foreign-key checks) scan them as they grow.
      await ctx.sql('analyze products, product_variants');
      const [row] = await ctx.sql('select count(*)::int as n from product_variants');
      console.log(`  (catalog now holds ${String(row?.n)} variants)`);
      return undefined;
    },
  },
  {
    // A page near the end of the 100k catalog: keyset pagination costs the same anywhere.
    name: 'catalog-100k-deep',
    ...catalogPage,
    async setup(ctx) {
      const [row] = await ctx.sql('select max(id) - 6 as cursor from products');
      return { path: `${catalogPage.path}&cursor=${String(row?.cursor)}` };
    },
  },
  {
    // One product's page (20 variants), in whatever catalog the scenarios before left.
    name: 'catalog-product',
    method: 'GET',
    path: '/product/storefront/api/products/',
    async setup(ctx) {
      let [row] = await ctx.sql(`select min(id) as id from products where name = 'Catalog 0'`);
      if (row?.id === null || row?.id === undefined) {
        await adminPost(ctx, '/product/dashboard/api/products/', {
          name: 'Catalog 0',
          variants: Array.from({ length: 20 }, (_, i) => ({ name: `V${i}`, price: '9.99', stock: 10 })),
        });
        [row] = await ctx.sql(`select min(id) as id from products where name = 'Catalog 0'`);
      }
      return { path: `/product/storefront/api/products/${String(row?.id)}/` };
    },
  },
  {
    name: 'cart-list-10',
    method: 'GET',
    path: '/cart/storefront/api/carts/',
    async setup(ctx) {
      const { variants } = await pricingFixture(ctx);
      const session = (await ctx.call('POST', '/user/storefront/api/signup/', {
        body: { email: `${ctx.unique('cart')}@example.com`, password: 'bench-password-1' },
        expect: 201,
      })) as { access: string };
      const headers = { authorization: `Bearer ${session.access}` };
      for (const v of variants.slice(0, 10))
        await ctx.call('POST', '/cart/storefront/api/carts/add/', {
          body: { product_variant_id: v.id, quantity: 2 },
          headers,
        });
      return { headers };
    },
  },
  {
    // The same 10-line list, each request from the next of 50 customers (each with a cart of its own).
    name: 'cart-list-10-many',
    method: 'GET',
    path: '/cart/storefront/api/carts/',
    async setup(ctx) {
      const { variants } = await pricingFixture(ctx);
      const headers: Record<string, string>[] = [];
      for (let c = 0; c < 50; c++) {
        const session = (await ctx.call('POST', '/user/storefront/api/signup/', {
          body: { email: `${ctx.unique('carts')}@example.com`, password: 'bench-password-1' },
          expect: 201,
        })) as { access: string };
        const auth = { authorization: `Bearer ${session.access}` };
        for (let i = 0; i < 10; i++) {
          const v = variants[(c + i * 7) % variants.length];
          await ctx.call('POST', '/cart/storefront/api/carts/add/', {
            body: { product_variant_id: v?.id, quantity: 1 + (c % 3) },
            headers: auth,
          });
        }
        headers.push(auth);
      }
      let next = 0;
      return { headers: headers[0], vary: () => ({ headers: headers[next++ % headers.length] }) };
    },
  },
  { name: 'minimal-tx', target: 'baseline-tx', method: 'POST', path: '/', body: {} },
  {
    // Guests adding one unit, spread over 50 carts of 5 lines each (a cart's adds queue on its row lock).
    name: 'cart-add',
    method: 'POST',
    path: '/cart/storefront/api/carts/add/',
    compareTo: 'minimal-tx',
    async setup(ctx) {
      const { variants } = await pricingFixture(ctx);
      const tokens: string[] = [];
      for (let i = 0; i < 50; i++)
        tokens.push(((await ctx.call('GET', '/cart/storefront/api/carts/')) as { cart_token: string }).cart_token);
      let next = 0;
      const add = (n: number) => ({
        headers: { 'x-cart-token': tokens[n % tokens.length] ?? '' },
        body: { product_variant_id: variants[Math.floor(n / tokens.length) % 5]?.id, quantity: 1 },
      });
      return { ...add(0), vary: () => add(next++) };
    },
  },
  estimateScenario(1),
  {
    // estimate-1 shipped to Japan: priced in JPY, every price converted and rounded, shipping converted.
    name: 'estimate-1-jpy',
    method: 'POST',
    path: '/order/storefront/api/estimate/',
    compareTo: 'estimate-1',
    async setup(ctx) {
      await jpyFixture(ctx);
      const body = { ...(await estimatePayload(ctx, 1)), shipping_address: TOKYO };
      const answer = (await ctx.call('POST', '/order/storefront/api/estimate/', { body, expect: 200 })) as Json;
      if (answer.currency !== 'JPY') throw new Error(`estimate-1-jpy priced in ${String(answer.currency)}`);
      return { body };
    },
  },
  estimateScenario(20),
  estimateScenario(200),
  // One connection: latency is the server time of one 200-line estimate (plus loopback).
  estimateScenario(200, 'estimate-200-serial', 1),
  {
    name: 'place-3-lines',
    method: 'POST',
    path: '/order/storefront/api/guest-user-order-create/',
    compareTo: 'minimal-tx',
    async setup(ctx) {
      const { methodId, variants } = await pricingFixture(ctx);
      const body = {
        variants: variants.slice(0, 3).map((v) => ({ alias: v.alias, quantity: 1 })),
        shipping_address: CA,
        shipping_method_id: methodId,
      };
      await ctx.call('POST', '/order/storefront/api/guest-user-order-create/', { body, expect: 201 });
      return { body };
    },
  },
  placeWithWebhookScenario(),
  {
    // place-3-lines shipped to Japan: the order priced, placed and recorded in JPY.
    name: 'place-3-lines-jpy',
    method: 'POST',
    path: '/order/storefront/api/guest-user-order-create/',
    compareTo: 'place-3-lines',
    async setup(ctx) {
      const { methodId, variants } = await jpyFixture(ctx);
      const body = {
        variants: variants.slice(0, 3).map((v) => ({ alias: v.alias, quantity: 1 })),
        shipping_address: TOKYO,
        shipping_method_id: methodId,
      };
      const placed = (await ctx.call('POST', '/order/storefront/api/guest-user-order-create/', {
        body,
        expect: 201,
      })) as Json;
      if (placed.currency !== 'JPY') throw new Error(`place-3-lines-jpy placed in ${String(placed.currency)}`);
      return { body };
    },
  },
  {
    // The same order over 3 of the 200 variants in turn: placements rarely queue on one row.
    name: 'place-3-lines-spread',
    method: 'POST',
    path: '/order/storefront/api/guest-user-order-create/',
    compareTo: 'minimal-tx',
    async setup(ctx) {
      const { methodId, variants } = await pricingFixture(ctx);
      let next = 0;
      const order = () => {
        const start = (next++ * 3) % variants.length;
        return {
          variants: [0, 1, 2].map((i) => ({
            alias: variants[(start + i) % variants.length]?.alias ?? '',
            quantity: 1,
          })),
          shipping_address: CA,
          shipping_method_id: methodId,
        };
      };
      await ctx.call('POST', '/order/storefront/api/guest-user-order-create/', { body: order(), expect: 201 });
      return { body: order(), vary: () => ({ body: order() }) };
    },
  },
  {
    // As -spread, each order by a new guest with a code usable once per customer: the buyer's uses are counted.
    name: 'place-3-lines-promo',
    method: 'POST',
    path: '/order/storefront/api/guest-user-order-create/',
    compareTo: 'minimal-tx',
    async setup(ctx) {
      const { methodId, variants } = await pricingFixture(ctx);
      await adminPost(ctx, '/discount/dashboard/api/promo-codes/', {
        code: 'BENCHONCE',
        code_type: 'percentage',
        value: '5',
        usage_limit_per_customer: 1,
      });
      let next = 0;
      const order = () => {
        const n = next++;
        const start = (n * 3) % variants.length;
        return {
          variants: [0, 1, 2].map((i) => ({
            alias: variants[(start + i) % variants.length]?.alias ?? '',
            quantity: 1,
          })),
          shipping_address: { ...CA, email: `buyer-${n}@example.com` },
          shipping_method_id: methodId,
          promocode: 'BENCHONCE',
        };
      };
      await ctx.call('POST', '/order/storefront/api/guest-user-order-create/', { body: order(), expect: 201 });
      return { body: order(), vary: () => ({ body: order() }) };
    },
  },
  {
    // Sandbox "payment succeeded" events for 200 started payments; one in five is a repeated delivery.
    name: 'webhook-sandbox',
    method: 'POST',
    path: '/payment/storefront/api/webhook-view/sandbox/',
    async setup(ctx) {
      const { variants } = await pricingFixture(ctx);
      for (let i = 0; i < 200; i++) {
        const order = (await ctx.call('POST', '/order/storefront/api/guest-user-order-create/', {
          body: { variants: [{ alias: variants[i % 200]?.alias }], shipping_address: CA },
          expect: 201,
        })) as { order_alias: string; order_token: string };
        await ctx.call('POST', '/payment/storefront/api/start-payment/sandbox/', {
          body: { order_alias: order.order_alias },
          headers: { 'x-order-token': order.order_token },
          expect: 200,
        });
      }
      const payments = await ctx.sql(
        `select reference, amount::text as amount, currency from payments where plugin_id = 'sandbox'`,
      );
      // The sandbox's signing key is the store's, kept in its database (docs/operations.md, Secrets).
      const [stored] = await ctx.sql(`select value from store_secrets where name = 'plugin-sandbox-webhook'`);
      if (typeof stored?.value !== 'string') throw new Error('the store has no sandbox webhook key');
      const secret = stored.value;
      let sent = 0;
      let previous = '';
      const event = () => {
        sent += 1;
        const p = payments[sent % payments.length] ?? {};
        const body =
          sent % 5 === 0 && previous
            ? previous
            : JSON.stringify({
                id: `evt_${randomBytes(12).toString('hex')}`,
                type: 'payment.succeeded',
                created: Math.floor(Date.now() / 1000),
                data: { reference: p.reference, amount: Number(p.amount), currency: p.currency },
              });
        previous = body;
        return {
          body,
          headers: { 'content-type': 'application/json', 'x-sandbox-signature': signSandboxWebhook(secret, body) },
        };
      };
      const first = event();
      return { body: first.body, headers: first.headers, vary: event };
    },
  },
  // Last: their automatic promotions are candidates of every later estimate and placement.
  promotedEstimateScenario(1),
  promotedEstimateScenario(20),
  promotedEstimateScenario(200),
  // One connection: latency is the server time of one promoted 200-line estimate (plus loopback).
  promotedEstimateScenario(200, 'estimate-promotions-200-serial', 1),
];
