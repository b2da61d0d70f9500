import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../src/db/schema.js';
import type { EventRef } from '../src/events/outbox.js';
import { WEBHOOK_SCHEDULE_JOB } from '../src/webhooks/delivery-schedule.js';
import { scheduleEventDeliveries } from '../src/webhooks/webhook-delivery.js';
import { registerWebhookJobs } from '../src/webhooks/webhook-jobs.js';
import { JobQueue, PermanentJobError } from '../src/jobs/job-queue.js';
import { hiddenFormFields } from './browser.js';
import { adminApi, apiAs, guestAddress, type PlacedOrder, placeGuestOrder } from './fixtures.js';
import {
  bearer,
  buildTestApp,
  expectProblem,
  json,
  onPostgres,
  type SignedIn,
  signInAdmin,
  signUp,
  type TestApp,
} from './helpers.js';
import { deliverSandboxWebhook, sandboxEventBody, startSandboxPayment } from './sandbox-gateway.js';

// Every change SPEC 11 names records its events in its own transaction, once, numbered per order; admins list them.

interface ListedEvent {
  id: string;
  type: string;
  created_at: string;
  sequence: number | null;
  // biome-ignore lint/suspicious/noExplicitAny: assertions read the order or payment the event carries
  data: any;
}

let t: TestApp;
let admin: SignedIn;
let variantId: number;
/** What a subscriber to every event was told, in order. */
const told: EventRef[] = [];

beforeAll(async () => {
  t = await buildTestApp({
    config: { paymentPlugins: ['sandbox', 'cash_on_delivery'] },
    background: ({ outbox }) =>
      outbox.onEvent('*', (event) => {
        told.push(event);
        return { kind: 'test.seen', key: event.id, payload: { event_id: event.id } };
      }),
  });
  admin = await signInAdmin(t);
  const product = await adminApi(t, admin).product({
    name: 'Evented',
    variants: [
      { alias: 'ev-1', name: 'One', price: '12.50', stock: 1000 },
      { alias: 'ev-free', name: 'Free sample', price: '0.00', stock: 1000 },
    ],
  });
  variantId = product.variants[0]?.id ?? 0;
});
afterAll(() => t.close());

const eventsUrl = '/event/dashboard/api/events/';
const adminOrderUrl = (alias: string) => `/order/dashboard/api/orders/${alias}/`;
/**
 * The order as the admin API answers it, less next_statuses (advice for the dashboard, not the order's state),
 * fulfillments (the shipments: fulfillment.* events carry them) and market (the market's code and name as they are
 * when asked, for the dashboard; null for these default-market orders: events carry the order's own currency).
 */
async function adminOrder(alias: string) {
  const answer = await apiAs(t, admin).get(adminOrderUrl(alias));
  expect(answer.market).toBeNull();
  const { next_statuses: _next, fulfillments: _shipments, market: _market, ...order } = answer;
  return order;
}
const place = (alias = 'ev-1', quantity = 1) =>
  placeGuestOrder(t, { variants: [{ alias, quantity }], shipping_address: guestAddress });

/** Every event of an order, oldest first (through the list, page by page). */
async function eventsOf(orderAlias: string): Promise<ListedEvent[]> {
  const out: ListedEvent[] = [];
  let cursor: string | null = null;
  do {
    const page = await apiAs(t, admin).get(
      `${eventsUrl}?order_alias=${orderAlias}&limit=2${cursor === null ? '' : `&cursor=${cursor}`}`,
    );
    out.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor !== null);
  return out.reverse();
}

/**
 * Holds the variant's row lock from outside the app until released: on PostgreSQL from a second connection (the
 * placement's batch waits on the row), on the embedded database from a transaction on its one connection.
 */
async function holdVariantLock(id: number): Promise<() => Promise<void>> {
  if (onPostgres) {
    const client = new pg.Client({ connectionString: t.url });
    await client.connect();
    await client.query('begin');
    await client.query('select id from product_variants where id = $1 for update', [id]);
    return async () => {
      await client.query('rollback');
      await client.end();
    };
  }
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let locked = () => {};
  const isLocked = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const held = t.database.db.transaction(async (tx) => {
    await tx.execute(sql`select id from product_variants where id = ${id} for update`);
    locked();
    await released;
  });
  await isLocked;
  return async () => {
    release();
    await held;
  };
}

const typesOf = (events: ListedEvent[]) => events.map((e) => [e.sequence, e.type]);
const setStatus = (alias: string, status: string) => apiAs(t, admin).patch(adminOrderUrl(alias), { status });

