import { formatMinor } from '../src/shared/money.js';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { jobs, productVariants, promotions } from '../src/db/schema.js';
import type { Outbox } from '../src/events/outbox.js';
import type { JobQueue } from '../src/jobs/job-queue.js';
import {
  EXPIRY_INTERVAL_MS,
  EXPIRY_JOB_KIND,
  expireUnpaidOrders,
  scheduleOrderExpiry,
} from '../src/orders/order-expiry.js';
import { GatewayError } from '../src/payments/payment-plugin.js';
import { adminApi, apiAs, guestAddress, orderEventTypes, type PlacedOrder, placeGuestOrder } from './fixtures.js';
import { buildTestApp, expectProblem, json, type SignedIn, signInAdmin, type TestApp } from './helpers.js';
import { deliverSandboxWebhook, sandboxEventBody, startSandboxPayment } from './sandbox-gateway.js';

// SPEC 11 order lifecycle: auto-approve on payment, cancel needs a refund, one open payment attempt, unpaid expiry.

let t: TestApp;
let admin: SignedIn;
let variantId: number;
let outbox: Outbox;

beforeAll(async () => {
  t = await buildTestApp({
    config: { paymentPlugins: ['sandbox', 'cash_on_delivery'] },
    background: (parts) => {
      outbox = parts.outbox;
    },
  });
  admin = await signInAdmin(t);
  const product = await adminApi(t, admin).product({
    name: 'Lifecycle',
    variants: [
      { alias: 'lc-1', name: 'One', price: '12.50', stock: 1000 },
      { alias: 'lc-expiring', name: 'Expiring', price: '3.00', stock: 100 },
    ],
  });
  // Only the expiry test's order takes this one: every other pending order expires too in its run.
  variantId = product.variants[1]?.id ?? 0;
});
afterAll(() => t.close());

const orderUrl = (alias: string) => `/order/dashboard/api/orders/${alias}/`;
const place = (promocode?: string, alias = 'lc-1') =>
  placeGuestOrder(t, {
    variants: [{ alias, quantity: 2 }],
    shipping_address: guestAddress,
    ...(promocode ? { promocode } : {}),
  });
const orderOf = (order: PlacedOrder) => apiAs(t, admin).get(orderUrl(order.order_alias));
const patch = (order: PlacedOrder, body: object) =>
  t.app.inject({ method: 'PATCH', url: orderUrl(order.order_alias), headers: authOf(admin), payload: body });
const authOf = (who: SignedIn) => ({ authorization: `Bearer ${who.access}` });

const typesOf = (order: PlacedOrder) => orderEventTypes(t, admin, order.order_alias);

function start(order: PlacedOrder, plugin: string) {
  return t.app.inject({
    method: 'POST',
    url: `/payment/storefront/api/start-payment/${plugin}/`,
    headers: { 'x-order-token': order.order_token },
    payload: { order_alias: order.order_alias },
  });
}

/** Starts a sandbox payment; answers its reference, for webhooks. */
const startSandbox = (order: PlacedOrder) => startSandboxPayment(t, order);

/** The sandbox gateway's signed "succeeded" webhook for the whole order. */
async function sandboxSucceeded(reference: string, amountMinor: number) {
  const res = await deliverSandboxWebhook(t, sandboxEventBody('payment.succeeded', reference, amountMinor));
  expect(res.statusCode).toBe(200);
}

const minor = (order: PlacedOrder) => Math.round(Number(order.total) * 100);

async function paidWithSandbox(): Promise<PlacedOrder> {
  const order = await place();
  const { reference } = await startSandbox(order);
  await sandboxSucceeded(reference, minor(order));
  return order;
}

/** Runs expiry as the job does, with the clock `minutes` ahead of now. */
const expireAt = (minutes: number, ttlMinutes = 60) =>
  expireUnpaidOrders({
    db: t.database.db,
    outbox,
    ttlMinutes,
    exemptPluginIds: ['cash_on_delivery'],
    now: () => new Date(Date.now() + minutes * 60_000),
  });

