import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { orders } from '../src/db/schema.js';
import type { Money } from '../src/payments/payment-plugin.js';
import { currencyFormat } from '../src/shared/money.js';
import { adminApi, apiAs, guestAddress, type PlacedOrder, placeGuestOrder } from './fixtures.js';
import { bearer, buildTestApp, expectProblem, json, type SignedIn, signInAdmin, type TestApp } from './helpers.js';
import { deliverSandboxWebhook, sandboxEventBody, startSandboxPayment } from './sandbox-gateway.js';
import { type StripeStandIn, startStripeStandIn, stripeEvent, stripeSignature } from './stripe-standin.js';

/**
 * Money out in the order's own currency (issue #28, item 4): in a JPY store (0 decimals) and a KWD store (3), an
 * order is paid through the sandbox and through Stripe's stand-in (the official SDK), the gateway receives exactly
 * the order's total in its minor units (Stripe's for Stripe), a full refund returns exactly that, and every event
 * says the currency. Figures are computed by hand in each case.
 */

const SESSIONS = 'POST /v1/checkout/sessions';
const REFUNDS = 'POST /v1/refunds';

let standin: StripeStandIn;
beforeAll(async () => {
  standin = await startStripeStandIn();
});
afterAll(() => standin.close());

interface StoreCase {
  currency: string;
  /** The unit price, the shipping rate and the tax rate in Texas (null: none) as the admin enters them. */
  price: string;
  shipping: string;
  taxRate: string | null;
  /** Hand-computed: 2 units, shipping, tax. */
  figures: { subtotal: string; shipping_fee: string; estimated_tax: string; total: string };
  /** The total in the gateway's minor units: the service's for the sandbox, Stripe's for Stripe. */
  minor: number;
  stripe: { currency: string; unitAmount: string };
}

const cases: StoreCase[] = [
  {
    // 2 × ¥3,800 = ¥7,600; shipping ¥500 (untaxed: no shipping tax class); tax 10% of the goods, ¥760. Stripe: yen.
    currency: 'JPY',
    price: '3800',
    shipping: '500',
    taxRate: '10',
    figures: { subtotal: '7600', shipping_fee: '500', estimated_tax: '760', total: '8860' },
    minor: 8860,
    stripe: { currency: 'jpy', unitAmount: '8860' },
  },
  {
    // 2 × KD 7.690 = KD 15.380; shipping KD 1.250; no VAT (Kuwait): KD 16.630. Stripe: 16630 fils, last digit 0.
    currency: 'KWD',
    price: '7.690',
    shipping: '1.250',
    taxRate: null,
    figures: { subtotal: '15.380', shipping_fee: '1.250', estimated_tax: '0.000', total: '16.630' },
    minor: 16_630,
    stripe: { currency: 'kwd', unitAmount: '16630' },
  },
];

/** A store in `currency` with the sandbox, Stripe (at the stand-in) and cash on delivery, a product and a rate. */
async function openStore(c: Pick<StoreCase, 'currency' | 'price' | 'shipping' | 'taxRate'>) {
  const t = await buildTestApp({
    config: { storeCurrency: c.currency, paymentPlugins: ['sandbox', 'stripe', 'cash_on_delivery'] },
    pluginEnv: standin.env(),
  });
  const admin = await signInAdmin(t);
  const api = adminApi(t, admin);
  const taxClass = await api.taxClass({ name: 'Standard' });
  if (c.taxRate !== null) await api.taxRate({ tax_class_id: taxClass.id, country: 'US', rate: c.taxRate });
  const method = await api.shippingMethod({ name: 'Courier' });
  await api.shippingRate({ shipping_method_id: method.id, weight_min_kg: '0', base_rate: c.shipping });
  await api.product({
    name: 'T-shirt',
    tax_class_id: taxClass.id,
    variants: [{ alias: 'tee', name: 'T-shirt', price: c.price, stock: 1000 }],
  });
  const place = (extra: { promocode?: string } = {}) =>
    placeGuestOrder(t, {
      variants: [{ alias: 'tee', quantity: 2 }],
      shipping_address: guestAddress,
      shipping_method_id: method.id,
      ...extra,
    });
  return { t, admin, place };
}