/** An order's events once it is paid in full: placed, the payment, paid, and the approval that follows. */
const PAID_ORDER_EVENTS = [
  [1, 'order.placed'],
  [2, 'payment.succeeded'],
  [3, 'order.paid'],
  [4, 'order.status_changed'],
];

/** Starts a cash-on-delivery payment of a guest order, then records it paid as an admin does when the cash comes. */
async function payCashOnDelivery(order: PlacedOrder): Promise<void> {
  const started = json(
    await t.app.inject({
      method: 'POST',
      url: '/payment/storefront/api/start-payment/cash_on_delivery/',
      headers: { 'x-order-token': order.order_token },
      payload: { order_alias: order.order_alias },
    }),
  );
  await apiAs(t, admin).post(`/payment/dashboard/api/payments/${started.payment_id}/capture/`, {}, 200);
}

describe('events of placement', () => {
  it('records order.placed once, numbered 1, carrying the order exactly as the admin API shows it', async () => {
    const order = await place();
    const events = await eventsOf(order.order_alias);
    expect(typesOf(events)).toEqual([[1, 'order.placed']]);
    const [placed] = events;
    expect(placed?.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(placed?.data).toEqual(await adminOrder(order.order_alias));
    expect(placed?.data).toMatchObject({
      order_id: order.order_id,
      status: 'pending',
      email: guestAddress.email,
      lines: [{ name: 'Evented - One', product_name: 'Evented', variant_name: 'One', options: [] }],
    });
    expect(placed?.created_at).toBe(placed?.data.created_at);
    expect(await apiAs(t, admin).get(`${eventsUrl}${placed?.id}/`)).toEqual(placed);
  });

  it("fills in a signed-in customer's email from the account, as the order has it", async () => {
    const customer = await signUp(t.app);
    const order = await apiAs(t, customer).post('/order/storefront/api/create/', {
      variants: [{ alias: 'ev-1', quantity: 2 }],
      shipping_address: { ...guestAddress, email: '' },
    });
    const [placed] = await eventsOf(order.order_alias);
    expect(placed?.data).toEqual(await adminOrder(order.order_alias));
    expect(placed?.data).toMatchObject({ customer_id: customer.id, email: customer.email });
  });

  it('records order.placed then order.paid for an order with nothing to pay', async () => {
    const order = await place('ev-free');
    expect(order.payment_status).toBe('paid');
    const events = await eventsOf(order.order_alias);
    expect(typesOf(events)).toEqual([
      [1, 'order.placed'],
      [2, 'order.paid'],
    ]);
    expect(events[1]?.data).toEqual(events[0]?.data);
  });

  it('records one order.placed per order when concurrent placements are written in one batch', async () => {
    const metric = async (name: string) => {
      const body = (await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(admin.access) })).body;
      return Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(body)?.[1] ?? 0);
    };
    const [batchesBefore, ordersBefore] = [
      await metric('storefront_placement_batch_size_count'),
      await metric('storefront_placement_batch_size_sum'),
    ];
    // While the variant's row is held, the first placement's batch waits and the others queue behind it.
    const release = await holdVariantLock(variantId);
    const placing = Promise.all(Array.from({ length: 12 }, (_, i) => place('ev-1', 1 + (i % 3))));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await release();
    const orders: PlacedOrder[] = await placing;
    const batches = (await metric('storefront_placement_batch_size_count')) - batchesBefore;
    expect((await metric('storefront_placement_batch_size_sum')) - ordersBefore).toBe(12);
    expect(batches).toBeLessThanOrEqual(3);
    const ids = new Set<string>();
    for (const order of orders) {
      const events = await eventsOf(order.order_alias);
      expect(typesOf(events)).toEqual([[1, 'order.placed']]);
      expect(events[0]?.data).toEqual(await adminOrder(order.order_alias));
      ids.add(events[0]?.id ?? '');
    }
    expect(ids.size).toBe(12);
  });
});