const stockOf = async () =>
  (await t.database.db.select().from(productVariants).where(eq(productVariants.id, variantId)))[0]?.stock;

describe('auto-approve', () => {
  it('approves a pending order when it becomes paid, recording order.status_changed after order.paid', async () => {
    const order = await paidWithSandbox();
    expect(await orderOf(order)).toMatchObject({ status: 'approved', payment_status: 'paid' });
    expect(await typesOf(order)).toEqual(['order.placed', 'payment.succeeded', 'order.paid', 'order.status_changed']);
  });
});

describe('cancelling a paid order', () => {
  it('is 409 refund_required without refund, and with refund: true cancels and refunds in one action', async () => {
    const order = await paidWithSandbox();
    expectProblem(await patch(order, { status: 'cancelled' }), 409, 'refund_required');
    expect(await orderOf(order)).toMatchObject({ status: 'approved', payment_status: 'paid' });
    const res = await patch(order, { status: 'cancelled', refund: true });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({ status: 'cancelled', payment_status: 'refunded', cancel_reason: null });
    // Cancelled, the order charges nothing: the whole refund returns money owed back, none of it is a credit.
    expect(json(res).ledger).toMatchObject({ refunded: order.total, credited: '0.00', balance_due: '0.00' });
    const payments = await apiAs(t, admin).get(`/payment/dashboard/api/orders/${order.order_alias}/payments/`);
    expect(payments).toMatchObject([{ status: 'refunded', amount_refunded: order.total }]);
    expect((await typesOf(order)).slice(-3)).toEqual(['order.status_changed', 'order.cancelled', 'payment.refunded']);
  });

  it('resumes the same refunds when a cancel-and-refund is sent again with its key after a timeout', async () => {
    const order = await paidWithSandbox();
    const gateway = t.payments.get('sandbox')?.gateway;
    if (!gateway?.refund) throw new Error('the sandbox has no refund');
    const real = gateway.refund.bind(gateway);
    const keys: string[] = [];
    const spy = vi.spyOn(gateway, 'refund').mockImplementation(async (input) => {
      keys.push(input.idempotencyKey);
      if (keys.length === 1) throw new GatewayError('the gateway did not answer in time', true);
      return real(input);
    });
    try {
      const send = () =>
        t.app.inject({
          method: 'PATCH',
          url: orderUrl(order.order_alias),
          headers: { ...authOf(admin), 'idempotency-key': 'cancel-once' },
          payload: { status: 'cancelled', refund: true },
        });
      expectProblem(await send(), 502, 'payment_gateway_error');
      // Cancelled, its money still owed back while the refund is unanswered.
      expect(await orderOf(order)).toMatchObject({ status: 'cancelled', ledger: { refunded: '0.00' } });
      const again = await send();
      expect(again.statusCode, again.body).toBe(200);
      expect(json(again)).toMatchObject({
        status: 'cancelled',
        payment_status: 'refunded',
        ledger: { refunded: order.total, balance_due: '0.00' },
      });
      expect(keys).toHaveLength(2);
      expect(keys[1]).toBe(keys[0]);
    } finally {
      spy.mockRestore();
    }
  });

  it('cancels an unpaid order with or without refund: true, and refuses refund with another status (422)', async () => {
    const order = await place();
    expectProblem(await patch(order, { status: 'approved', refund: true }), 422, 'validation_error');
    const res = await patch(order, { status: 'cancelled', refund: true });
    expect(json(res)).toMatchObject({ status: 'cancelled', payment_status: 'unpaid' });
  });
});