function moneyOps(t: TestApp, admin: SignedIn) {
  const post = (url: string, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers: bearer(admin.access), ...(payload ? { payload } : {}) });
  return {
    refund: (paymentId: number, payload?: object) =>
      post(`/payment/dashboard/api/payments/${paymentId}/refund/`, payload),
    paymentsOf: async (alias: string) => apiAs(t, admin).get(`/payment/dashboard/api/orders/${alias}/payments/`),
    orderOf: async (alias: string) => apiAs(t, admin).get(`/order/dashboard/api/orders/${alias}/`),
    eventsOf: async (alias: string) =>
      (
        (await apiAs(t, admin).get(`/event/dashboard/api/events/?order_alias=${alias}&limit=100`)).items as {
          type: string;
          data: Record<string, unknown>;
        }[]
      ).reverse(),
  };
}

const startStripe = async (t: TestApp, order: PlacedOrder) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/payment/storefront/api/start-payment/stripe/',
    headers: { 'x-order-token': order.order_token },
    payload: { order_alias: order.order_alias },
  });
  return res;
};

const deliverStripe = (t: TestApp, event: { payload: string }) =>
  t.app.inject({
    method: 'POST',
    url: '/payment/storefront/api/webhook-view/stripe/',
    payload: event.payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignature(event.payload) },
  });

const sessionOf = (alias: string) =>
  standin
    .requestsTo(SESSIONS)
    .filter((r) => !r.replayed && (r.body.metadata as Record<string, string> | undefined)?.order_alias === alias);

describe.each(cases)('a $currency store pays and refunds to the minor unit', (c) => {
  let t: TestApp;
  let admin: SignedIn;
  let place: (extra?: { promocode?: string }) => Promise<PlacedOrder>;
  let ops: ReturnType<typeof moneyOps>;
  const money = (amountMinor: number): Money => ({
    amountMinor,
    currency: c.currency,
    exponent: currencyFormat(c.currency).exponent,
  });

  beforeAll(async () => {
    ({ t, admin, place } = await openStore(c));
    ops = moneyOps(t, admin);
  });
  afterAll(() => t.close());

  it(`places the order at ${c.figures.total} ${c.currency}, figures computed by hand`, async () => {
    const order = await place();
    expect(await ops.orderOf(order.order_alias)).toMatchObject({ currency: c.currency, ...c.figures });
  });

  it('sandbox: the gateway is asked for the total in minor units; a full refund gives back exactly that', async () => {
    const gateway = t.payments.get('sandbox')?.gateway;
    if (!gateway?.refund) throw new Error('no sandbox');
    const start = vi.spyOn(gateway, 'start');
    const refund = vi.spyOn(gateway, 'refund');
    const order = await place();
    const started = await startSandboxPayment(t, order);
    expect(started.answer).toMatchObject({ amount: c.figures.total, currency: c.currency });
    expect(start.mock.calls.at(-1)?.[0].amount).toEqual(money(c.minor));
    expect(new URL(started.answer.url).searchParams.get('amount')).toBe(String(c.minor));
    const paid = await deliverSandboxWebhook(
      t,
      sandboxEventBody('payment.succeeded', started.reference, { minor: c.minor, currency: c.currency }),
    );
    expect(paid.statusCode, paid.body).toBe(200);
    expect((await ops.orderOf(order.order_alias)).ledger).toMatchObject({
      captured: c.figures.total,
      balance_due: currencyFormat(c.currency).format(0),
    });

    const res = await ops.refund(started.paymentId);
    expect(res.statusCode, res.body).toBe(200);
    expect(refund.mock.calls.at(-1)?.[0].amount).toEqual(money(c.minor));
    expect(json(res)).toMatchObject({ status: 'refunded', currency: c.currency, amount_refunded: c.figures.total });
    expect(await ops.orderOf(order.order_alias)).toMatchObject({
      payment_status: 'refunded',
      ledger: { refunded: c.figures.total },
    });
    start.mockRestore();
    refund.mockRestore();
  });

  it("Stripe: the Checkout Session is for the total in Stripe's units; a full refund sends exactly that", async () => {
    const order = await place();
    const res = await startStripe(t, order);
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res)).toMatchObject({ amount: c.figures.total, currency: c.currency });
    const [request] = sessionOf(order.order_alias);
    expect(request?.body.line_items).toEqual([
      {
        quantity: '1',
        price_data: {
          currency: c.stripe.currency,
          unit_amount: c.stripe.unitAmount,
          product_data: { name: `Order ${order.order_alias}` },
        },
      },
    ]);
    const sessionId = /\/c\/pay\/(cs_test_[0-9a-f]+)$/.exec(json(res).url)?.[1] ?? '';
    const session = standin.completeSession(sessionId);
    expect((await deliverStripe(t, stripeEvent('checkout.session.completed', session))).statusCode).toBe(200);
    const [payment] = await ops.paymentsOf(order.order_alias);
    expect(payment).toMatchObject({ status: 'succeeded', currency: c.currency, amount_captured: c.figures.total });

    const refunded = await ops.refund(payment.id);
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(standin.requestsTo(REFUNDS).at(-1)?.body).toMatchObject({ amount: c.stripe.unitAmount });
    // Stripe's charge.refunded reports the running total, read back in the service's units: nothing counted twice.
    const charge = standin.chargeOf(String(session.payment_intent));
    expect(charge).toMatchObject({ currency: c.stripe.currency, amount_refunded: Number(c.stripe.unitAmount) });
    expect((await deliverStripe(t, stripeEvent('charge.refunded', charge))).statusCode).toBe(200);
    expect(await ops.orderOf(order.order_alias)).toMatchObject({
      payment_status: 'refunded',
      ledger: { captured: c.figures.total, refunded: c.figures.total },
    });
  });

  it('says the currency with every amount of every event of the order', async () => {
    const order = await place();
    const started = await startSandboxPayment(t, order);
    await deliverSandboxWebhook(
      t,
      sandboxEventBody('payment.succeeded', started.reference, { minor: c.minor, currency: c.currency }),
    );
    expect((await ops.refund(started.paymentId, { amount: c.figures.subtotal })).statusCode).toBe(200);
    const events = await ops.eventsOf(order.order_alias);
    expect(events.map((e) => e.type)).toEqual([
      'order.placed',
      'payment.succeeded',
      'order.paid',
      'order.status_changed',
      'payment.refunded',
    ]);
    for (const event of events) expect(event.data.currency, event.type).toBe(c.currency);
    expect(events[0]?.data).toMatchObject(c.figures);
    expect(events[1]?.data).toMatchObject({ amount: c.figures.total, amount_captured: c.figures.total });
    expect(events[4]?.data).toMatchObject({ amount_refunded: c.figures.subtotal });
  });
});

