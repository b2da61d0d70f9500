import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentEvents, payments } from '../src/db/schema.js';
import { sandboxEvent } from '../src/payments/plugins/sandbox/index.js';
import { adminApi, placeGuestOrder } from './fixtures.js';
import { buildTestApp, json, type SignedIn, signInAdmin, type TestApp } from './helpers.js';
import { deliverSandboxWebhook, startSandboxPayment } from './sandbox-gateway.js';

let t: TestApp;
let admin: SignedIn;
let n = 0;

beforeAll(async () => {
  t = await buildTestApp({ config: { paymentPlugins: ['sandbox'] } });
  admin = await signInAdmin(t);
  await adminApi(t, admin).product({
    name: 'C',
    variants: [{ alias: 'conc-1', name: 'C', price: '40.00', stock: 1000 }],
  });
});
afterAll(() => t.close());

/** A placed guest order with a started sandbox payment: its alias, token and payment reference. */
async function startedPayment() {
  n += 1;
  const order = await placeGuestOrder(t, {
    variants: [{ alias: 'conc-1' }],
    shipping_address: { country: 'US', email: `c${n}@example.com` },
  });
  const { paymentId, reference } = await startSandboxPayment(t, order);
  return { alias: order.order_alias, token: order.order_token, paymentId, reference };
}

const deliver = (body: string) => deliverSandboxWebhook(t, body);

const orderOf = async (p: { alias: string; token: string }) =>
  json(
    await t.app.inject({
      method: 'GET',
      url: `/order/storefront/api/orders/${p.alias}/`,
      headers: { 'x-order-token': p.token },
    }),
  );

describe('webhooks under concurrency', () => {
  it('applies an event delivered 20 times at once exactly once', async () => {
    const p = await startedPayment();
    const body = JSON.stringify(
      sandboxEvent('payment.succeeded', { reference: p.reference, amount: 4000, currency: 'USD' }),
    );
    const results = await Promise.all(Array.from({ length: 20 }, () => deliver(body)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    const eventId = JSON.parse(body).id as string;
    expect(await t.database.db.select().from(paymentEvents).where(eq(paymentEvents.eventId, eventId))).toHaveLength(1);
    const [payment] = await t.database.db.select().from(payments).where(eq(payments.id, p.paymentId));
    expect(payment).toMatchObject({ status: 'succeeded', amountCaptured: 4000, amountRefunded: 0 });
    expect((await orderOf(p)).payment_status).toBe('paid');
  });

  it("ends in the same state when a payment's events and their repeats arrive all at once", async () => {
    const p = await startedPayment();
    const data = (amount: number) => ({ reference: p.reference, amount, currency: 'USD' });
    const events = [
      sandboxEvent('payment.failed', data(4000)),
      sandboxEvent('payment.succeeded', data(4000)),
      sandboxEvent('payment.refunded', data(1000)),
      sandboxEvent('payment.refunded', data(2500)),
    ].map((e) => JSON.stringify(e));
    const deliveries = [...events, ...events, ...events].sort(() => Math.random() - 0.5);
    const results = await Promise.all(deliveries.map(deliver));
    expect(results.filter((r) => r.statusCode !== 200).map((r) => `${r.statusCode} ${r.body}`)).toEqual([]);
    const [payment] = await t.database.db.select().from(payments).where(eq(payments.id, p.paymentId));
    expect(payment).toMatchObject({ status: 'partially_refunded', amountCaptured: 4000, amountRefunded: 2500 });
    expect((await orderOf(p)).payment_status).toBe('partially_refunded');
  });

  it("applies a payment's events while admins refund it: both lock the order, then the payment", async () => {
    const p = await startedPayment();
    const data = { reference: p.reference, amount: 4000, currency: 'USD' };
    expect((await deliver(JSON.stringify(sandboxEvent('payment.succeeded', data)))).statusCode).toBe(200);
    const refund = () =>
      t.app.inject({
        method: 'POST',
        url: `/payment/dashboard/api/payments/${p.paymentId}/refund/`,
        headers: { authorization: `Bearer ${admin.access}` },
        payload: { amount: '1.00' },
      });
    const repeats = Array.from({ length: 8 }, () => JSON.stringify(sandboxEvent('payment.succeeded', data)));
    const results = await Promise.all([...repeats.map(deliver), ...Array.from({ length: 4 }, refund)]);
    expect(results.map((r) => r.statusCode)).toEqual([...Array(8).fill(200), ...Array(4).fill(200)]);
    const [payment] = await t.database.db.select().from(payments).where(eq(payments.id, p.paymentId));
    expect(payment).toMatchObject({ status: 'partially_refunded', amountCaptured: 4000, amountRefunded: 400 });
    expect((await orderOf(p)).payment_status).toBe('partially_refunded');
  });

  it('opens one attempt when the same start is sent many times at once', async () => {
    n += 1;
    const order = await placeGuestOrder(t, {
      variants: [{ alias: 'conc-1' }],
      shipping_address: { country: 'US', email: `s${n}@example.com` },
    });
    const starts = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.app.inject({
          method: 'POST',
          url: '/payment/storefront/api/start-payment/sandbox/',
          headers: { 'x-order-token': order.order_token },
          payload: { order_alias: order.order_alias },
        }),
      ),
    );
    const ok = starts.filter((r) => r.statusCode === 200).map((r) => json(r).payment_id);
    expect(new Set(ok).size).toBe(1);
    for (const r of starts.filter((x) => x.statusCode !== 200)) expect(json(r).code).toBe('payment_in_progress');
    const [first] = await t.database.db.select().from(payments).where(eq(payments.id, ok[0]));
    const attempts = await t.database.db.select().from(payments).where(eq(payments.orderId, first!.orderId));
    expect(attempts).toHaveLength(1);
  });
});