describe('events of status changes', () => {
  it('records order.status_changed for each move, numbered on from the placement', async () => {
    const order = await place();
    await setStatus(order.order_alias, 'approved');
    await setStatus(order.order_alias, 'processing');
    const events = await eventsOf(order.order_alias);
    expect(typesOf(events)).toEqual([
      [1, 'order.placed'],
      [2, 'order.status_changed'],
      [3, 'order.status_changed'],
    ]);
    expect(events.map((e) => e.data.status)).toEqual(['pending', 'approved', 'processing']);
    expect(events[2]?.data).toEqual(await adminOrder(order.order_alias));
  });

  it('records order.status_changed and order.cancelled on cancel, and nothing for a refused move', async () => {
    const order = await place();
    await setStatus(order.order_alias, 'cancelled');
    expectProblem(
      await t.app.inject({
        method: 'PATCH',
        url: adminOrderUrl(order.order_alias),
        headers: bearer(admin.access),
        payload: { status: 'approved' },
      }),
      409,
      'invalid_transition',
    );
    const events = await eventsOf(order.order_alias);
    expect(typesOf(events)).toEqual([
      [1, 'order.placed'],
      [2, 'order.status_changed'],
      [3, 'order.cancelled'],
    ]);
    expect(events[2]?.data.status).toBe('cancelled');
  });

  it('numbers the events of one order 1, 2, 3… when its changes race', async () => {
    const order = await place();
    const moves = await Promise.all(
      ['approved', 'cancelled', 'approved', 'cancelled'].map((status) =>
        t.app.inject({
          method: 'PATCH',
          url: adminOrderUrl(order.order_alias),
          headers: bearer(admin.access),
          payload: { status },
        }),
      ),
    );
    const done = moves.filter((r) => r.statusCode === 200).length;
    const events = await eventsOf(order.order_alias);
    expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1));
    expect(events.filter((e) => e.type === 'order.status_changed')).toHaveLength(done);
  });
});

describe('events of payments (sandbox)', () => {
  /** Starts a sandbox payment and clicks Pay or Decline on its checkout page. */
  async function paySandbox(order: PlacedOrder, decision: 'pay' | 'decline') {
    const started = await startSandboxPayment(t, order);
    const url = new URL(started.answer.url);
    const page = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
    const fields = hiddenFormFields(page.body);
    fields.set('decision', decision);
    const clicked = await t.app.inject({
      method: 'POST',
      url: '/payment/sandbox/checkout/',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: fields.toString(),
    });
    expect(clicked.statusCode).toBe(303);
    return started.paymentId;
  }

  it('records payment.failed on a decline, payment.succeeded, order.paid, the approval, payment.refunded', async () => {
    const order = await place();
    const declined = await paySandbox(order, 'decline');
    const paid = await paySandbox(order, 'pay');
    await apiAs(t, admin).post(`/payment/dashboard/api/payments/${paid}/refund/`, { amount: '2.50' }, 200);
    await apiAs(t, admin).post(`/payment/dashboard/api/payments/${paid}/refund/`, {}, 200);
    const events = await eventsOf(order.order_alias);
    expect(typesOf(events)).toEqual([
      [1, 'order.placed'],
      [2, 'payment.failed'],
      [3, 'payment.succeeded'],
      [4, 'order.paid'],
      [5, 'order.status_changed'],
      [6, 'payment.refunded'],
      [7, 'payment.refunded'],
    ]);
    const payments = await apiAs(t, admin).get(`/payment/dashboard/api/orders/${order.order_alias}/payments/`);
    expect(events[1]?.data).toMatchObject({ id: declined, status: 'failed', order_alias: order.order_alias });
    expect(events[2]?.data).toMatchObject({ id: paid, status: 'succeeded', amount_captured: '12.50' });
    expect(events[2]?.data.order_id).toBe(order.order_id);
    expect(events[3]?.data).toMatchObject({ order_alias: order.order_alias, payment_status: 'paid' });
    expect(events[4]?.data).toMatchObject({ status: 'approved', payment_status: 'paid' });
    expect(events[5]?.data).toMatchObject({ status: 'partially_refunded', amount_refunded: '2.50' });
    expect(events[6]?.data).toEqual(payments.find((p: { id: number }) => p.id === paid));
  });

  it('records nothing more for a repeated delivery of the same gateway event', async () => {
    const order = await place();
    const { reference } = await startSandboxPayment(t, order);
    const body = sandboxEventBody('payment.succeeded', reference, 1250);
    for (let delivery = 0; delivery < 2; delivery++) {
      const res = await deliverSandboxWebhook(t, body);
      expect(res.statusCode).toBe(200);
    }
    expect(typesOf(await eventsOf(order.order_alias))).toEqual(PAID_ORDER_EVENTS);
  });

  it('records payment.succeeded and order.paid (then the approval) when an admin records cash paid', async () => {
    const order = await place();
    await payCashOnDelivery(order);
    expect(typesOf(await eventsOf(order.order_alias))).toEqual(PAID_ORDER_EVENTS);
  });
});

