import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.js';
import { adminApi } from './fixtures.js';
import {
  bearer,
  buildTestApp,
  json,
  onPostgres,
  secondProcess,
  type SignedIn,
  signInAdmin,
  signUp,
  type TestApp,
} from './helpers.js';

// Estimates and placements read variants, tax rates, shipping rates and promo codes through a
// per-process cache (src/orders/reference-cache.ts). These tests show it caches, and that every
// way a change can happen reaches it.

const estimateUrl = '/order/storefront/api/estimate/';
const CA = {
  first_name: 'Ada',
  last_name: 'L',
  street_address: '1 Main St',
  city: 'Los Angeles',
  postal_code: '90001',
  state: 'CA',
  country: 'US',
  email: 'rc@example.com',
};

let t: TestApp;
let admin: SignedIn;
let variantId: number;
let methodId: number;

const payload = (promocode?: string) => ({
  variants: [{ alias: 'rc-a', quantity: 1 }],
  shipping_address: CA,
  shipping_method_id: methodId,
  ...(promocode ? { promocode } : {}),
});

async function estimate(app: TestApp['app'] = t.app, promocode?: string) {
  const res = await app.inject({ method: 'POST', url: estimateUrl, payload: payload(promocode) });
  if (res.statusCode !== 200) throw new Error(`estimate: ${res.statusCode} ${res.body}`);
  return json(res) as {
    subtotal: string;
    estimated_tax: string;
    shipping_fee: string;
    discount: string;
    total: string;
  };
}

/** Polls until `check` passes: a change reaches other processes when PostgreSQL delivers its notification. */
async function eventually(check: () => Promise<void>, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

const exec = (query: string) => t.database.db.execute(sql.raw(query));

/**
 * Waits until every change announced so far has reached this process: notifications arrive in
 * order, so once a marker sent now is heard, the earlier ones (the fixtures') have been applied.
 */
async function changesSettled(database: Database = t.database) {
  const marker = `settled-${Math.random()}`;
  const heard = new Promise<void>((resolve) => {
    const unsubscribe = database.changes.subscribe((table) => {
      if (table !== marker) return;
      unsubscribe();
      resolve();
    });
  });
  await database.db.execute(sql`select pg_notify('sf_reference_changed', ${marker})`);
  await heard;
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signInAdmin(t);
  const api = adminApi(t, admin);
  const taxClass = await api.taxClass({ name: 'RC Standard' });
  await api.taxRate({ tax_class_id: taxClass.id, country: 'US', rate: '5' });
  const method = await api.shippingMethod({ name: 'RC Ground' });
  methodId = method.id;
  await api.shippingRate({ shipping_method_id: methodId, country: 'US', weight_min_kg: '0', base_rate: '4.00' });
  await api.promoCode({ code: 'RC10', code_type: 'percentage', value: '10' });
  const product = await api.product({
    name: 'RC product',
    tax_class_id: taxClass.id,
    variants: [{ alias: 'rc-a', name: 'A', price: '10.00', stock: 1000 }],
  });
  variantId = product.variants[0]!.id;
});

afterAll(async () => {
  await t?.close();
});