describe('a KWD order whose tax ends in an odd fils (5% tax on KD 15.380)', () => {
  let t: TestApp;
  let admin: SignedIn;
  let place: (extra?: { promocode?: string }) => Promise<PlacedOrder>;
  beforeAll(async () => {
    ({ t, admin, place } = await openStore({ currency: 'KWD', price: '7.690', shipping: '1.250', taxRate: '5' }));
  });
  afterAll(() => t.close());

  it('cannot be charged through Stripe exactly (422, nothing written), and is paid through the sandbox', async () => {
    // Tax: 5% of the goods, 15.380 → 0.769 (shipping untaxed): 15.380 + 1.250 + 0.769 = KD 17.399, not a multiple of
    // 0.010 though every price and rate is.
    const order = await place();
    expect(order.total).toBe('17.399');
    const sessions = standin.requestsTo(SESSIONS).length;
    const body = expectProblem(await startStripe(t, order), 422, 'amount_not_chargeable');
    expect(body.detail).toMatch(/multiples of 0\.010 .*17\.399 KWD can't be charged exactly/);
    expect(standin.requestsTo(SESSIONS)).toHaveLength(sessions);
    const ops = moneyOps(t, admin);
    expect(await ops.paymentsOf(order.order_alias)).toEqual([]);
    expect((await ops.eventsOf(order.order_alias)).map((e) => e.type)).toEqual(['order.placed']);

    const started = await startSandboxPayment(t, order);
    expect(started.answer).toMatchObject({ amount: '17.399', currency: 'KWD' });
  });
});

describe("an order in another currency than the store's (as a market will place it)", () => {
  let t: TestApp;
  let admin: SignedIn;
  let place: (extra?: { promocode?: string }) => Promise<PlacedOrder>;
  beforeAll(async () => {
    ({ t, admin, place } = await openStore({ currency: 'USD', price: '19.00', shipping: '5.00', taxRate: null }));
  });
  afterAll(() => t.close());

  it("is charged, refunded and told of in the order's currency, never the store's", async () => {
    // 2 × 19.00 + 5.00 = 43.00 USD placed; the order made a yen order (4300 minor units = ¥4,300) as a JPY market's
    // placement will write it: currency and figures in yen.
    const order = await place();
    await t.database.db.update(orders).set({ currency: 'JPY' }).where(eq(orders.alias, order.order_alias));
    const ops = moneyOps(t, admin);
    expect(await ops.orderOf(order.order_alias)).toMatchObject({ currency: 'JPY', total: '4300' });

    const res = await startStripe(t, order);
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res)).toMatchObject({ amount: '4300', currency: 'JPY' });
    expect(sessionOf(order.order_alias)[0]?.body.line_items).toMatchObject([
      { price_data: { currency: 'jpy', unit_amount: '4300' } },
    ]);
    const sessionId = /\/c\/pay\/(cs_test_[0-9a-f]+)$/.exec(json(res).url)?.[1] ?? '';
    await deliverStripe(t, stripeEvent('checkout.session.completed', standin.completeSession(sessionId)));
    const [payment] = await ops.paymentsOf(order.order_alias);
    expect(payment).toMatchObject({ currency: 'JPY', amount_captured: '4300' });
    // A refund amount is read in the payment's currency: "12.50" has decimals yen do not have.
    expectProblem(await ops.refund(payment.id, { amount: '12.50' }), 422, 'validation_error');
    // The body has no currency to choose: another currency than the payment's can't even be asked for.
    expectProblem(await ops.refund(payment.id, { amount: '1250', currency: 'USD' }), 422, 'validation_error');
    expect((await ops.refund(payment.id, { amount: '1250' })).statusCode).toBe(200);
    expect(standin.requestsTo(REFUNDS).at(-1)?.body).toMatchObject({ amount: '1250' });
    // Stripe's webhook says ¥1,250 refunded: nothing more. One in dollars (the store's currency) changes nothing.
    const session = standin.session(sessionId);
    const charge = standin.chargeOf(String(session.payment_intent));
    expect(charge).toMatchObject({ currency: 'jpy', amount_refunded: 1250 });
    await deliverStripe(t, stripeEvent('charge.refunded', charge));
    await deliverStripe(t, stripeEvent('charge.refunded', { ...charge, currency: 'usd', amount_refunded: 4300 }));
    expect((await ops.paymentsOf(order.order_alias))[0]).toMatchObject({ amount_refunded: '1250' });
    const events = await ops.eventsOf(order.order_alias);
    expect(events.map((e) => [e.type, e.data.currency])).toEqual([
      ['order.placed', 'USD'],
      ['payment.succeeded', 'JPY'],
      ['order.paid', 'JPY'],
      ['order.status_changed', 'JPY'],
      ['payment.refunded', 'JPY'],
    ]);
    expect(events[4]?.data).toMatchObject({ amount_refunded: '1250', refundable: '3050' });
  });
});