describe('events of an order in a market', () => {
  it("carry the market's code beside the order's currency, in order and payment events alike", async () => {
    await adminApi(t, admin).market({
      code: 'ev-eu',
      name: 'Events Europe',
      currency: 'EUR',
      prices_include_tax: false,
      exchange_rate: '0.8',
      countries: ['FR'],
    });
    // 12.50 USD × 0.8 = 10.00 EUR.
    const order = await placeGuestOrder(t, {
      variants: [{ alias: 'ev-1' }],
      shipping_address: { ...guestAddress, state: '', country: 'FR' },
    });
    await payCashOnDelivery(order);
    await setStatus(order.order_alias, 'processing');
    const events = await eventsOf(order.order_alias);
    expect(typesOf(events)).toEqual([...PAID_ORDER_EVENTS, [5, 'order.status_changed']]);
    for (const event of events) {
      expect(event.data, event.type).toMatchObject({ market_code: 'ev-eu', currency: 'EUR' });
    }
    expect(events[0]?.data.total).toBe('10.00');
    expect(events[1]?.data.amount).toBe('10.00');
  });

  it('carry none for an order of the default market, as its admin answer names none', async () => {
    const order = await place();
    for (const event of await eventsOf(order.order_alias)) expect(event.data).not.toHaveProperty('market_code');
  });
});

describe('the events list', () => {
  it('filters by type and by order, newest first, page by page', async () => {
    const order = await place();
    await setStatus(order.order_alias, 'approved');
    const all: ListedEvent[] = [];
    let cursor: string | null = null;
    do {
      const page = await apiAs(t, admin).get(
        `${eventsUrl}?type=order.status_changed&limit=3${cursor === null ? '' : `&cursor=${cursor}`}`,
      );
      expect(page.items.length).toBeLessThanOrEqual(3);
      all.push(...page.items);
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(all.length).toBeGreaterThan(3);
    expect(new Set(all.map((e) => e.type))).toEqual(new Set(['order.status_changed']));
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
    expect(all[0]?.data.order_alias).toBe(order.order_alias);

    const mine = await apiAs(t, admin).get(`${eventsUrl}?order_alias=${order.order_alias}&type=order.placed`);
    expect(mine.items.map((e: ListedEvent) => e.type)).toEqual(['order.placed']);
    expect(mine.next_cursor).toBeNull();
    const none = await apiAs(t, admin).get(`${eventsUrl}?order_alias=00000000-0000-4000-8000-000000000000`);
    expect(none).toEqual({ items: [], next_cursor: null });
  });

  it('is for admins only, and refuses unknown types, malformed aliases and unknown ids', async () => {
    const customer = await signUp(t.app);
    expectProblem(await t.app.inject({ method: 'GET', url: eventsUrl }), 401, 'unauthorized');
    expectProblem(
      await t.app.inject({ method: 'GET', url: eventsUrl, headers: bearer(customer.access) }),
      403,
      'forbidden',
    );
    const asAdmin = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(admin.access) });
    expectProblem(await asAdmin(`${eventsUrl}?type=order.shipped`), 422, 'validation_error');
    expectProblem(await asAdmin(`${eventsUrl}?order_alias=nope`), 422, 'validation_error');
    expectProblem(await asAdmin(`${eventsUrl}?cursor=12`), 422, 'validation_error');
    expectProblem(await asAdmin(`${eventsUrl}not-a-uuid/`), 422, 'validation_error');
    expectProblem(await asAdmin(`${eventsUrl}00000000-0000-4000-8000-000000000000/`), 404, 'event_not_found');
  });
});

describe('event subscribers', () => {
  it('enqueue their jobs in the transaction of the event, once per event', async () => {
    const order = await place();
    await setStatus(order.order_alias, 'approved');
    const events = await eventsOf(order.order_alias);
    const seen = told.filter((e) => e.orderAlias === order.order_alias);
    expect(seen.map((e) => [e.id, e.type])).toEqual(events.map((e) => [e.id, e.type]));
    for (const event of events) {
      const queued = await t.database.db
        .select()
        .from(jobs)
        .where(and(eq(jobs.key, event.id), eq(jobs.kind, 'test.seen')));
      expect(queued).toMatchObject([{ kind: 'test.seen', payload: { event_id: event.id }, status: 'queued' }]);
    }
  });

  it('enqueue nothing for a change that was refused', async () => {
    const order = await place();
    const before = told.length;
    const res = await t.app.inject({
      method: 'PATCH',
      url: adminOrderUrl(order.order_alias),
      headers: bearer(admin.access),
      payload: { status: 'shipped' },
    });
    expect(res.statusCode).toBe(409);
    expect(told.length).toBe(before);
  });
});

