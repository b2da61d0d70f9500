import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GatewayError } from '../src/payments/payment-plugin.js';
import { adminApi, apiAs, guestAddress, type PlacedOrder, placeGuestOrder } from './fixtures.js';
import { buildTestApp, expectProblem, json, type SignedIn, signInAdmin, type TestApp } from './helpers.js';
import { payWithSandbox } from './sandbox-gateway.js';
import { type SmtpSink, startSmtpSink } from './smtp-sink.js';

// Issue #27 item 2: the customer returns shipped units from the order page, an admin receives them (restocking) and
// refunds exactly what they were paid through the payment plugin (decision 0029).

let t: TestApp;
let admin: SignedIn;
let sink: SmtpSink;
let methodId: number;
/** How this store has returns sent back (RETURN_INSTRUCTIONS). */
const SEND_BACK = 'Send it to Mug Co Returns, 1 Dock Rd, Oakland, CA 94607, with the order number inside.';

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await buildTestApp({
    config: { smtpUrl: sink.url, jobsPollMs: 50, paymentPlugins: ['sandbox'], returnInstructions: SEND_BACK },
  });
  admin = await signInAdmin(t);
  const api = adminApi(t, admin);
  const goods = await api.taxClass({ name: 'Goods' });
  await api.taxRate({ tax_class_id: goods.id, country: 'US', rate: '10' });
  const method = await api.shippingMethod({ name: 'Ground' });
  await api.shippingRate({ shipping_method_id: method.id, weight_min_kg: '0', base_rate: '5.00' });
  methodId = method.id;
  await api.promoCode({ code: 'SAVE10', code_type: 'percentage', value: '10' });
  await api.product({
    name: 'Mug',
    tax_class_id: goods.id,
    variants: [
      { alias: 'mug-blue', name: 'Blue', price: '8.00', stock: 100 },
      { alias: 'teapot', name: 'Teapot', price: '30.00', stock: 100 },
    ],
  });
}, 60_000);
afterAll(async () => {
  await t.close();
  await sink.close();
});

const auth = () => ({ authorization: `Bearer ${admin.access}` });
const adminReturns = (order: PlacedOrder) => `/order/dashboard/api/orders/${order.order_alias}/returns/`;
const shopReturns = (order: PlacedOrder) => `/order/storefront/api/orders/${order.order_alias}/returns/`;
const asAdmin = (url: string, payload?: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, headers: { ...auth(), ...headers }, ...(payload ? { payload } : {}) });
const asCustomer = (order: PlacedOrder, url: string, payload?: object) =>
  t.app.inject({
    method: payload ? 'POST' : 'GET',
    url,
    headers: { 'x-order-token': order.order_token },
    ...(payload ? { payload } : {}),
  });
const adminOrder = (order: PlacedOrder) => apiAs(t, admin).get(`/order/dashboard/api/orders/${order.order_alias}/`);
async function stockOf(alias: string): Promise<number> {
  const page = await apiAs(t, admin).get('/product/dashboard/api/products/?limit=100');
  for (const p of page.items as { variants: { alias: string; stock: number }[] }[]) {
    const v = p.variants.find((x) => x.alias === alias);
    if (v) return v.stock;
  }
  throw new Error(`no variant ${alias}`);
}

/**
 * A guest order of 2 mugs (8.00) and a teapot (30.00) with SAVE10 (10 % off the goods), 10 % tax and 5.00 shipping,
 * paid in full through the sandbox and, unless `ship` is false, shipped whole in one parcel.
 */
let buyers = 0;
async function paidOrder(options: { ship?: boolean } = {}): Promise<PlacedOrder & { email: string }> {
  buyers += 1;
  const email = `returner-${buyers}@returns.example`;
  const order = await placeGuestOrder(t, {
    variants: [
      { alias: 'mug-blue', quantity: 2 },
      { alias: 'teapot', quantity: 1 },
    ],
    shipping_address: { ...guestAddress, email },
    shipping_method_id: methodId,
    promocode: 'SAVE10',
  });
  await payWithSandbox(t, order);
  if (options.ship !== false) {
    const url = `/order/dashboard/api/orders/${order.order_alias}/fulfillments/`;
    const parcel = json(await asAdmin(url, {}));
    expect(json(await asAdmin(`${url}${parcel.id}/ship/`, {})).status).toBe('shipped');
  }
  return { ...order, email };
}