describe('one open payment attempt per order', () => {
  it('supersedes the open attempt when the payer chooses another method, and reuses it for the same one', async () => {
    const order = await place();
    const first = await startSandbox(order);
    // The sandbox attempt again is the same attempt, not a second one.
    expect(json(await start(order, 'sandbox')).payment_id).toBe(first.paymentId);
    const cod = await start(order, 'cash_on_delivery');
    expect(cod.statusCode, cod.body).toBe(200);
    const payments = await apiAs(t, admin).get(`/payment/dashboard/api/orders/${order.order_alias}/payments/`);
    expect(payments).toMatchObject([
      { id: first.paymentId, plugin_id: 'sandbox', status: 'superseded' },
      { id: json(cod).payment_id, plugin_id: 'cash_on_delivery', status: 'pending' },
    ]);
    // And back again: the cash attempt is superseded in turn by a new sandbox attempt.
    const again = json(await start(order, 'sandbox'));
    expect(again.payment_id).not.toBe(first.paymentId);
  });

  it('records a late success of a superseded attempt: the order is overpaid, and the refund clears it', async () => {
    const order = await place();
    const first = await startSandbox(order);
    const cod = json(await start(order, 'cash_on_delivery'));
    await t.app.inject({
      method: 'POST',
      url: `/payment/dashboard/api/payments/${cod.payment_id}/capture/`,
      headers: authOf(admin),
      payload: {},
    });
    // The payer had paid the sandbox attempt before going Back: its success arrives late and is kept.
    await sandboxSucceeded(first.reference, minor(order));
    const overpaid = await orderOf(order);
    expect(overpaid).toMatchObject({ payment_status: 'overpaid' });
    expect(overpaid.ledger).toMatchObject({ captured: formatMinor(minor(order) * 2, 2), refund_due: order.total });
    const refund = await t.app.inject({
      method: 'POST',
      url: `/payment/dashboard/api/payments/${first.paymentId}/refund/`,
      headers: authOf(admin),
      payload: {},
    });
    expect(refund.statusCode, refund.body).toBe(200);
    expect(await orderOf(order)).toMatchObject({
      payment_status: 'partially_refunded',
      ledger: { balance_due: '0.00', refund_due: '0.00', credited: '0.00' },
    });
  });
});

describe('cash on delivery', () => {
  it('is not captured on an order paid meanwhile (409 order_already_paid), so it never becomes overpaid', async () => {
    const order = await place();
    const sandbox = await startSandbox(order);
    const cod = json(await start(order, 'cash_on_delivery'));
    // Paid by other means meanwhile: the superseded sandbox attempt succeeds while the cash attempt is still open.
    await sandboxSucceeded(sandbox.reference, minor(order));
    const res = await t.app.inject({
      method: 'POST',
      url: `/payment/dashboard/api/payments/${cod.payment_id}/capture/`,
      headers: authOf(admin),
      payload: {},
    });
    expectProblem(res, 409, 'order_already_paid');
    expect(await orderOf(order)).toMatchObject({ payment_status: 'paid' });
  });
});

