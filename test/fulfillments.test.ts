import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { productVariants } from '../src/db/schema.js';
import { GatewayError } from '../src/payments/payment-plugin.js';
import { adminApi, apiAs, guestAddress, orderEventTypes, type PlacedOrder, placeGuestOrder } from './fixtures.js';
import { buildTestApp, expectProblem, json, type SignedIn, signInAdmin, type TestApp } from './helpers.js';
import { payWithSandbox } from './sandbox-gateway.js';
import { type SmtpSink, startSmtpSink } from './smtp-sink.js';

// Issue #27 item 1: an order shipped in parts, each shipment with tracking (decision 0027).

let t: TestApp;
let admin: SignedIn;
let sink: SmtpSink;

/** What these orders are made of, created by `owner`: a blue mug at 8.00 and a teapot at 30.00, plenty of each. */
function stockMugsAndTeapots(app: TestApp, owner: SignedIn) {
  return adminApi(app, owner).product({
    name: 'Mug',
    variants: [
      { alias: 'mug-blue', name: 'Blue', price: '8.00', stock: 10_000 },
      { alias: 'teapot', name: 'Teapot', price: '30.00', stock: 10_000 },
    ],
  });
}

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await buildTestApp({
    config: {
      smtpUrl: sink.url,
      jobsPollMs: 50,
      carrierTrackingUrls: { ups: 'https://ups.example/track?n={tracking_number}' },
    },
  });
  admin = await signInAdmin(t);
  await stockMugsAndTeapots(t, admin);
}, 60_000);
afterAll(async () => {
  await t.close();
  await sink.close();
});

const orderUrl = (alias: string) => `/order/dashboard/api/orders/${alias}/`;
const fulfillmentsUrl = (alias: string) => `${orderUrl(alias)}fulfillments/`;
const auth = () => ({ authorization: `Bearer ${admin.access}` });
const post = (url: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: auth(), ...(payload ? { payload } : {}) });
const create = (order: PlacedOrder, payload: object = {}) => post(fulfillmentsUrl(order.order_alias), payload);
/** `step`: a fulfillment's id and action, `12/ship`. */
const move = (order: PlacedOrder, step: `${number}/${'ship' | 'deliver' | 'cancel'}`, payload?: object) =>
  post(`${fulfillmentsUrl(order.order_alias)}${step}/`, payload);

/** A guest order of 2 mugs and 1 teapot, approved by hand (as a paid order is). */
let buyers = 0;
async function approvedOrder(): Promise<PlacedOrder & { email: string }> {
  buyers += 1;
  const email = `buyer-${buyers}@fulfil.example`;
  const order = await placeGuestOrder(t, {
    variants: [
      { alias: 'mug-blue', quantity: 2 },
      { alias: 'teapot', quantity: 1 },
    ],
    shipping_address: { ...guestAddress, email },
  });
  await apiAs(t, admin).patch(orderUrl(order.order_alias), { status: 'approved' });
  return { ...order, email };
}

const adminOrder = (order: PlacedOrder) => apiAs(t, admin).get(orderUrl(order.order_alias));
const eventTypes = (order: PlacedOrder) => orderEventTypes(t, admin, order.order_alias);