describe('a KWD return whose refund ends in an odd fils, paid through Stripe', () => {
  let t: TestApp;
  let admin: SignedIn;
  let place: (extra?: { promocode?: string }) => Promise<PlacedOrder>;
  beforeAll(async () => {
    ({ t, admin, place } = await openStore({ currency: 'KWD', price: '7.650', shipping: '1.250', taxRate: null }));
    await adminApi(t, admin).promoCode({ code: 'SAVE10', code_type: 'percentage', value: '10' });
  });
  afterAll(() => t.close());

  it('leaves that refund failed with the reason and the money owed back, never rounded', async () => {
    // 2 × 7.650 = 15.300, 10 % off (1.530), shipping 1.250: KD 15.020, which Stripe takes (15020).
    const placed = await place({ promocode: 'SAVE10' });
    expect(placed.total).toBe('15.020');
    const res = await startStripe(t, placed);
    const sessionId = /\/c\/pay\/(cs_test_[0-9a-f]+)$/.exec(json(res).url)?.[1] ?? '';
    await deliverStripe(t, stripeEvent('checkout.session.completed', standin.completeSession(sessionId)));
    const orders = `/order/dashboard/api/orders/${placed.order_alias}`;
    const api = apiAs(t, admin);
    const parcel = await api.post(`${orders}/fulfillments/`, {});
    await api.post(`${orders}/fulfillments/${parcel.id}/ship/`, {}, 200);
    const ret = await api.post(`${orders}/returns/`, { lines: [{ alias: 'tee', quantity: 1, reason: 'damaged' }] });
    await api.post(`${orders}/returns/${ret.id}/receive/`, {}, 200);

    // One unit: 7.650 less its half of the discount (0.765) = KD 6.885, not a multiple of 0.010.
    const refunds = standin.requestsTo(REFUNDS).length;
    const refunded = await api.post(`${orders}/returns/${ret.id}/refund/`, {}, 200);
    expect(refunded.refund).toMatchObject({ amount: '6.885' });
    expect(refunded.refunds).toEqual([
      {
        payment_id: expect.any(Number),
        amount: '6.885',
        status: 'failed',
        detail: expect.stringMatching(/multiples of 0\.010 .*6\.885 KWD can't be charged exactly/),
      },
    ]);
    expect(standin.requestsTo(REFUNDS)).toHaveLength(refunds);
    expect((await api.get(`${orders}/`)).ledger).toMatchObject({ returned: '6.885', refund_due: '6.885' });
    const events = await moneyOps(t, admin).eventsOf(placed.order_alias);
    const returnRefunded = events.find((e) => e.type === 'return.refunded')?.data;
    expect(returnRefunded).toMatchObject({
      currency: 'KWD',
      ledger: { returned: '6.885' },
      return: { currency: 'KWD', refund: { amount: '6.885' } },
    });
    // The admin refunds what Stripe can: 6.880; the 0.005 stays owed back, shown.
    const ops = moneyOps(t, admin);
    expect((await ops.refund(refunded.refunds[0].payment_id, { amount: '6.880' })).statusCode).toBe(200);
    expect(standin.requestsTo(REFUNDS).at(-1)?.body).toMatchObject({ amount: '6880' });
    expect((await api.get(`${orders}/`)).ledger).toMatchObject({ refunded: '6.880', refund_due: '0.005' });
  });
});

describe('a KWD market of a USD store: the estimate lists only the plugins that can take its total', () => {
  // A T-shirt at 25.00 USD at 0.3075: KD 7.6875 → KD 7.688, an odd fils Stripe cannot take. With rounding_step
  // "0.01" it is KD 7.690, a multiple of 10 fils. No shipping (a converted rate need not be one), no tax in KW.
  let t: TestApp;
  let api: ReturnType<typeof adminApi>;
  let kwId: number;
  const kwOrder = { variants: [{ alias: 'tee' }], shipping_address: { ...guestAddress, country: 'KW' } };
  const estimate = async () =>
    json(await t.app.inject({ method: 'POST', url: '/order/storefront/api/estimate/', payload: kwOrder }));
  beforeAll(async () => {
    ({ t } = await openStore({ currency: 'USD', price: '25.00', shipping: '5.00', taxRate: null }));
    api = adminApi(t, await signInAdmin(t));
    const kw = await api.post('/market/dashboard/api/markets/', {
      code: 'kw',
      name: 'Kuwait',
      currency: 'KWD',
      exchange_rate: '0.3075',
      countries: ['KW'],
    });
    kwId = kw.id;
  });
  afterAll(() => t.close());

  it('leaves Stripe out of KD 7.688, and the placement through Stripe is refused as the estimate said', async () => {
    const shown = await estimate();
    expect(shown).toMatchObject({ currency: 'KWD', total: '7.688' });
    expect(shown.payment_plugins).toEqual(['sandbox', 'cash_on_delivery']);
    const placed = await placeGuestOrder(t, kwOrder);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/payment/storefront/api/start-payment/stripe/',
      headers: { 'x-order-token': placed.order_token ?? '' },
      payload: { order_alias: placed.order_alias },
    });
    expectProblem(refused, 422, 'amount_not_chargeable');
  });

  it('lists Stripe once the market rounds to 10 fils (rounding_step "0.01": KD 7.690)', async () => {
    await api.patch(`/market/dashboard/api/markets/${kwId}/`, { rounding_step: '0.01' });
    const shown = await estimate();
    expect(shown).toMatchObject({ currency: 'KWD', total: '7.690' });
    expect(shown.payment_plugins).toEqual(['sandbox', 'stripe', 'cash_on_delivery']);
  });

  it('lists only what the market offers, and nothing in the default market’s answer', async () => {
    await api.patch(`/market/dashboard/api/markets/${kwId}/`, { payment_plugins: ['stripe'] });
    expect((await estimate()).payment_plugins).toEqual(['stripe']);
    const usd = json(
      await t.app.inject({
        method: 'POST',
        url: '/order/storefront/api/estimate/',
        payload: { variants: [{ alias: 'tee' }], shipping_address: guestAddress },
      }),
    );
    expect(usd.currency).toBe('USD');
    expect(usd).not.toHaveProperty('payment_plugins');
  });
});