describe('unpaid-order expiry', () => {
  it('cancels an unpaid order past the TTL as expired: stock and promo-code use back, order.expired once', async () => {
    const code = `EXP${Date.now()}`;
    await adminApi(t, admin).promoCode({ code, code_type: 'percentage', value: '10' });
    const promoUses = async () =>
      (await t.database.db.select().from(promotions).where(eq(promotions.code, code)))[0]?.timesUsed;
    const stockBefore = await stockOf();
    const order = await place(code, 'lc-expiring');
    expect(await stockOf()).toBe((stockBefore ?? 0) - 2);
    expect(await promoUses()).toBe(1);

    expect(await expireAt(59)).not.toContain(order.order_alias);
    expect(await orderOf(order)).toMatchObject({ status: 'pending' });
    expect(await expireAt(61)).toContain(order.order_alias);
    expect(await expireAt(120)).not.toContain(order.order_alias);

    expect(await orderOf(order)).toMatchObject({ status: 'cancelled', cancel_reason: 'expired' });
    expect(await stockOf()).toBe(stockBefore);
    expect(await promoUses()).toBe(0);
    expect(await typesOf(order)).toEqual(['order.placed', 'order.status_changed', 'order.expired']);
  });

  it('never expires with a TTL of 0, and leaves paid and cash-on-delivery orders alone', async () => {
    const unpaid = await place();
    const paid = await paidWithSandbox();
    const cod = await place();
    expect((await start(cod, 'cash_on_delivery')).statusCode).toBe(200);
    expect(await expireAt(100_000, 0)).toEqual([]);
    expect(await orderOf(unpaid)).toMatchObject({ status: 'pending' });
    const expired = await expireAt(61);
    expect(expired).toContain(unpaid.order_alias);
    expect(expired).not.toContain(paid.order_alias);
    expect(expired).not.toContain(cod.order_alias);
    expect(await orderOf(cod)).toMatchObject({ status: 'pending', payment_status: 'unpaid' });
  });

  it('expires each order once with two runs at the same time', async () => {
    const placed = await Promise.all([place(), place(), place(), place(), place()]);
    const runs = await Promise.all([expireAt(61), expireAt(61)]);
    const all = runs.flat();
    for (const order of placed) {
      expect(all.filter((alias) => alias === order.order_alias)).toHaveLength(1);
      expect((await typesOf(order)).filter((type) => type === 'order.expired')).toHaveLength(1);
    }
  });

  it('records a payment succeeding after expiry: the order shows overpaid, with order.paid_after_expiry', async () => {
    const order = await place();
    const { reference } = await startSandbox(order);
    expect(await expireAt(61)).toContain(order.order_alias);
    await sandboxSucceeded(reference, minor(order));
    expect(await orderOf(order)).toMatchObject({
      status: 'cancelled',
      cancel_reason: 'expired',
      payment_status: 'overpaid',
    });
    expect(await typesOf(order)).toEqual([
      'order.placed',
      'order.status_changed',
      'order.expired',
      'payment.succeeded',
      'order.paid_after_expiry',
    ]);
  });

  it('ends in one consistent state when expiry races a payment webhook', async () => {
    const orders = await Promise.all([place(), place(), place(), place()]);
    const refs = await Promise.all(orders.map((o) => startSandbox(o)));
    await Promise.all([
      expireAt(61),
      ...orders.map((o, i) => sandboxSucceeded(refs[i]?.reference ?? '', minor(o))),
      expireAt(61),
    ]);
    await expireAt(61);
    for (const order of orders) {
      const shown = await orderOf(order);
      const types = await typesOf(order);
      if (shown.status === 'cancelled') {
        expect(shown).toMatchObject({ cancel_reason: 'expired', payment_status: 'overpaid' });
        expect(types.slice(-2)).toEqual(['payment.succeeded', 'order.paid_after_expiry']);
        expect(types.filter((type) => type === 'order.expired')).toHaveLength(1);
      } else {
        expect(shown).toMatchObject({ status: 'approved', payment_status: 'paid', cancel_reason: null });
        expect(types).toEqual(['order.placed', 'payment.succeeded', 'order.paid', 'order.status_changed']);
      }
    }
  });
});

describe('the expiry job', () => {
  it('is enqueued once per minute whatever the number of processes, and runs, enqueuing the next', async () => {
    let queue: JobQueue | undefined;
    const withExpiry = await buildTestApp({
      config: { unpaidOrderTtlMinutes: 60 },
      background: (parts) => {
        queue = parts.jobs;
      },
    });
    try {
      await withExpiry.app.ready();
      const db = withExpiry.database.db;
      const rows = () => db.select().from(jobs).where(eq(jobs.kind, EXPIRY_JOB_KIND)).orderBy(asc(jobs.id));
      // The app enqueued this minute's run as it started; another process starting now adds nothing.
      const startedAt = (await rows())[0]?.createdAt.getTime() ?? Date.now();
      expect(await scheduleOrderExpiry({ db, jobs: queue as JobQueue }, startedAt)).toBeUndefined();
      for (let i = 0; i < 200 && (await rows()).length < 2; i++) await new Promise((r) => setTimeout(r, 50));
      const [current, next] = await rows();
      expect(current).toMatchObject({ status: expect.stringMatching(/running|done/) });
      expect(next?.status).toBe('queued');
      expect((next?.runAt.getTime() ?? 0) % EXPIRY_INTERVAL_MS).toBe(0);
    } finally {
      await withExpiry.close();
    }
  });
});
