import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { orders as ordersTable, productVariants, promotions } from '../src/db/schema.js';
import {
  type AdminApi,
  apiAs,
  buildAdminTestApp,
  guestAddress,
  orderEventTypes,
  type PlacedOrder,
  placeGuestOrder,
} from './fixtures.js';
import { expectProblem, json, type SignedIn, signUp, type TestApp } from './helpers.js';
import { payWithSandbox } from './sandbox-gateway.js';

// Order edits through the real app (issue #27 item 3): an admin changes an order's lines before anything ships; the
// order is priced again as placed (its lines at their own prices and rates, its promotions in their terms then), the
// stock moves in the same transaction, the ledger shows the difference, and the history keeps who, when and why.
//
// The store: USD, half_up, net prices. Delivery to Austin, Texas (guestAddress), where Standard is taxed 8.25 %. A mug
// at 10.00 and a plate at 4.00, both Standard; Ground ships for 5.00, untaxed (shipping is not taxable here).

let t: TestApp;
let admin: SignedIn;
let api: AdminApi;
let groundId: number;
let mugId: number;
let plateId: number;

beforeAll(async () => {
  ({ t, admin, api } = await buildAdminTestApp({ config: { paymentPlugins: ['sandbox'] } }));
  const standard = await api.taxClass({ name: 'Standard' });
  await api.taxRate({ tax_class_id: standard.id, country: 'US', state: 'TX', rate: '8.25' });
  const product = await api.product({
    name: 'Tableware',
    tax_class_id: standard.id,
    variants: [
      { alias: 'oe-mug', name: 'Mug', price: '10.00', stock: 1000 },
      { alias: 'oe-plate', name: 'Plate', price: '4.00', stock: 1000 },
      { alias: 'oe-bowl', name: 'Bowl', price: '6.00', stock: 3 },
    ],
  });
  mugId = product.variants[0]!.id;
  plateId = product.variants[1]!.id;
  groundId = (await api.shippingMethod({ name: 'Ground' })).id;
  await api.shippingRate({ shipping_method_id: groundId, country: 'US', weight_min_kg: '0', base_rate: '5.00' });
});
afterAll(() => t?.close());
afterEach(async () => {
  const live = await api.get('/discount/dashboard/api/promotions/?limit=100');
  for (const p of live.items as { id: number }[]) await api.delete(`/discount/dashboard/api/promotions/${p.id}/`);
});

const place = (variants: { alias: string; quantity: number }[], extra: object = {}) =>
  placeGuestOrder(t, { variants, shipping_address: guestAddress, shipping_method_id: groundId, ...extra });
const editsUrl = (order: PlacedOrder) => `/order/dashboard/api/orders/${order.order_alias}/edits/`;
const edit = (order: PlacedOrder, body: object, who: SignedIn = admin) =>
  t.app.inject({
    method: 'POST',
    url: editsUrl(order),
    headers: { authorization: `Bearer ${who.access}` },
    payload: body,
  });
const preview = (order: PlacedOrder, body: object) =>
  t.app.inject({
    method: 'POST',
    url: `${editsUrl(order)}preview/`,
    headers: { authorization: `Bearer ${admin.access}` },
    payload: body,
  });
const stockOf = async (id: number) =>
  (await t.database.db.select().from(productVariants).where(eq(productVariants.id, id)))[0]?.stock;
const orderOf = (order: PlacedOrder) => api.get(`/order/dashboard/api/orders/${order.order_alias}/`);
const eventTypes = (order: PlacedOrder) => orderEventTypes(t, admin, order.order_alias);