describe('Idempotency-Key on start-payment', () => {
  it('answers a key again with its first answer, even once the payment succeeded; refuses it for another', async () => {
    const p = await startedPaymentWithKey('start-key-1');
    const again = await t.app.inject({
      method: 'POST',
      url: '/payment/storefront/api/start-payment/sandbox/',
      headers: { 'x-order-token': p.token, 'idempotency-key': 'start-key-1' },
      payload: { order_alias: p.alias },
    });
    expect(json(again)).toEqual(p.first);
    const body = JSON.stringify(
      sandboxEvent('payment.succeeded', { reference: p.reference, amount: 4000, currency: 'USD' }),
    );
    await deliver(body);
    const afterPaid = await t.app.inject({
      method: 'POST',
      url: '/payment/storefront/api/start-payment/sandbox/',
      headers: { 'x-order-token': p.token, 'idempotency-key': 'start-key-1' },
      payload: { order_alias: p.alias },
    });
    expect(afterPaid.statusCode).toBe(200);
    expect(json(afterPaid)).toEqual(p.first);
    const other = await t.app.inject({
      method: 'POST',
      url: '/payment/storefront/api/start-payment/sandbox/',
      headers: { 'x-order-token': p.token, 'idempotency-key': 'start-key-1' },
      payload: { order_alias: p.alias, return_url: 'https://shop.example/thanks' },
    });
    expect(json(other).code).toBe('idempotency_key_reused');
    const stranger = await t.app.inject({
      method: 'POST',
      url: '/payment/storefront/api/start-payment/sandbox/',
      headers: { 'idempotency-key': 'start-key-1' },
      payload: { order_alias: p.alias },
    });
    expect(json(stranger).code).toBe('order_not_found');
  });
});

async function startedPaymentWithKey(key: string) {
  n += 1;
  const order = await placeGuestOrder(t, {
    variants: [{ alias: 'conc-1' }],
    shipping_address: { country: 'US', email: `k${n}@example.com` },
  });
  const { reference, answer } = await startSandboxPayment(t, order, { idempotencyKey: key });
  return { alias: order.order_alias, token: order.order_token, reference, first: answer };
}