async function eventTypes(order: PlacedOrder): Promise<string[]> {
  const page = await apiAs(t, admin).get(`/event/dashboard/api/events/?order_alias=${order.order_alias}&limit=100`);
  return (page.items as { type: string }[]).map((e) => e.type).reverse();
}

async function emailsTo(email: string, subject: string, count = 1) {
  const found = () =>
    sink.received.filter((e) => e.rcptTo.includes(email) && e.headers.get('subject')?.includes(subject));
  const deadline = Date.now() + 20_000;
  while (found().length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  return found();
}

describe('a customer returns one mug from the order page', () => {
  it('is requested (saying how to send it back), received with its stock back, and refunded its share', async () => {
    const order = await paidOrder();
    const placed = await adminOrder(order);
    // As placed: goods 46.00, SAVE10 4.60, tax on what is left 4.14 (+ shipping's), shipping 5.00.
    expect(placed).toMatchObject({ subtotal: '46.00', payment_status: 'paid', fulfillment_status: 'shipped' });

    const offer = json(await asCustomer(order, shopReturns(order)));
    expect(offer.items).toEqual([]);
    expect(offer.returnable).toMatchObject([
      { alias: 'mug-blue', name: 'Mug - Blue', quantity: 2, returnable: 2 },
      { alias: 'teapot', quantity: 1, returnable: 1 },
    ]);
    expect(offer.reasons.map((r: { code: string }) => r.code)).toEqual([
      'damaged',
      'wrong_item',
      'not_as_described',
      'size_fit',
      'changed_mind',
      'other',
    ]);
    expect(offer.return_instructions).toBe(SEND_BACK);

    const asked = await asCustomer(order, shopReturns(order), {
      lines: [{ alias: 'mug-blue', quantity: 1, reason: 'damaged' }],
      note: 'The handle came off',
    });
    expect(asked.statusCode, asked.body).toBe(201);
    const ret = json(asked);
    // One mug of two: 8.00, less its half of the line's 1.60 discount (0.80), plus its half of the line's 1.44 tax.
    expect(ret).toMatchObject({
      status: 'requested',
      requested_by: 'customer',
      note: 'The handle came off',
      lines: [{ alias: 'mug-blue', quantity: 1, reason: { code: 'damaged', label: 'Arrived damaged or defective' } }],
      refund: null,
      estimated_refund: { amount: '7.92', to_customer: '7.92' },
      next_statuses: ['received', 'rejected', 'cancelled'],
    });
    const before = await stockOf('mug-blue');

    const received = await asAdmin(`${adminReturns(order)}${ret.id}/receive/`, {});
    expect(received.statusCode, received.body).toBe(200);
    expect(json(received)).toMatchObject({ status: 'received', lines: [{ restock: true }] });
    expect(await stockOf('mug-blue')).toBe(before + 1);
    // Received twice: refused, and the stock goes back once.
    expectProblem(await asAdmin(`${adminReturns(order)}${ret.id}/receive/`, {}), 409, 'invalid_transition');
    expect(await stockOf('mug-blue')).toBe(before + 1);

    const refunded = await asAdmin(`${adminReturns(order)}${ret.id}/refund/`, {});
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(json(refunded)).toMatchObject({
      status: 'refunded',
      refund: {
        goods: '8.00',
        discount: '0.80',
        tax: '0.72',
        shipping: '0.00',
        amount: '7.92',
        shipping_included: false,
      },
      estimated_refund: null,
      refunds: [{ amount: '7.92', status: 'succeeded', detail: null }],
    });
    const after = await adminOrder(order);
    // The order charges 7.92 less; the refund is money owed back, not a credit: nothing is due either way.
    expect(after).toMatchObject({ total: placed.total, payment_status: 'partially_refunded' });
    expect(after.ledger).toMatchObject({
      returned: '7.92',
      refunded: '7.92',
      credited: '0.00',
      balance_due: '0.00',
      refund_due: '0.00',
    });
    expect((json(await asCustomer(order, shopReturns(order))).returnable as { returnable: number }[])[0]).toMatchObject(
      { returnable: 1 },
    );
    expect((await eventTypes(order)).filter((e) => e.startsWith('return.'))).toEqual([
      'return.requested',
      'return.received',
      'return.refunded',
    ]);
    const [requestedEmail] = await emailsTo(order.email, 'Return requested');
    expect(requestedEmail?.text).toContain('1 × Mug - Blue');
    expect(requestedEmail?.text).toContain(`How to send them back\n${SEND_BACK}`);
    const [refundEmail] = await emailsTo(order.email, 'Refund for your return');
    expect(refundEmail?.text).toContain('We have refunded $7.92 for the 1 item');
  });

  it('refunds every unit and the shipping to exactly what was paid, over two returns', async () => {
    const order = await paidOrder();
    const placed = await adminOrder(order);
    const first = json(
      await asCustomer(order, shopReturns(order), { lines: [{ alias: 'mug-blue', quantity: 2, reason: 'size_fit' }] }),
    );
    const second = json(
      await asAdmin(adminReturns(order), { lines: [{ alias: 'teapot', quantity: 1, reason: 'changed_mind' }] }),
    );
    expect(second).toMatchObject({ requested_by: 'admin', status: 'requested' });
    for (const r of [first, second]) await asAdmin(`${adminReturns(order)}${r.id}/receive/`, {});
    expect(json(await asAdmin(`${adminReturns(order)}${first.id}/refund/`, {})).refund.amount).toBe('15.84');
    const last = json(await asAdmin(`${adminReturns(order)}${second.id}/refund/`, { refund_shipping: true }));
    expect(last.refund).toMatchObject({ goods: '30.00', discount: '3.00', shipping: '5.00', shipping_included: true });
    const after = await adminOrder(order);
    // Everything came back: what was given back is the order's total, to the cent, and nothing is owed either way.
    expect(after.ledger).toMatchObject({ returned: placed.total, refunded: placed.total, balance_due: '0.00' });
    expect(after.payment_status).toBe('refunded');
    expectProblem(
      await asCustomer(order, shopReturns(order), { lines: [{ alias: 'teapot', quantity: 1, reason: 'other' }] }),
      409,
      'return_exceeds_returnable',
    );
  });
});

describe("the order's fulfillment status says what came back", () => {
  it('partially returned, then returned once every unit is back; delivery after a return keeps saying so', async () => {
    const order = await paidOrder();
    const fulfillments = `/order/dashboard/api/orders/${order.order_alias}/fulfillments/`;
    const [parcel] = (await adminOrder(order)).fulfillments;
    const mug = json(
      await asCustomer(order, shopReturns(order), { lines: [{ alias: 'mug-blue', quantity: 1, reason: 'damaged' }] }),
    );
    // Asked for, nothing back yet: the order says only how far it went out.
    expect(await adminOrder(order)).toMatchObject({ status: 'shipped', fulfillment_status: 'shipped' });
    const received = json(await asAdmin(`${adminReturns(order)}${mug.id}/receive/`, {}));
    expect(received.order ?? (await adminOrder(order))).toMatchObject({ fulfillment_status: 'partially_returned' });
    // The parcel delivered after: the order's status follows it, its fulfillment status keeps the return.
    expect(json(await asAdmin(`${fulfillments}${parcel.id}/deliver/`, {})).order).toMatchObject({
      status: 'delivered',
      fulfillment_status: 'partially_returned',
    });
    const rest = json(
      await asAdmin(adminReturns(order), {
        lines: [
          { alias: 'mug-blue', quantity: 1, reason: 'damaged' },
          { alias: 'teapot', quantity: 1, reason: 'changed_mind' },
        ],
      }),
    );
    await asAdmin(`${adminReturns(order)}${rest.id}/receive/`, {});
    expect(await adminOrder(order)).toMatchObject({ status: 'delivered', fulfillment_status: 'returned' });
    await asAdmin(`${adminReturns(order)}${rest.id}/refund/`, {});
    expect(await adminOrder(order)).toMatchObject({
      fulfillment_status: 'returned',
      payment_status: 'partially_refunded',
    });
    // The customer's page says it too.
    const page = json(await asCustomer(order, `/order/storefront/api/orders/${order.order_alias}/`));
    expect(page.fulfillment_status).toBe('returned');
  });

  it('goes back to how far the order went out when the return received is rejected', async () => {
    const order = await paidOrder();
    const asked = json(
      await asCustomer(order, shopReturns(order), { lines: [{ alias: 'teapot', quantity: 1, reason: 'damaged' }] }),
    );
    await asAdmin(`${adminReturns(order)}${asked.id}/receive/`, {});
    expect((await adminOrder(order)).fulfillment_status).toBe('partially_returned');
    await asAdmin(`${adminReturns(order)}${asked.id}/reject/`, { reason: 'Worn' });
    expect((await adminOrder(order)).fulfillment_status).toBe('shipped');
    expect((await eventTypes(order)).filter((e) => e.startsWith('return.'))).toEqual([
      'return.requested',
      'return.received',
      'return.rejected',
    ]);
  });
});

describe('what a return may not ask', () => {
  let order: PlacedOrder;
  beforeAll(async () => {
    order = await paidOrder();
  });

  it('refuses more units than shipped less those in returns, naming the figures', async () => {
    const res = await asCustomer(order, shopReturns(order), {
      lines: [{ alias: 'mug-blue', quantity: 3, reason: 'damaged' }],
    });
    expectProblem(res, 409, 'return_exceeds_returnable');
    expect(json(res)).toMatchObject({ alias: 'mug-blue', requested: 3, returnable: 2 });
  });

  it('refuses a line the order does not have, a line twice and a reason not offered', async () => {
    expectProblem(
      await asCustomer(order, shopReturns(order), { lines: [{ alias: 'lamp', quantity: 1, reason: 'damaged' }] }),
      422,
      'unknown_order_line',
    );
    const twice = await asCustomer(order, shopReturns(order), {
      lines: [
        { alias: 'teapot', quantity: 1, reason: 'damaged' },
        { alias: 'teapot', quantity: 1, reason: 'other' },
      ],
    });
    expectProblem(twice, 422, 'validation_error');
    const reason = await asCustomer(order, shopReturns(order), {
      lines: [{ alias: 'teapot', quantity: 1, reason: 'bored' }],
    });
    expectProblem(reason, 422, 'unknown_return_reason');
    expect(json(reason).errors).toEqual([{ field: 'lines[0].reason', message: 'is not a return reason offered' }]);
    expectProblem(await asCustomer(order, shopReturns(order), { lines: [] }), 422, 'validation_error');
  });

  it('refuses a return of an order nothing of which has shipped', async () => {
    const unshipped = await paidOrder({ ship: false });
    expectProblem(
      await asCustomer(unshipped, shopReturns(unshipped), {
        lines: [{ alias: 'teapot', quantity: 1, reason: 'damaged' }],
      }),
      409,
      'nothing_to_return',
    );
  });

  it('shows an order to its token holder only: another token gets 404', async () => {
    const other = await paidOrder({ ship: false });
    const res = await t.app.inject({
      method: 'GET',
      url: shopReturns(order),
      headers: { 'x-order-token': other.order_token },
    });
    expectProblem(res, 404, 'order_not_found');
    expectProblem(await t.app.inject({ method: 'GET', url: shopReturns(order) }), 404, 'order_not_found');
  });

  it('lets the customer cancel a requested return, whose units can be returned again', async () => {
    const asked = json(
      await asCustomer(order, shopReturns(order), { lines: [{ alias: 'teapot', quantity: 1, reason: 'other' }] }),
    );
    const cancelled = await t.app.inject({
      method: 'POST',
      url: `${shopReturns(order)}${asked.id}/cancel/`,
      headers: { 'x-order-token': order.order_token },
    });
    expect(json(cancelled)).toMatchObject({ status: 'cancelled', next_statuses: [] });
    expect(json(await asCustomer(order, shopReturns(order))).returnable[1]).toMatchObject({ returnable: 1 });
    // A customer cannot receive or refund: those are the dashboard's.
    const receive = await t.app.inject({
      method: 'POST',
      url: `${shopReturns(order)}${asked.id}/receive/`,
      headers: { 'x-order-token': order.order_token },
    });
    expect(receive.statusCode).toBe(404);
  });

  it('rejects a return with a reason the customer reads; a rejected return refunds nothing', async () => {
    const asked = json(
      await asCustomer(order, shopReturns(order), { lines: [{ alias: 'mug-blue', quantity: 1, reason: 'damaged' }] }),
    );
    const rejected = json(await asAdmin(`${adminReturns(order)}${asked.id}/reject/`, { reason: 'Past 30 days' }));
    expect(rejected).toMatchObject({ status: 'rejected', reject_reason: 'Past 30 days', next_statuses: [] });
    expectProblem(await asAdmin(`${adminReturns(order)}${asked.id}/refund/`, {}), 409, 'invalid_transition');
    const [email] = await emailsTo((order as PlacedOrder & { email: string }).email, 'was not accepted');
    expect(email?.text).toContain('Past 30 days');
  });

  it('restocks only the lines the admin says may be sold again', async () => {
    const o = await paidOrder();
    const asked = json(
      await asCustomer(o, shopReturns(o), {
        lines: [
          { alias: 'mug-blue', quantity: 2, reason: 'damaged' },
          { alias: 'teapot', quantity: 1, reason: 'changed_mind' },
        ],
      }),
    );
    const [mugs, teapots] = [await stockOf('mug-blue'), await stockOf('teapot')];
    const received = json(
      await asAdmin(`${adminReturns(o)}${asked.id}/receive/`, { lines: [{ alias: 'mug-blue', restock: false }] }),
    );
    expect(received.lines).toMatchObject([
      { alias: 'mug-blue', restock: false },
      { alias: 'teapot', restock: true },
    ]);
    expect([await stockOf('mug-blue'), await stockOf('teapot')]).toEqual([mugs, teapots + 1]);
    expectProblem(
      await asAdmin(`${adminReturns(o)}${asked.id}/refund/`, { refund_shipping: 'yes' }),
      422,
      'validation_error',
    );
  });
});

describe('two admins at once', () => {
  it('receive a return once: one answer 200, the others 409, the stock back once', async () => {
    const order = await paidOrder();
    const asked = json(
      await asCustomer(order, shopReturns(order), { lines: [{ alias: 'mug-blue', quantity: 2, reason: 'damaged' }] }),
    );
    const before = await stockOf('mug-blue');
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => asAdmin(`${adminReturns(order)}${asked.id}/receive/`, {})),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(await stockOf('mug-blue')).toBe(before + 2);
  });

  it('refund a return once: the money goes back once', async () => {
    const order = await paidOrder();
    const asked = json(
      await asCustomer(order, shopReturns(order), { lines: [{ alias: 'teapot', quantity: 1, reason: 'damaged' }] }),
    );
    await asAdmin(`${adminReturns(order)}${asked.id}/receive/`, {});
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => asAdmin(`${adminReturns(order)}${asked.id}/refund/`, {})),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409, 409]);
    expect((await adminOrder(order)).ledger).toMatchObject({ returned: '29.70', refunded: '29.70' });
  });

  it('return the last units once: of six requests for one mug of two, two are taken', async () => {
    const order = await paidOrder();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        asCustomer(order, shopReturns(order), { lines: [{ alias: 'mug-blue', quantity: 1, reason: 'other' }] }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 201, 409, 409, 409, 409]);
  });
});