describe('editing an order before it ships', () => {
  it('adds units and a new line, prices them as placed, takes the stock, and keeps who, when and why', async () => {
    // 2 mugs: 20.00 + tax 1.65 + Ground 5.00 = 26.65.
    const order = await place([{ alias: 'oe-mug', quantity: 2 }]);
    expect(order.total).toBe('26.65');
    // The catalog changes after placement: the mug's line keeps its price, the plate is added at today's.
    await api.patch(`/product/dashboard/api/variants/${mugId}/`, { price: '99.00' });
    const [mugBefore, plateBefore] = [await stockOf(mugId), await stockOf(plateId)];

    // 3 mugs (30.00) and 2 plates (8.00): 38.00 + tax 8.25 % (2.475 → 2.48 on the mugs, 0.66 on the plates) + 5.00.
    const body = {
      lines: [
        { alias: 'oe-mug', quantity: 3 },
        { alias: 'oe-plate', quantity: 2 },
      ],
      note: 'Phone call: one more mug and two plates',
    };
    const seen = await preview(order, body);
    expect(seen.statusCode, seen.body).toBe(200);
    expect(json(seen)).toMatchObject({
      total_before: '26.65',
      total_after: '46.14',
      difference: '19.49',
      subtotal: '38.00',
      estimated_tax: '3.14',
      balance_due: '46.14',
      refund_due: '0.00',
      lines: [
        { alias: 'oe-mug', unit_price: '10.00', before: 2, after: 3 },
        { alias: 'oe-plate', name: 'Tableware - Plate', unit_price: '4.00', before: 0, after: 2 },
      ],
    });
    // A preview writes nothing.
    expect(await stockOf(mugId)).toBe(mugBefore);
    expect((await orderOf(order)).total).toBe('26.65');

    const res = await edit(order, { ...body, expected_total: '46.14' });
    expect(res.statusCode, res.body).toBe(201);
    const edited = json(res);
    expect(edited.order).toMatchObject({
      total: '46.14',
      subtotal: '38.00',
      total_items: 5,
      payment_status: 'unpaid',
      ledger: { balance_due: '46.14', to_pay: '46.14' },
    });
    expect(edited.order.lines).toMatchObject([
      { alias: 'oe-mug', quantity: 3, unit_price: '10.00', total: '32.48' },
      { alias: 'oe-plate', quantity: 2, unit_price: '4.00', total: '8.66' },
    ]);
    expect(await stockOf(mugId)).toBe((mugBefore ?? 0) - 1);
    expect(await stockOf(plateId)).toBe((plateBefore ?? 0) - 2);
    expect(await orderOf(order)).toMatchObject({ total: '46.14', total_items: 5 });

    const history = await api.get(editsUrl(order));
    expect(history.items).toMatchObject([
      {
        id: edited.id,
        edited_by: admin.id,
        note: 'Phone call: one more mug and two plates',
        total_before: '26.65',
        total_after: '46.14',
        lines: body.lines.map((l, i) => ({ alias: l.alias, before: i === 0 ? 2 : 0, after: l.quantity })),
      },
    ]);
    expect((await eventTypes(order)).at(-1)).toBe('order.edited');
    await api.patch(`/product/dashboard/api/variants/${mugId}/`, { price: '10.00' });
  });

  it('removes a line and gives its stock back; a paid order then owes money back, refundable', async () => {
    // 1 mug + 2 plates: 18.00 + tax 1.49 (0.825 → 0.83, 0.66) + 5.00 = 24.49.
    const order = await place([
      { alias: 'oe-mug', quantity: 1 },
      { alias: 'oe-plate', quantity: 2 },
    ]);
    expect(order.total).toBe('24.49');
    await payWithSandbox(t, order);
    const plates = await stockOf(plateId);
    const res = await edit(order, { lines: [{ alias: 'oe-plate', quantity: 0 }] });
    expect(res.statusCode, res.body).toBe(201);
    // 1 mug: 10.00 + 0.83 + 5.00 = 15.83; 8.66 was paid for the plates.
    expect(json(res)).toMatchObject({ difference: '-8.66', balance_due: '-8.66', refund_due: '8.66' });
    expect(json(res).order).toMatchObject({
      total: '15.83',
      payment_status: 'overpaid',
      ledger: { captured: '24.49', refund_due: '8.66', refundable: '24.49' },
    });
    expect(json(res).order.lines.map((l: { alias: string }) => l.alias)).toEqual(['oe-mug']);
    expect(await stockOf(plateId)).toBe((plates ?? 0) + 2);

    // The refund of what is owed back is not a credit: the order is then paid, exactly.
    const payments = await api.get(`/payment/dashboard/api/orders/${order.order_alias}/payments/`);
    await apiAs(t, admin).post(`/payment/dashboard/api/payments/${payments[0].id}/refund/`, { amount: '8.66' }, 200);
    expect(await orderOf(order)).toMatchObject({
      payment_status: 'partially_refunded',
      ledger: { refunded: '8.66', credited: '0.00', balance_due: '0.00', refund_due: '0.00' },
    });
  });

  it('asks a paid order for the difference when it grows, payable through the payment API', async () => {
    const order = await place([{ alias: 'oe-plate', quantity: 1 }]);
    await payWithSandbox(t, order);
    const res = await edit(order, { lines: [{ alias: 'oe-plate', quantity: 3 }] });
    expect(res.statusCode, res.body).toBe(201);
    // 1 plate: 4.00 + 0.33 + 5.00 = 9.33; 3 plates: 12.00 + 0.99 + 5.00 = 17.99.
    expect(json(res).order).toMatchObject({
      total: '17.99',
      payment_status: 'partially_paid',
      ledger: { balance_due: '8.66', to_pay: '8.66' },
    });
    await payWithSandbox(t, order);
    expect(await orderOf(order)).toMatchObject({ payment_status: 'paid', ledger: { balance_due: '0.00' } });
  });

  it('keeps a promotion as it applied at placement, though it changed and its limit is reached since', async () => {
    const sale = await api.promotion({
      name: '10 % off',
      redemption_limit: 1,
      action: { type: 'order_percentage', percent: '10' },
    });
    // 2 mugs: 20.00 − 2.00 = 18.00 + tax 1.49 (1.485 → 1.49) + 5.00 = 24.49.
    const order = await place([{ alias: 'oe-mug', quantity: 2 }]);
    expect(order.total).toBe('24.49');
    await api.patch(`/discount/dashboard/api/promotions/${sale.id}/`, {
      action: { type: 'order_percentage', percent: '50' },
    });
    const res = await edit(order, { lines: [{ alias: 'oe-mug', quantity: 4 }] });
    expect(res.statusCode, res.body).toBe(201);
    // 4 mugs: 40.00 − 10 % 4.00 = 36.00 + tax 2.97 + 5.00 = 43.97: the 10 % of placement, not today's 50 %.
    expect(json(res).order).toMatchObject({
      discount: '4.00',
      total: '43.97',
      promotions: [{ id: sale.id, amount: '4.00' }],
    });
    const [row] = await t.database.db.select().from(promotions).where(eq(promotions.id, sale.id));
    expect(row?.timesUsed).toBe(1);
  });

  it('gives back the use of a promotion whose condition no longer holds after the edit', async () => {
    const big = await api.promotion({
      name: '5.00 off from 30.00',
      conditions: [{ type: 'min_subtotal', amount: '30.00' }],
      action: { type: 'order_fixed', amount: '5.00' },
    });
    const order = await place([{ alias: 'oe-mug', quantity: 3 }]);
    expect((await orderOf(order)).discount).toBe('5.00');
    const res = await edit(order, { lines: [{ alias: 'oe-mug', quantity: 2 }] });
    expect(res.statusCode, res.body).toBe(201);
    expect(json(res)).toMatchObject({ dropped_promotions: [{ id: big.id, name: '5.00 off from 30.00' }] });
    expect(json(res).order).toMatchObject({ discount: '0.00', promotions: [], total: '26.65' });
    const [row] = await t.database.db.select().from(promotions).where(eq(promotions.id, big.id));
    expect(row?.timesUsed).toBe(0);
  });
});