describe('an order shipped in two parcels', () => {
  it('moves the order from processing to shipped to delivered as its shipments do, with tracking links', async () => {
    const order = await approvedOrder();
    const first = await create(order, {
      lines: [{ alias: 'mug-blue', quantity: 2 }],
      carrier: 'UPS',
      tracking_number: '1Z 999',
    });
    expect(first.statusCode, first.body).toBe(201);
    expect(json(first)).toMatchObject({
      status: 'pending',
      carrier: 'UPS',
      tracking_number: '1Z 999',
      tracking_url: 'https://ups.example/track?n=1Z%20999',
      lines: [{ alias: 'mug-blue', name: 'Mug - Blue', quantity: 2 }],
      next_statuses: ['shipped', 'cancelled'],
      order: { status: 'processing', fulfillment_status: 'partially_fulfilled' },
    });
    // No lines: every unit still fulfillable (the teapot).
    const second = json(await create(order));
    expect(second).toMatchObject({
      lines: [{ alias: 'teapot', quantity: 1 }],
      tracking_url: null,
      order: { fulfillment_status: 'fulfilled' },
    });

    const shipped = json(await move(order, `${json(first).id}/ship`));
    expect(shipped).toMatchObject({
      status: 'shipped',
      tracking_url: 'https://ups.example/track?n=1Z%20999',
      next_statuses: ['delivered'],
      order: { status: 'processing', fulfillment_status: 'partially_shipped' },
    });
    expect(shipped.shipped_at).toMatch(/^\d{4}-/);
    const res = await move(order, `${second.id}/ship`, {
      carrier: 'Courier',
      tracking_number: 'C-7',
      tracking_url: 'https://courier.example/c-7',
    });
    expect(json(res)).toMatchObject({
      tracking_url: 'https://courier.example/c-7',
      order: { status: 'shipped', fulfillment_status: 'shipped' },
    });
    expect(json(await move(order, `${json(first).id}/deliver`)).order).toMatchObject({
      status: 'shipped',
      fulfillment_status: 'shipped',
    });
    expect(json(await move(order, `${second.id}/deliver`)).order).toMatchObject({
      status: 'delivered',
      fulfillment_status: 'delivered',
    });

    const detail = await adminOrder(order);
    expect(detail).toMatchObject({ status: 'delivered', fulfillment_status: 'delivered', next_statuses: [] });
    expect(detail.fulfillments.map((f: { tracking_url: string }) => f.tracking_url)).toEqual([
      'https://ups.example/track?n=1Z%20999',
      'https://courier.example/c-7',
    ]);
    // The customer's view (the order token) shows the shipments and their links too.
    const mine = json(
      await t.app.inject({
        method: 'GET',
        url: `/order/storefront/api/orders/${order.order_alias}/`,
        headers: { 'x-order-token': order.order_token },
      }),
    );
    expect(mine).toMatchObject({ fulfillment_status: 'delivered', fulfillments: [{ status: 'delivered' }, {}] });
    expect(mine.fulfillments[1].tracking_url).toBe('https://courier.example/c-7');
    const list = await apiAs(t, admin).get(fulfillmentsUrl(order.order_alias));
    expect(list.items).toHaveLength(2);

    const page = await apiAs(t, admin).get(
      `/event/dashboard/api/events/?order_alias=${order.order_alias}&type=fulfillment.shipped&limit=10`,
    );
    const lastShipped = page.items[0].data;
    expect(lastShipped).toMatchObject({
      status: 'shipped',
      fulfillment_status: 'shipped',
      fulfillment: { id: second.id },
    });
    expect(lastShipped.fulfillments).toHaveLength(2);
    expect(await eventTypes(order)).toEqual([
      'order.placed',
      'order.status_changed',
      'fulfillment.created',
      'order.status_changed',
      'fulfillment.created',
      'fulfillment.shipped',
      'fulfillment.shipped',
      'order.status_changed',
      'fulfillment.delivered',
      'fulfillment.delivered',
      'order.status_changed',
    ]);
  });

  it('emails each shipment with its tracking link; the order moving to shipped sends no more', async () => {
    const order = await approvedOrder();
    const { id } = json(await create(order, { carrier: 'ups', tracking_number: 'TRACK-42' }));
    expect(json(await move(order, `${id}/ship`)).order).toMatchObject({ status: 'shipped' });
    const shippedEmails = () =>
      sink.received.filter((e) => e.rcptTo.includes(order.email) && e.headers.get('subject')?.includes('shipped'));
    const deadline = Date.now() + 20_000;
    while (shippedEmails().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    // The order.status_changed to shipped that came with it would have queued its email by now.
    await new Promise((r) => setTimeout(r, 500));
    const emails = shippedEmails();
    expect(emails).toHaveLength(1);
    expect(emails[0]?.headers.get('subject')).toContain('has shipped');
    expect(emails[0]?.text).toContain('Shipment: UPS TRACK-42');
    expect(emails[0]?.text).toContain('Track it: https://ups.example/track?n=TRACK-42');
    expect(emails[0]?.html).toContain('href="https://ups.example/track?n=TRACK-42"');
    // The email's link opens the order's page, which lists the shipment and its tracking link too.
    const pageUrl = new URL(/See your order.*:\n(\S+)/.exec(emails[0]?.text ?? '')?.[1] ?? 'http://x/none');
    const page = await t.app.inject({ method: 'GET', url: pageUrl.pathname + pageUrl.search });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('data-fulfillment-status="shipped"');
    expect(page.body).toContain('<li data-shipment-status="shipped"><strong>On its way</strong> · UPS TRACK-42');
    expect(page.body).toContain('<a href="https://ups.example/track?n=TRACK-42" rel="noopener noreferrer">');
  });

  it('gives a cancelled shipment its units back', async () => {
    const order = await approvedOrder();
    const all = json(await create(order));
    expectProblem(await create(order), 409, 'nothing_to_fulfill');
    expect(json(await move(order, `${all.id}/cancel`))).toMatchObject({
      status: 'cancelled',
      next_statuses: [],
      order: { status: 'processing', fulfillment_status: 'unfulfilled' },
    });
    expect((await create(order, { lines: [{ alias: 'teapot', quantity: 1 }] })).statusCode).toBe(201);
    expect((await eventTypes(order)).filter((e) => e.startsWith('fulfillment.'))).toEqual([
      'fulfillment.created',
      'fulfillment.cancelled',
      'fulfillment.created',
    ]);
  });
});

describe('tracking kept when shipping', () => {
  it("keeps a parcel's URL when its carrier is sent again; another number gets another URL", async () => {
    const order = await approvedOrder();
    const given = { carrier: 'Courier', tracking_number: 'C-7', tracking_url: 'https://courier.example/track/C-7' };
    const parcel = json(await create(order, { lines: [{ alias: 'teapot', quantity: 1 }], ...given }));
    const shipped = json(await move(order, `${parcel.id}/ship`, { carrier: 'Courier' }));
    expect(shipped).toMatchObject({ status: 'shipped', tracking_url: 'https://courier.example/track/C-7' });
    // Another carrier and number: the old URL no longer fits; the carrier's template makes the new one.
    const other = json(await create(order, { lines: [{ alias: 'mug-blue', quantity: 1 }], ...given }));
    const moved = json(await move(order, `${other.id}/ship`, { carrier: 'UPS', tracking_number: '1Z9' }));
    expect(moved).toMatchObject({
      carrier: 'UPS',
      tracking_number: '1Z9',
      tracking_url: 'https://ups.example/track?n=1Z9',
    });
  });
});

describe('bad input and wrong states', () => {
  it('refuses a line not of the order, too many units, a line twice, a tracking URL not http(s)', async () => {
    const order = await approvedOrder();
    const unknown = expectProblem(
      await create(order, { lines: [{ alias: 'vase', quantity: 1 }] }),
      422,
      'unknown_order_line',
    );
    expect(unknown.errors).toEqual([{ field: 'lines[0].alias', message: 'is not a line of this order' }]);
    await create(order, { lines: [{ alias: 'mug-blue', quantity: 1 }] });
    const over = expectProblem(
      await create(order, { lines: [{ alias: 'mug-blue', quantity: 2 }] }),
      409,
      'fulfillment_exceeds_fulfillable',
    );
    expect(over).toMatchObject({ alias: 'mug-blue', requested: 2, fulfillable: 1 });
    const twice = [
      { alias: 'teapot', quantity: 1 },
      { alias: 'teapot', quantity: 1 },
    ];
    expectProblem(await create(order, { lines: twice }), 422, 'validation_error');
    for (const url of ['javascript:alert(1)', 'ftp://files.example/1', 'not a url'])
      expectProblem(await create(order, { tracking_url: url }), 422, 'validation_error');
    expectProblem(await create(order, { lines: [{ alias: 'teapot', quantity: 0 }] }), 422, 'validation_error');
    expectProblem(await create(order, { lines: [], surprise: true }), 422, 'validation_error');
  });

  it('answers a move the state machine does not allow with 409 and the allowed moves', async () => {
    const order = await approvedOrder();
    const { id } = json(await create(order));
    const early = expectProblem(await move(order, `${id}/deliver`), 409, 'invalid_transition');
    expect(early).toMatchObject({ from: 'pending', to: 'delivered', allowed: ['shipped', 'cancelled'] });
    await move(order, `${id}/ship`);
    const late = expectProblem(await move(order, `${id}/cancel`), 409, 'invalid_transition');
    expect(late).toMatchObject({ from: 'shipped', allowed: ['delivered'] });
    expectProblem(await move(order, '999999/ship'), 404, 'fulfillment_not_found');
    expectProblem(await move(order, `${id}/deliver`, { note: 'x' }), 422, 'validation_error');
  });

  it('fulfils only approved or processing orders: not an unpaid, cancelled or hand-shipped one', async () => {
    const unpaid = await placeGuestOrder(t, {
      variants: [{ alias: 'teapot', quantity: 1 }],
      shipping_address: guestAddress,
    });
    expect(expectProblem(await create(unpaid), 409, 'order_not_fulfillable')).toMatchObject({
      order_status: 'pending',
      payment_status: 'unpaid',
    });
    await apiAs(t, admin).patch(orderUrl(unpaid.order_alias), { status: 'cancelled' });
    expectProblem(await create(unpaid), 409, 'order_not_fulfillable');
    const byHand = await approvedOrder();
    for (const status of ['processing', 'shipped'])
      await apiAs(t, admin).patch(orderUrl(byHand.order_alias), { status });
    expectProblem(await create(byHand), 409, 'order_not_fulfillable');
    expect(await adminOrder(byHand)).toMatchObject({
      status: 'shipped',
      fulfillment_status: 'unfulfilled',
      fulfillments: [],
    });
    expectProblem(
      await create({ ...byHand, order_alias: '00000000-0000-0000-0000-000000000000' }),
      404,
      'order_not_found',
    );
  });

  it('refuses moving an order with fulfillments to shipped or delivered by hand: its shipments do that', async () => {
    const order = await approvedOrder();
    await create(order, { lines: [{ alias: 'teapot', quantity: 1 }] });
    expect(await adminOrder(order)).toMatchObject({ status: 'processing', next_statuses: ['cancelled'] });
    const res = await t.app.inject({
      method: 'PATCH',
      url: orderUrl(order.order_alias),
      headers: auth(),
      payload: { status: 'shipped' },
    });
    expect(expectProblem(res, 409, 'invalid_transition')).toMatchObject({ from: 'processing', allowed: ['cancelled'] });
  });

  it('is for admins only', async () => {
    const order = await approvedOrder();
    const res = await t.app.inject({ method: 'POST', url: fulfillmentsUrl(order.order_alias), payload: {} });
    expectProblem(res, 401, 'unauthorized');
  });
});

describe('two admins fulfilling at once', () => {
  it('never fulfil more units than ordered: the order row is locked', async () => {
    const order = await approvedOrder();
    const one = { lines: [{ alias: 'mug-blue', quantity: 1 }] };
    const answers = await Promise.all(Array.from({ length: 6 }, () => create(order, one)));
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 201, 409, 409, 409, 409]);
    for (const r of answers.filter((a) => a.statusCode === 409))
      expect(expectProblem(r, 409, 'fulfillment_exceeds_fulfillable')).toMatchObject({ fulfillable: 0 });
    const all = await Promise.all([create(order), create(order)]);
    expect(all.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const detail = await adminOrder(order);
    expect(detail.fulfillment_status).toBe('fulfilled');
    const units = detail.fulfillments.flatMap((f: { lines: { quantity: number }[] }) => f.lines);
    expect(units.reduce((a: number, l: { quantity: number }) => a + l.quantity, 0)).toBe(3);
  });
});