describe('a refund the gateway refuses, and a retried request', () => {
  it('leaves the return refunded and the money owed back on the ledger, to refund again by hand', async () => {
    const order = await paidOrder();
    const asked = json(
      await asCustomer(order, shopReturns(order), { lines: [{ alias: 'teapot', quantity: 1, reason: 'damaged' }] }),
    );
    await asAdmin(`${adminReturns(order)}${asked.id}/receive/`, {});
    const gateway = t.payments.get('sandbox')?.gateway;
    if (!gateway?.refund) throw new Error('the sandbox has no refund');
    const spy = vi.spyOn(gateway, 'refund').mockRejectedValue(new GatewayError('card closed', false));
    try {
      const res = await asAdmin(`${adminReturns(order)}${asked.id}/refund/`, {});
      expect(res.statusCode, res.body).toBe(200);
      expect(json(res)).toMatchObject({
        status: 'refunded',
        refunds: [{ amount: '29.70', status: 'failed', detail: expect.stringContaining('card closed') }],
      });
    } finally {
      spy.mockRestore();
    }
    expect(await adminOrder(order)).toMatchObject({
      payment_status: 'overpaid',
      ledger: { returned: '29.70', refunded: '0.00', refund_due: '29.70' },
    });
    // The customer is not told the money went back: the refund email is not sent (its job ran long ago, every 50 ms).
    expect(await emailsTo(order.email, 'has arrived')).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await emailsTo(order.email, 'Refund for your return', 0)).toEqual([]);
  });

  it('answers the same return to a request sent again with its Idempotency-Key', async () => {
    const order = await paidOrder();
    const body = { lines: [{ alias: 'mug-blue', quantity: 1, reason: 'damaged' }] };
    const key = { 'idempotency-key': `return-${order.order_alias}` };
    const [a, b] = await Promise.all([
      asAdmin(adminReturns(order), body, key),
      asAdmin(adminReturns(order), body, key),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(json(a).id).toBe(json(b).id);
    expectProblem(
      await asAdmin(adminReturns(order), { lines: [{ alias: 'mug-blue', quantity: 2, reason: 'damaged' }] }, key),
      422,
      'idempotency_key_reused',
    );
    const receive = () => asAdmin(`${adminReturns(order)}${json(a).id}/receive/`, {}, { 'idempotency-key': 'rcv-1' });
    const [r1, r2] = [await receive(), await receive()];
    expect([r1.statusCode, r2.statusCode]).toEqual([200, 200]);
    const refund = () => asAdmin(`${adminReturns(order)}${json(a).id}/refund/`, {}, { 'idempotency-key': 'ref-1' });
    const [f1, f2] = [await refund(), await refund()];
    expect([f1.statusCode, f2.statusCode]).toEqual([200, 200]);
    expect(json(f2).refunds).toMatchObject([{ amount: '7.92', status: 'succeeded' }]);
    expect((await adminOrder(order)).ledger).toMatchObject({ returned: '7.92', refunded: '7.92' });
  });
});

describe('the store list and its reasons', () => {
  it('lists returns newest first, filtered by state', async () => {
    const page = await apiAs(t, admin).get('/order/dashboard/api/returns/?status=refunded&limit=2');
    expect(page.items).toHaveLength(2);
    expect(page.items[0]).toMatchObject({ status: 'refunded', currency: 'USD' });
    expect(page.items[0].id).toBeGreaterThan(page.items[1].id);
    expect(page.next_cursor).not.toBeNull();
  });

  it('keeps the reasons an admin offers: a new one, one switched off is no longer accepted', async () => {
    const api = apiAs(t, admin);
    expect(
      await api.post('/order/dashboard/api/return-reasons/', { code: 'late', label: 'Arrived too late' }),
    ).toMatchObject({ code: 'late', active: true });
    expectProblem(
      await asAdmin('/order/dashboard/api/return-reasons/', { code: 'late', label: 'Again' }),
      409,
      'return_reason_taken',
    );
    const off = await t.app.inject({
      method: 'PATCH',
      url: '/order/dashboard/api/return-reasons/late/',
      headers: auth(),
      payload: { active: false },
    });
    expect(json(off)).toMatchObject({ code: 'late', active: false });
    const order = await paidOrder();
    expectProblem(
      await asCustomer(order, shopReturns(order), { lines: [{ alias: 'teapot', quantity: 1, reason: 'late' }] }),
      422,
      'unknown_return_reason',
    );
    const all = await api.get('/order/dashboard/api/return-reasons/');
    expect(all.items.map((r: { code: string }) => r.code)).toContain('late');
    expectProblem(
      await asAdmin('/order/dashboard/api/return-reasons/', { code: 'blank', label: '   ' }),
      422,
      'validation_error',
    );
  });
});