describe('an edit sent again with its Idempotency-Key', () => {
  it('edits once: the retry answers the same edit, the stock and the history moved once', async () => {
    const order = await place([{ alias: 'oe-mug', quantity: 1 }]);
    const mugs = await stockOf(mugId);
    const once = (body: object) =>
      t.app.inject({
        method: 'POST',
        url: editsUrl(order),
        headers: { authorization: `Bearer ${admin.access}`, 'idempotency-key': `edit-${order.order_alias}` },
        payload: body,
      });
    const body = { lines: [{ alias: 'oe-mug', quantity: 3 }] };
    const [a, b] = await Promise.all([once(body), once(body)]);
    expect([a.statusCode, b.statusCode], `${a.body} ${b.body}`).toEqual([201, 201]);
    expect(json(b)).toMatchObject({ id: json(a).id, total_after: json(a).total_after, difference: json(a).difference });
    expect(json(b).order.lines).toMatchObject([{ alias: 'oe-mug', quantity: 3 }]);
    expect(await stockOf(mugId)).toBe((mugs ?? 0) - 2);
    expect((await api.get(editsUrl(order))).items).toHaveLength(1);
    expectProblem(await once({ lines: [{ alias: 'oe-mug', quantity: 4 }] }), 422, 'idempotency_key_reused');
  });
});