describe('capture on shipment (PAYMENT_CAPTURE=manual, CAPTURE_ON_SHIPMENT=true, sandbox)', () => {
  let m: TestApp;
  let boss: SignedIn;
  beforeAll(async () => {
    m = await buildTestApp({
      config: { paymentPlugins: ['sandbox'], paymentCapture: 'manual', captureOnShipment: true },
    });
    boss = await signInAdmin(m);
    await stockMugsAndTeapots(m, boss);
  }, 60_000);
  afterAll(() => m.close());

  const send = (url: string, payload?: object) =>
    m.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${boss.access}` }, payload: payload ?? {} });
  const orderOf = (order: PlacedOrder) => apiAs(m, boss).get(orderUrl(order.order_alias));

  /** 2 mugs and a teapot (46.00), the money held by a sandbox authorization: the order approved, nothing to pay. */
  async function authorized(): Promise<PlacedOrder> {
    const order = await placeGuestOrder(m, {
      variants: [
        { alias: 'mug-blue', quantity: 2 },
        { alias: 'teapot', quantity: 1 },
      ],
      shipping_address: guestAddress,
    });
    await payWithSandbox(m, order, 'payment.authorized');
    expect(await orderOf(order)).toMatchObject({ status: 'approved', payment_status: 'authorized' });
    return order;
  }

  it('captures the whole order when one parcel ships it all', async () => {
    const order = await authorized();
    const { id } = json(await send(fulfillmentsUrl(order.order_alias)));
    const shipped = json(await send(`${fulfillmentsUrl(order.order_alias)}${id}/ship/`));
    expect(shipped.captures).toEqual([
      { payment_id: expect.any(Number), amount: '46.00', status: 'succeeded', detail: null },
    ]);
    expect(await orderOf(order)).toMatchObject({
      status: 'shipped',
      payment_status: 'paid',
      ledger: { captured: '46.00', capturable: '0.00', balance_due: '0.00' },
    });
  });

  it('captures the value of a first parcel; the capture is final, so the rest is due again', async () => {
    const order = await authorized();
    const url = fulfillmentsUrl(order.order_alias);
    const mugs = json(await send(url, { lines: [{ alias: 'mug-blue', quantity: 2 }] }));
    const teapot = json(await send(url));
    const first = json(await send(`${url}${mugs.id}/ship/`));
    expect(first.captures).toMatchObject([{ amount: '16.00', status: 'succeeded' }]);
    expect((await orderOf(order)).ledger).toMatchObject({ captured: '16.00', capturable: '0.00', to_pay: '30.00' });
    // Nothing is held any more: the second parcel has nothing to capture.
    expect(json(await send(`${url}${teapot.id}/ship/`)).captures).toEqual([]);
  });

  it('refunds a returned parcel only what it overpays; the rest of its value lowers what is still due', async () => {
    const order = await authorized();
    const url = fulfillmentsUrl(order.order_alias);
    const teapot = json(await send(url, { lines: [{ alias: 'teapot', quantity: 1 }] }));
    expect(json(await send(`${url}${teapot.id}/ship/`)).captures).toMatchObject([{ amount: '30.00' }]);
    const returns = `${orderUrl(order.order_alias)}returns/`;
    const asked = json(await send(returns, { lines: [{ alias: 'teapot', quantity: 1, reason: 'damaged' }] }));
    // The teapot's 30.00 no longer charged: 16.00 (the mugs) is charged, 30.00 was taken, so 14.00 goes back.
    expect(asked.estimated_refund).toEqual({
      amount: '30.00',
      amount_with_shipping: '30.00',
      to_customer: '14.00',
      to_customer_with_shipping: '14.00',
    });
    expect(json(await send(`${returns}${asked.id}/receive/`)).status).toBe('received');
    const refunded = json(await send(`${returns}${asked.id}/refund/`));
    expect(refunded.refunds).toMatchObject([{ amount: '14.00', status: 'succeeded' }]);
    expect((await orderOf(order)).ledger).toMatchObject({ returned: '30.00', refunded: '14.00', balance_due: '0.00' });
  });

  it('answers a capture the gateway refuses, and leaves the shipment shipped', async () => {
    const order = await authorized();
    const gateway = m.payments.get('sandbox')?.gateway;
    if (!gateway?.capture) throw new Error('the sandbox has no capture');
    const spy = vi.spyOn(gateway, 'capture').mockRejectedValue(new GatewayError('card issuer said no', false));
    try {
      const { id } = json(await send(fulfillmentsUrl(order.order_alias)));
      const res = await send(`${fulfillmentsUrl(order.order_alias)}${id}/ship/`);
      expect(res.statusCode, res.body).toBe(200);
      expect(json(res)).toMatchObject({
        status: 'shipped',
        captures: [{ amount: '46.00', status: 'failed', detail: expect.stringContaining('card issuer said no') }],
      });
      expect(await orderOf(order)).toMatchObject({ status: 'shipped', payment_status: 'authorized' });
    } finally {
      spy.mockRestore();
    }
  });
});

describe('a retried create (Idempotency-Key)', () => {
  it('answers the fulfillment it made, also when the two race; another body with the key is a 422', async () => {
    const order = await approvedOrder();
    const once = (payload: object) =>
      t.app.inject({
        method: 'POST',
        url: fulfillmentsUrl(order.order_alias),
        headers: { ...auth(), 'idempotency-key': 'parcel-1' },
        payload,
      });
    const body = { lines: [{ alias: 'mug-blue', quantity: 1 }] };
    const [a, b] = await Promise.all([once(body), once(body)]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(json(a).id).toBe(json(b).id);
    expect(json(await once(body)).id).toBe(json(a).id);
    expectProblem(await once({ lines: [{ alias: 'mug-blue', quantity: 2 }] }), 422, 'idempotency_key_reused');
    expect((await apiAs(t, admin).get(fulfillmentsUrl(order.order_alias))).items).toHaveLength(1);
  });

  it('answers a ship or delivery repeated with its key as the shipment is, moving nothing again', async () => {
    const order = await approvedOrder();
    const { id } = json(await create(order));
    const again = (step: 'ship' | 'deliver', key: string, payload: object = {}) =>
      t.app.inject({
        method: 'POST',
        url: `${fulfillmentsUrl(order.order_alias)}${id}/${step}/`,
        headers: { ...auth(), 'idempotency-key': key },
        payload,
      });
    const [a, b] = await Promise.all([again('ship', 'ship-1'), again('ship', 'ship-1')]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect([json(a).status, json(b).status]).toEqual(['shipped', 'shipped']);
    expectProblem(await again('ship', 'ship-1', { carrier: 'dhl' }), 422, 'idempotency_key_reused');
    expect(json(await again('deliver', 'deliver-1')).status).toBe('delivered');
    expect(json(await again('deliver', 'deliver-1')).status).toBe('delivered');
    // Without a key, a move made already is refused, harmlessly.
    expectProblem(await move(order, `${id}/deliver`), 409, 'invalid_transition');
    expect((await eventTypes(order)).filter((e) => e.startsWith('fulfillment.'))).toEqual([
      'fulfillment.created',
      'fulfillment.shipped',
      'fulfillment.delivered',
    ]);
  });
});

describe('cancelling a processing order while nothing of it has shipped', () => {
  const stock = async () => {
    const rows = await t.database.db
      .select({ alias: productVariants.alias, stock: productVariants.stock })
      .from(productVariants)
      .where(inArray(productVariants.alias, ['mug-blue', 'teapot']));
    return Object.fromEntries(rows.map((r) => [r.alias, r.stock]));
  };
  const patch = (order: PlacedOrder, status: string) =>
    t.app.inject({ method: 'PATCH', url: orderUrl(order.order_alias), headers: auth(), payload: { status } });

  it('cancels one whose shipments were all cancelled, giving its stock back', async () => {
    const before = await stock();
    const order = await approvedOrder();
    const parcel = json(await create(order));
    await move(order, `${parcel.id}/cancel`);
    expect(await adminOrder(order)).toMatchObject({
      status: 'processing',
      fulfillment_status: 'unfulfilled',
      next_statuses: ['shipped', 'cancelled'],
    });
    const res = await patch(order, 'cancelled');
    expect(res.statusCode, res.body).toBe(200);
    expect(await adminOrder(order)).toMatchObject({ status: 'cancelled', fulfillment_status: 'unfulfilled' });
    expect(await stock()).toEqual(before);
  });

  it('cancels its pending shipments with it (a fulfillment.cancelled each), not once a parcel shipped', async () => {
    const order = await approvedOrder();
    const parcel = json(await create(order, { lines: [{ alias: 'teapot', quantity: 1 }] }));
    expect((await adminOrder(order)).next_statuses).toEqual(['cancelled']);
    expect((await patch(order, 'cancelled')).statusCode).toBe(200);
    expect(await adminOrder(order)).toMatchObject({
      status: 'cancelled',
      fulfillment_status: 'unfulfilled',
      fulfillments: [{ id: parcel.id, status: 'cancelled' }],
    });
    expect((await eventTypes(order)).slice(-3)).toEqual([
      'fulfillment.cancelled',
      'order.status_changed',
      'order.cancelled',
    ]);
    expectProblem(await move(order, `${parcel.id}/ship`), 409, 'invalid_transition');

    const shipped = await approvedOrder();
    const first = json(await create(shipped, { lines: [{ alias: 'teapot', quantity: 1 }] }));
    await move(shipped, `${first.id}/ship`);
    expect((await adminOrder(shipped)).next_statuses).toEqual([]);
    expect(expectProblem(await patch(shipped, 'cancelled'), 409, 'invalid_transition')).toMatchObject({
      from: 'processing',
      to: 'cancelled',
      allowed: [],
    });
    expect(await adminOrder(shipped)).toMatchObject({ status: 'processing', fulfillment_status: 'partially_shipped' });
  });

  it('cancel and ship sent at once: exactly one wins, and the order, its parcel and the stock agree', async () => {
    for (let round = 1; round <= 4; round++) {
      const before = await stock();
      const order = await approvedOrder();
      const parcel = json(await create(order));
      // Sent in both orders across rounds, so each may reach the order's lock first.
      const sends = [() => patch(order, 'cancelled'), () => move(order, `${parcel.id}/ship`)];
      if (round % 2 === 0) sends.reverse();
      const answers = await Promise.all(sends.map((send) => send()));
      const [cancel, ship] = round % 2 === 0 ? [answers[1]!, answers[0]!] : [answers[0]!, answers[1]!];
      expect([cancel.statusCode, ship.statusCode].sort(), `round ${round}`).toEqual([200, 409]);
      const detail = await adminOrder(order);
      if (cancel.statusCode === 200) {
        expectProblem(ship, 409, 'invalid_transition');
        expect(detail).toMatchObject({ status: 'cancelled', fulfillments: [{ status: 'cancelled' }] });
        expect(await stock(), `round ${round}`).toEqual(before);
      } else {
        expectProblem(cancel, 409, 'invalid_transition');
        expect(detail).toMatchObject({ status: 'shipped', fulfillments: [{ status: 'shipped' }] });
        expect(await stock(), `round ${round}`).toEqual({
          'mug-blue': before['mug-blue']! - 2,
          teapot: before.teapot! - 1,
        });
      }
    }
  });
});