describe('webhook deliveries of recorded events', () => {
  // An app of its own without a worker, so the jobs its statements enqueue stay as they were written.
  let w: TestApp;
  let owner: SignedIn;
  beforeAll(async () => {
    w = await buildTestApp({ config: { jobsEnabled: false } });
    owner = await signInAdmin(w);
    await adminApi(w, owner).product({
      name: 'Hooked',
      variants: [{ alias: 'hooked', name: 'Hooked', price: '5.00', stock: 1000 }],
    });
  });
  afterAll(() => w.close());

  const placeHooked = () =>
    placeGuestOrder(w, { variants: [{ alias: 'hooked', quantity: 1 }], shipping_address: guestAddress });
  const eventIdsOf = async (alias: string) =>
    (await apiAs(w, owner).get(`/event/dashboard/api/events/?order_alias=${alias}`)).items.map(
      (e: { id: string }) => e.id,
    ) as string[];
  /** The `webhook.schedule` jobs that name one of these events, with the events each names. */
  const scheduleJobsOf = async (eventIds: string[]) =>
    (await w.database.db.select().from(jobs).where(eq(jobs.kind, WEBHOOK_SCHEDULE_JOB)))
      .map((job) => ({ status: job.status, eventIds: (job.payload as { event_ids: string[] }).event_ids }))
      .filter((job) => job.eventIds.some((id) => eventIds.includes(id)));
  const deliveriesOf = async (eventIds: string[]) =>
    (
      await w.database.run<{ event_id: string; endpoint_id: number }>(
        { name: 'test_deliveries_of_events', text: 'select event_id, endpoint_id from webhook_deliveries' },
        [],
      )
    )
      .filter((d) => eventIds.includes(d.event_id))
      .map((d) => [d.event_id, Number(d.endpoint_id)]);
  const endpoint = (events: string[], isActive = true) =>
    adminApi(w, owner).post('/webhook/dashboard/api/endpoints/', {
      url: 'https://hooks.example.com/events',
      events,
      is_active: isActive,
    });

  it('are left to one job per statement, which writes each once however often it runs', async () => {
    const hook = await endpoint(['order.placed', 'order.status_changed']);
    const order = await placeHooked();
    await apiAs(w, owner).patch(adminOrderUrl(order.order_alias), { status: 'approved' });
    const ids = await eventIdsOf(order.order_alias);
    expect(ids).toHaveLength(2);

    // Placement and the status change each enqueued one job naming its event; no delivery is written yet.
    expect(
      (await scheduleJobsOf(ids)).sort((a, b) => (a.eventIds[0] ?? '').localeCompare(b.eventIds[0] ?? '')),
    ).toEqual([...ids].sort().map((id) => ({ status: 'queued', eventIds: [id] })));
    expect(await deliveriesOf(ids)).toEqual([]);

    // The job's work: one delivery per event for the endpoint, due at once; run again, nothing more.
    expect(await scheduleEventDeliveries(w.database, ids)).toBe(2);
    expect(await scheduleEventDeliveries(w.database, ids)).toBe(0);
    expect((await deliveriesOf(ids)).sort()).toEqual(ids.map((id) => [id, hook.id]).sort());
    await adminApi(w, owner).delete(`/webhook/dashboard/api/endpoints/${hook.id}/`);
  });

  it('refuse for good a schedule job that names no event ids (no retries of what can never succeed)', async () => {
    const queue = new JobQueue();
    registerWebhookJobs(queue, { database: w.database });
    const schedule = queue.handlerOf(WEBHOOK_SCHEDULE_JOB);
    expect(schedule?.policy).toMatchObject({ giveUpAfterMs: 86_400_000 });
    const job = (payload: Record<string, unknown>) => ({
      id: 1,
      kind: WEBHOOK_SCHEDULE_JOB,
      payload,
      attempt: 1,
      createdAt: new Date(),
      signal: new AbortController().signal,
    });
    for (const payload of [{}, { event_ids: 'x' }, { event_ids: ['not-a-uuid'] }, { event_ids: [7] }]) {
      await expect(schedule?.run(job(payload))).rejects.toBeInstanceOf(PermanentJobError);
    }
    await expect(schedule?.run(job({ event_ids: [] }))).resolves.toBeUndefined();
  });

  it('cost no job for events that no active endpoint is subscribed to', async () => {
    const off = await endpoint(['order.placed'], false);
    const other = await endpoint(['payment.refunded']);
    const order = await placeHooked();
    const ids = await eventIdsOf(order.order_alias);
    expect(ids).toHaveLength(1);
    expect(await scheduleJobsOf(ids)).toEqual([]);
    for (const id of [off.id, other.id]) await adminApi(w, owner).delete(`/webhook/dashboard/api/endpoints/${id}/`);
  });
});