describe('edits refused', () => {
  it.each([
    [{ lines: [{ alias: 'oe-mug', quantity: 0 }] }, 422, 'validation_error'],
    [{ lines: [{ alias: 'oe-mug', quantity: 1 }] }, 422, 'validation_error'],
    [{ lines: [{ alias: 'no-such-variant', quantity: 1 }] }, 422, 'unknown_variant'],
    [{ lines: [{ alias: 'oe-bowl', quantity: 4 }] }, 409, 'insufficient_stock'],
    [{ lines: [{ alias: 'oe-mug', quantity: 2 }], expected_total: '1.00' }, 409, 'total_changed'],
    [
      {
        lines: [
          { alias: 'oe-mug', quantity: 2 },
          { alias: 'oe-mug', quantity: 3 },
        ],
      },
      422,
      'validation_error',
    ],
    [{ lines: [] }, 422, 'validation_error'],
    [{ lines: [{ alias: 'oe-mug', quantity: -1 }] }, 422, 'validation_error'],
  ])('refuses %o with %i %s and changes nothing', async (body, status, code) => {
    const order = await place([{ alias: 'oe-mug', quantity: 1 }]);
    const before = [await stockOf(mugId), await orderOf(order)];
    expectProblem(await edit(order, body), status, code);
    expect([await stockOf(mugId), await orderOf(order)]).toEqual(before);
  });

  it('refuses an order that has shipped or was cancelled (409 order_not_editable)', async () => {
    const shipped = await place([{ alias: 'oe-mug', quantity: 1 }]);
    for (const status of ['approved', 'processing', 'shipped']) {
      await api.patch(`/order/dashboard/api/orders/${shipped.order_alias}/`, { status });
    }
    expectProblem(await edit(shipped, { lines: [{ alias: 'oe-mug', quantity: 2 }] }), 409, 'order_not_editable');
    const cancelled = await place([{ alias: 'oe-mug', quantity: 1 }]);
    await api.patch(`/order/dashboard/api/orders/${cancelled.order_alias}/`, { status: 'cancelled' });
    expectProblem(await edit(cancelled, { lines: [{ alias: 'oe-mug', quantity: 2 }] }), 409, 'order_not_editable');
  });

  it('refuses an order with a fulfilment, and edits it again once that fulfilment is cancelled', async () => {
    const order = await place([{ alias: 'oe-mug', quantity: 2 }]);
    await api.patch(`/order/dashboard/api/orders/${order.order_alias}/`, { status: 'approved' });
    const fulfilments = `/order/dashboard/api/orders/${order.order_alias}/fulfillments/`;
    const created = await api.post(fulfilments, { lines: [{ alias: 'oe-mug', quantity: 1 }] }, 201);
    const body = { lines: [{ alias: 'oe-mug', quantity: 3 }] };
    expectProblem(await edit(order, body), 409, 'order_not_editable');
    const cancelled = await t.app.inject({
      method: 'POST',
      url: `${fulfilments}${created.id}/cancel/`,
      headers: { authorization: `Bearer ${admin.access}` },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect((await edit(order, body)).statusCode).toBe(201);
  });

  it('is for admins only', async () => {
    const order = await place([{ alias: 'oe-mug', quantity: 1 }]);
    const customer = await signUp(t.app);
    expectProblem(await edit(order, { lines: [{ alias: 'oe-mug', quantity: 2 }] }, customer), 403, 'forbidden');
  });
});

describe('edits racing placements for the last units', () => {
  it('never oversells: edits and orders racing for 5 units take at most 5, as the stock shows', async () => {
    const product = await api.product({
      name: 'Scarce',
      variants: [{ alias: 'oe-scarce', name: 'S', price: '1.00', stock: 5 }],
    });
    const scarce = product.variants[0]!.id;
    const orders = await Promise.all([1, 2, 3].map(() => place([{ alias: 'oe-mug', quantity: 1 }])));
    const racing = await Promise.all([
      ...orders.map((order) => edit(order, { lines: [{ alias: 'oe-scarce', quantity: 2 }] })),
      ...[1, 2, 3].map(() =>
        t.app.inject({
          method: 'POST',
          url: '/order/storefront/api/guest-user-order-create/',
          payload: {
            variants: [{ alias: 'oe-scarce', quantity: 1 }],
            shipping_address: guestAddress,
            shipping_method_id: groundId,
          },
        }),
      ),
    ]);
    const taken =
      racing.slice(0, 3).filter((r) => r.statusCode === 201).length * 2
      + racing.slice(3).filter((r) => r.statusCode === 201).length;
    for (const r of racing) expect([201, 409], r.body).toContain(r.statusCode);
    expect(taken).toBeLessThanOrEqual(5);
    expect(await stockOf(scarce)).toBe(5 - taken);
    expect(await stockOf(scarce)).toBeGreaterThanOrEqual(0);
  });
});

describe("an order in another currency than the store's (as a market will place it)", () => {
  it("previews, edits and lists edits in the order's currency; a line priced in the store's is refused", async () => {
    // 2 mugs placed at 26.65 USD, then made a yen order as a JPY market's placement will write it: ¥2,665, the mug's
    // line ¥1,000 a unit, its tax ¥165.
    const order = await place([{ alias: 'oe-mug', quantity: 2 }]);
    await t.database.db.update(ordersTable).set({ currency: 'JPY' }).where(eq(ordersTable.alias, order.order_alias));

    // The catalog's plate is priced in USD: adding it to a yen order would charge 400 "yen". Refused, nothing written.
    const added = expectProblem(
      await preview(order, { lines: [{ alias: 'oe-plate', quantity: 1 }] }),
      422,
      'validation_error',
    );
    expect(added.errors).toEqual([
      {
        field: 'lines[0].alias',
        message: "the order is in JPY and the catalog's prices in USD: only the quantities of its own lines can change",
      },
    ]);
    // expected_total is read in yen: decimals are refused, the right total is taken.
    const cents = expectProblem(
      await edit(order, { lines: [{ alias: 'oe-mug', quantity: 3 }], expected_total: '3991.00' }),
      422,
      'validation_error',
    );
    expect(cents.errors).toEqual([{ field: 'expected_total', message: 'must be a whole number in this currency' }]);
    // 3 mugs: ¥3,000 + tax 8.25 % (247.5 → ¥248) + ¥500 shipping = ¥3,748.
    const res = await edit(order, { lines: [{ alias: 'oe-mug', quantity: 3 }], expected_total: '3748' });
    expect(res.statusCode, res.body).toBe(201);
    expect(json(res)).toMatchObject({
      currency: 'JPY',
      total_before: '2665',
      total_after: '3748',
      difference: '1083',
      lines: [{ alias: 'oe-mug', unit_price: '1000', before: 2, after: 3 }],
      balance_due: '3748',
      order: { currency: 'JPY', total: '3748' },
    });
    const history = await api.get(editsUrl(order));
    expect(history).toMatchObject({ currency: 'JPY', items: [{ total_before: '2665', total_after: '3748' }] });
  });
});
