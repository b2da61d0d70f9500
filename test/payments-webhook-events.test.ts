import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, paymentEvents, paymentOperations, payments } from '../src/db/schema.js';
import { adminApi, placeGuestOrder } from './fixtures.js';
import { buildTestApp, onPostgres, type SignedIn, signInAdmin, type TestApp } from './helpers.js';
import { deliverSandboxWebhook, sandboxEventBody, startSandboxPayment } from './sandbox-gateway.js';

/**
 * A gateway's events that change nothing (repeats, news the payment already has) are decided and committed in a
 * transaction of their own; those that change the payment are applied in full (decision 0026). These check that both
 * leave what one transaction per event left, also when deliveries and admin work meet.
 */

let t: TestApp;
let admin: SignedIn;
let n = 0;

beforeAll(async () => {
  t = await buildTestApp({ config: { paymentPlugins: ['sandbox'] } });
  admin = await signInAdmin(t);
  await adminApi(t, admin).product({
    name: 'W',
    variants: [{ alias: 'wh-1', name: 'W', price: '40.00', stock: 1000 }],
  });
});
afterAll(() => t.close());

async function startedPayment() {
  n += 1;
  const order = await placeGuestOrder(t, {
    variants: [{ alias: 'wh-1' }],
    shipping_address: { country: 'US', email: `w${n}@example.com` },
  });
  const { paymentId, reference } = await startSandboxPayment(t, order);
  return { paymentId, orderId: order.order_id, reference };
}

const deliver = (body: string) => deliverSandboxWebhook(t, body);
const event = sandboxEventBody;

/** A payment of 40.00 that succeeded: the order paid and approved. */
async function paidPayment() {
  const p = await startedPayment();
  expect((await deliver(event('payment.succeeded', p.reference, 4000))).statusCode).toBe(200);
  return p;
}

/** What a payment's events may have written: the payment, its ledger records, its order's events. */
async function writtenFor(p: { paymentId: number; orderId: number }) {
  const { db } = t.database;
  const [payment] = await db.select().from(payments).where(eq(payments.id, p.paymentId));
  const records = await db.select().from(paymentOperations).where(eq(paymentOperations.paymentId, p.paymentId));
  const orderEvents = await db.select().from(events).where(eq(events.orderId, p.orderId));
  return { payment, records: records.length, events: orderEvents.length };
}

const storedEvent = async (body: string) => {
  const rows = await t.database.db
    .select()
    .from(paymentEvents)
    .where(and(eq(paymentEvents.pluginId, 'sandbox'), eq(paymentEvents.eventId, JSON.parse(body).id)));
  return rows;
};