describe('reference data cache', () => {
  it('answers repeated estimates from memory: a change the database does not announce is not seen', async () => {
    await changesSettled();
    expect((await estimate()).subtotal).toBe('10.00');
    await exec('alter table product_variants disable trigger product_variants_changed');
    try {
      await exec(`update product_variants set price = 2500 where id = ${variantId}`);
      expect((await estimate()).subtotal).toBe('10.00');
    } finally {
      await exec('alter table product_variants enable trigger product_variants_changed');
    }
    // Any announced change to the table makes the cache read it again.
    await exec(`update product_variants set name = name where id = ${variantId}`);
    await eventually(async () => expect((await estimate()).subtotal).toBe('25.00'));
  });

  it('sees an admin change on the very next request of the same process', async () => {
    await eventually(async () => expect((await estimate()).subtotal).toBe('25.00'));
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/product/dashboard/api/variants/${variantId}/`,
      headers: bearer(admin.access),
      payload: { price: '12.00' },
    });
    expect(res.statusCode).toBe(200);
    expect((await estimate()).subtotal).toBe('12.00');
  });

  it('keeps what it holds when an admin request is refused or fails, and clears it when one succeeds', async () => {
    await changesSettled();
    expect((await estimate()).subtotal).toBe('12.00');
    const customer = await signUp(t.app);
    await exec('alter table product_variants disable trigger product_variants_changed');
    try {
      await exec(`update product_variants set price = 1900 where id = ${variantId}`);
      const refused = [
        { method: 'POST', url: '/tax/dashboard/api/tax-classes/', payload: { name: 'anonymous' } },
        {
          method: 'POST',
          url: '/shipping/dashboard/api/shipping-methods/',
          headers: bearer(customer.access),
          payload: { name: 'x' },
        },
        {
          method: 'PATCH',
          url: '/product/dashboard/api/variants/999999/',
          headers: bearer(admin.access),
          payload: { price: '1.00' },
        },
        {
          method: 'POST',
          url: '/discount/dashboard/api/promo-codes/',
          headers: bearer(admin.access),
          payload: { code: 'BAD', code_type: 'percentage', value: '101' },
        },
      ] as const;
      const statuses = [];
      for (const request of refused) statuses.push((await t.app.inject(request)).statusCode);
      expect(statuses).toEqual([401, 403, 404, 422]);
      expect((await estimate()).subtotal).toBe('12.00');
      // A successful write to any reference data clears the whole cache before it is answered.
      const created = await t.app.inject({
        method: 'POST',
        url: '/tax/dashboard/api/tax-classes/',
        headers: bearer(admin.access),
        payload: { name: 'RC other' },
      });
      expect(created.statusCode).toBe(201);
      expect((await estimate()).subtotal).toBe('19.00');
    } finally {
      await exec('alter table product_variants enable trigger product_variants_changed');
    }
    await t.app.inject({
      method: 'PATCH',
      url: `/product/dashboard/api/variants/${variantId}/`,
      headers: bearer(admin.access),
      payload: { price: '12.00' },
    });
  });

  it('sees tax, shipping and promo-code changes made with SQL once the database announces them', async () => {
    const before = await estimate(t.app, 'RC10');
    expect(before).toMatchObject({ subtotal: '12.00', discount: '1.20', shipping_fee: '4.00', estimated_tax: '0.54' });
    await exec(`update tax_rates set rate = '10' where country = 'US'`);
    await exec(`update shipping_rates set base_rate = 700 where shipping_method_id = ${methodId}`);
    await exec(`update promotions set action = jsonb_set(action, '{percent}', '"50"') where code = 'RC10'`);
    await eventually(async () => {
      expect(await estimate(t.app, 'RC10')).toMatchObject({
        discount: '6.00',
        shipping_fee: '7.00',
        estimated_tax: '0.60',
      });
    });
    await exec(`update promotions set is_active = false where code = 'RC10'`);
    await eventually(async () => {
      const res = await t.app.inject({ method: 'POST', url: estimateUrl, payload: payload('RC10') });
      expect(res.statusCode).toBe(422);
      expect(json(res).code).toBe('promo_code_invalid');
    });
  });

  it('reads usage counts fresh: a code whose limit is reached is refused at once', async () => {
    await adminApi(t, admin).promoCode({ code: 'RCONCE', code_type: 'percentage', value: '5', redemption_limit: 1 });
    expect((await estimate(t.app, 'RCONCE')).discount).toBe('0.60');
    // times_used is not announced (placements raise it all the time) and not cached.
    await exec(`update promotions set times_used = 1 where code = 'RCONCE'`);
    const res = await t.app.inject({ method: 'POST', url: estimateUrl, payload: payload('RCONCE') });
    expect(res.statusCode).toBe(422);
    expect(json(res).code).toBe('promo_code_invalid');
  });

  it('charges the price read in the placement transaction, even when the cache holds an older one', async () => {
    const priced = async () => (await estimate()).subtotal;
    await eventually(async () => expect(await priced()).toBe('12.00'));
    await changesSettled();
    expect(await priced()).toBe('12.00');
    await exec('alter table product_variants disable trigger product_variants_changed');
    try {
      await exec(`update product_variants set price = 1300 where id = ${variantId}`);
      expect(await priced()).toBe('12.00');
      const res = await t.app.inject({
        method: 'POST',
        url: '/order/storefront/api/guest-user-order-create/',
        payload: payload(),
      });
      expect(res.statusCode).toBe(201);
      expect(json(res).subtotal).toBe('13.00');
    } finally {
      await exec('alter table product_variants enable trigger product_variants_changed');
    }
  });

  it('reads every time with REFERENCE_CACHE_TTL_SECONDS=0', async () => {
    const uncached = await buildTestApp({ config: { referenceCacheTtlSeconds: 0 } });
    try {
      const boss = await signInAdmin(uncached);
      const product = await adminApi(uncached, boss).product({
        name: 'RC0',
        variants: [{ alias: 'rc0', name: 'A', price: '1.00', stock: 5 }],
      });
      const est = async () =>
        json(
          await uncached.app.inject({
            method: 'POST',
            url: estimateUrl,
            payload: { variants: [{ alias: 'rc0', quantity: 1 }] },
          }),
        ).subtotal;
      expect(await est()).toBe('1.00');
      await uncached.database.db.execute(
        sql.raw('alter table product_variants disable trigger product_variants_changed'),
      );
      await uncached.database.db.execute(
        sql.raw(`update product_variants set price = 300 where id = ${product.variants[0]!.id}`),
      );
      expect(await est()).toBe('3.00');
    } finally {
      await uncached.close();
    }
  });
});

describe.runIf(onPostgres)('reference data cache across processes (PostgreSQL)', () => {
  let other: Awaited<ReturnType<typeof secondProcess>> | undefined;

  beforeAll(async () => {
    other = await secondProcess(t);
  });

  afterAll(async () => {
    await other?.close();
  });

  it('another process sees an admin change once the notification arrives', async () => {
    const b = other!;
    const first = (await estimate(b.app)).subtotal;
    expect((await estimate(b.app)).subtotal).toBe(first);
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/product/dashboard/api/variants/${variantId}/`,
      headers: bearer(admin.access),
      payload: { price: '14.50' },
    });
    expect(res.statusCode).toBe(200);
    await eventually(async () => expect((await estimate(b.app)).subtotal).toBe('14.50'));
  });

  it('forgets everything when its change feed drops, and hears changes again after reconnecting', async () => {
    const b = other!;
    await eventually(async () => expect((await estimate(b.app)).subtotal).toBe('14.50'));
    const heard: string[] = [];
    const unsubscribe = b.database.changes.subscribe((table) => heard.push(table));
    try {
      // Cut every listening connection of this database (both processes' feeds).
      await exec(
        `select pg_terminate_backend(pid) from pg_stat_activity
         where datname = current_database() and query ilike 'listen %' and pid <> pg_backend_pid()`,
      );
      // "*" when the connection is lost (nothing cached from then on), and again once listening.
      await eventually(async () => expect(heard.filter((x) => x === '*').length).toBeGreaterThanOrEqual(2));
      expect(b.database.changes.live).toBe(true);
    } finally {
      unsubscribe();
    }
    await exec(`update product_variants set price = 1700 where id = ${variantId}`);
    await eventually(async () => expect((await estimate(b.app)).subtotal).toBe('17.00'));
  });
});