describe('gateway events that change nothing', () => {
  it('stores news the payment already has, marked with its payment, unapplied, and writes nothing else', async () => {
    const p = await paidPayment();
    const before = await writtenFor(p);
    const again = event('payment.succeeded', p.reference, 4000);
    expect((await deliver(again)).statusCode).toBe(200);
    expect(await storedEvent(again)).toMatchObject([{ paymentId: p.paymentId, applied: false }]);
    expect(await writtenFor(p)).toEqual(before);
  });

  it('stores a repeat delivered 20 times at once once, and changes nothing', async () => {
    const p = await paidPayment();
    const before = await writtenFor(p);
    const again = event('payment.succeeded', p.reference, 4000);
    const results = await Promise.all(Array.from({ length: 20 }, () => deliver(again)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect(await storedEvent(again)).toMatchObject([{ paymentId: p.paymentId, applied: false }]);
    expect(await writtenFor(p)).toEqual(before);
  });

  it('keeps an event for no payment unapplied, with no payment', async () => {
    const body = event('payment.succeeded', 'pay_nobody_knows', 4000);
    expect((await deliver(body)).statusCode).toBe(200);
    expect((await deliver(body)).statusCode).toBe(200);
    expect(await storedEvent(body)).toMatchObject([
      { paymentId: null, applied: false, pendingGatewayPaymentRef: null },
    ]);
  });
});

describe('gateway events delivered together (decided in batches)', () => {
  it("applies one payment's success once while events that change nothing on another arrive with it", async () => {
    const paid = await paidPayment();
    const unpaid = await startedPayment();
    const paidBefore = await writtenFor(paid);
    const noOps = Array.from({ length: 10 }, () => event('payment.succeeded', paid.reference, 4000));
    const successes = Array.from({ length: 6 }, () => event('payment.succeeded', unpaid.reference, 4000));
    const results = await Promise.all([...noOps, ...successes].sort(() => Math.random() - 0.5).map(deliver));
    expect(results.map((r) => r.statusCode)).toEqual(Array(16).fill(200));
    expect(await writtenFor(paid)).toEqual(paidBefore);
    for (const body of noOps) expect(await storedEvent(body)).toMatchObject([{ paymentId: paid.paymentId }]);
    const stored = (await Promise.all(successes.map(storedEvent))).flat();
    expect(stored.map((e) => e.paymentId)).toEqual(Array(6).fill(unpaid.paymentId));
    expect(stored.filter((e) => e.applied)).toHaveLength(1);
    const after = await writtenFor(unpaid);
    expect(after.payment).toMatchObject({ status: 'succeeded', amountCaptured: 4000 });
    expect(after.records).toBe(1);
  });

  it('fails an event that cannot be stored alone: the events delivered with it are stored', async () => {
    const p = await paidPayment();
    const bodies = Array.from({ length: 8 }, () => event('payment.succeeded', p.reference, 4000));
    const broken = event('payment.succeeded', 'pay_\u0000broken', 4000);
    const results = await Promise.all([...bodies, broken].map(deliver));
    expect(results.slice(0, 8).map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    expect(results[8]?.statusCode).toBe(500);
    for (const body of bodies) expect(await storedEvent(body)).toMatchObject([{ paymentId: p.paymentId }]);
  });
});

describe('gateway events and the ledger', () => {
  it('counts a refund waiting for its gateway when the gateway reports it; records only what is beyond', async () => {
    const p = await paidPayment();
    // An admin refund of 5.00 reserved, its gateway call not yet answered.
    await t.database.db.insert(paymentOperations).values({
      paymentId: p.paymentId,
      orderId: p.orderId,
      kind: 'refund',
      status: 'pending',
      source: 'admin',
      amount: 500,
      gatewayKey: `refund-test-${n}`,
    });
    const before = await writtenFor(p);
    const same = event('payment.refunded', p.reference, 500);
    expect((await deliver(same)).statusCode).toBe(200);
    expect(await storedEvent(same)).toMatchObject([{ paymentId: p.paymentId, applied: false }]);
    expect(await writtenFor(p)).toEqual(before);

    const more = event('payment.refunded', p.reference, 800);
    expect((await deliver(more)).statusCode).toBe(200);
    expect(await storedEvent(more)).toMatchObject([{ paymentId: p.paymentId, applied: true }]);
    const after = await writtenFor(p);
    expect(after.payment).toMatchObject({ status: 'partially_refunded', amountRefunded: 300 });
    const gatewayRefunds = await t.database.db
      .select()
      .from(paymentOperations)
      .where(and(eq(paymentOperations.paymentId, p.paymentId), eq(paymentOperations.source, 'gateway')));
    expect(gatewayRefunds.filter((r) => r.kind === 'refund').map((r) => r.amount)).toEqual([300]);
    expect(after.events).toBeGreaterThan(before.events);
  });

  it('ends with the admin refunds and nothing more when repeats of a success race them', async () => {
    const p = await paidPayment();
    const refund = () =>
      t.app.inject({
        method: 'POST',
        url: `/payment/dashboard/api/payments/${p.paymentId}/refund/`,
        headers: { authorization: `Bearer ${admin.access}` },
        payload: { amount: '2.50' },
      });
    const repeats = Array.from({ length: 10 }, () => event('payment.succeeded', p.reference, 4000));
    const results = await Promise.all([...repeats.map(deliver), refund(), refund(), refund()]);
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    const after = await writtenFor(p);
    expect(after.payment).toMatchObject({ status: 'partially_refunded', amountCaptured: 4000, amountRefunded: 750 });
    for (const body of repeats) expect(await storedEvent(body)).toMatchObject([{ applied: false }]);
  });
});

describe.skipIf(!onPostgres)('gateway events and row locks (PostgreSQL)', () => {
  it('answers a repeat without waiting for its order lock; decides a new event with what the lock held', async () => {
    const p = await paidPayment();
    const repeat = event('payment.succeeded', p.reference, 4000);
    expect((await deliver(repeat)).statusCode).toBe(200);
    // An admin refund of 5.00 reserved, its gateway call not yet answered.
    await t.database.db.insert(paymentOperations).values({
      paymentId: p.paymentId,
      orderId: p.orderId,
      kind: 'refund',
      status: 'pending',
      source: 'admin',
      amount: 500,
      gatewayKey: `refund-lock-${n}`,
    });
    const other = new pg.Client({ connectionString: t.url });
    await other.connect();
    try {
      // Another transaction holds the order's lock and settles that refund meanwhile, as an admin refund does.
      await other.query('begin');
      await other.query('select id from orders where id = $1 for update', [p.orderId]);
      await other.query(`update payment_operations set status = 'succeeded' where payment_id = $1`, [p.paymentId]);
      await other.query(`update payments set amount_refunded = 500, status = 'partially_refunded' where id = $1`, [
        p.paymentId,
      ]);
      const started = Date.now();
      expect((await deliver(repeat)).statusCode).toBe(200);
      expect(Date.now() - started).toBeLessThan(1000);

      // The gateway reports 10.00 refunded in all: the 5.00 settled while it waited, and 5.00 more.
      const reported = event('payment.refunded', p.reference, 1000);
      const waiting = deliver(reported);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await storedEvent(reported)).toEqual([]);
      await other.query('commit');
      expect((await waiting).statusCode).toBe(200);
      expect(await storedEvent(reported)).toMatchObject([{ paymentId: p.paymentId, applied: true }]);
      const [payment] = await t.database.db.select().from(payments).where(eq(payments.id, p.paymentId));
      expect(payment).toMatchObject({ status: 'partially_refunded', amountRefunded: 1000 });
    } finally {
      await other.end();
    }
  });
});
