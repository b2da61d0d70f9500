import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { orderLines, orders, productVariants, promotionRedemptions, promotions } from '../src/db/schema.js';
import { placedOrderBasis } from '../src/orders/order-pricing-basis.js';
import { pricingInputAsPlaced } from '../src/pricing/order-as-placed.js';
import { priceOrder } from '../src/pricing/pricing.calculator.js';
import { promotionAsPlaced } from '../src/promotions/promotions.mapper.js';
import { type AdminApi, buildAdminTestApp, guestAddress, type PromotionInput } from './fixtures.js';
import {
  bearer,
  expectProblem,
  json,
  onPostgres,
  secondProcess,
  type SignedIn,
  signUp,
  type TestApp,
  uniqueEmail,
} from './helpers.js';

// Promotions on orders through the real app (SPEC section 10, issue #15): what estimate and placement answer, what
// placement records (redemptions, uses), what cancelling gives back, and the price guarantee.
//
// The store: USD, half_up, net prices, taxable shipping (at the highest line rate). Delivery to Austin, Texas
// (guestAddress), where the Standard class is taxed 8.25 %. A tee at 24.99 and a mug at 11.99, both Standard; the
// Ground method costs 10.00 anywhere in the US. Each test archives the promotions it made, so the next one starts
// with none.

let t: TestApp;
let api: AdminApi;
let groundId: number;
let teeVariant: number;

const estimateUrl = '/order/storefront/api/estimate/';
const createUrl = '/order/storefront/api/create/';
const guestCreateUrl = '/order/storefront/api/guest-user-order-create/';
const promotionsUrl = '/discount/dashboard/api/promotions/';
const DAY = 86_400_000;

beforeAll(async () => {
  ({ t, api } = await buildAdminTestApp({ config: { shippingTaxable: true } }));
  const standard = await api.taxClass({ name: 'Standard' });
  await api.taxRate({ tax_class_id: standard.id, country: 'US', state: 'TX', rate: '8.25' });
  const tee = await api.product({
    name: 'Tee',
    tax_class_id: standard.id,
    variants: [{ alias: 'po-tee', name: 'Tee', price: '24.99', stock: 10_000 }],
  });
  teeVariant = tee.variants[0]!.id;
  await api.product({
    name: 'Mug',
    tax_class_id: standard.id,
    variants: [{ alias: 'po-mug', name: 'Mug', price: '11.99', stock: 10_000 }],
  });
  groundId = (await api.shippingMethod({ name: 'Ground' })).id;
  await api.shippingRate({ shipping_method_id: groundId, country: 'US', weight_min_kg: '0', base_rate: '10.00' });
});
afterAll(() => t?.close());

/** Archives every promotion still live, so each test prices with its own promotions only. */
afterEach(async () => {
  const live = await api.get(`${promotionsUrl}?limit=100`);
  for (const p of live.items as { id: number }[]) await api.delete(`${promotionsUrl}${p.id}/`);
});

/** Two tees and a mug, shipped by Ground to Austin: subtotal 49.98 + 11.99 = 61.97. */
const basket = (extra: object = {}) => ({
  variants: [
    { alias: 'po-tee', quantity: 2 },
    { alias: 'po-mug', quantity: 1 },
  ],
  shipping_address: { ...guestAddress, email: uniqueEmail('po-guest') },
  shipping_method_id: groundId,
  ...extra,
});

const promotion = (input: PromotionInput) => api.promotion(input);
const weekSale = () =>
  promotion({
    name: '10 % off everything this week',
    starts_at: new Date(Date.now() - DAY).toISOString(),
    expires_at: new Date(Date.now() + 6 * DAY).toISOString(),
    action: { type: 'order_percentage', percent: '10' },
  });

const estimate = (payload: object, who?: SignedIn) =>
  t.app.inject({ method: 'POST', url: estimateUrl, payload, ...(who ? { headers: bearer(who.access) } : {}) });
const place = (payload: object, options: { url?: string; who?: SignedIn; app?: TestApp['app'] } = {}) =>
  (options.app ?? t.app).inject({
    method: 'POST',
    url: options.url ?? createUrl,
    payload,
    ...(options.who ? { headers: bearer(options.who.access) } : {}),
  });

const promotionRow = async (id: number) =>
  (await t.database.db.select().from(promotions).where(eq(promotions.id, id)))[0];
const redemptionsOf = (promotionId: number) =>
  t.database.db.select().from(promotionRedemptions).where(eq(promotionRedemptions.promotionId, promotionId));
const orderCount = async () =>
  Number((await t.database.db.select({ n: sql<number>`count(*)` }).from(orders))[0]?.n ?? 0);
const teeStock = async () =>
  (await t.database.db.select().from(productVariants).where(eq(productVariants.id, teeVariant)))[0]?.stock;

/** A USD amount ("12.30", always two decimals) in cents, for sums in assertions (never floats). */
const cents = (amount: string) => Number(amount.replace('.', ''));
/** The fields an estimate and a placement share (placement adds the order's own). */
const figures = (body: Record<string, unknown>) => {
  const { order_id, order_alias, order_token, status, payment_status, ...rest } = body;
  return rest;
};

describe('the issue\'s "done" scenario: an automatic 10 % this week and SUMMER5 off shipping', () => {
  it('prices estimate and placement alike, lists both promotions with amounts, and records one use each', async () => {
    const sale = await weekSale();
    const summer = await promotion({
      name: 'Summer 5 off shipping',
      code: 'SUMMER5',
      action: { type: 'shipping_fixed', amount: '5.00' },
    });
    const payload = basket({ promocode: 'summer5' });

    // Both at priority 0: the sale (lower id) applies first, then SUMMER5.
    // 1. Sale: 10 % of 61.97 = 6.197 → 6.20, split 620 cents over 4998 : 1199 —
    //    exact 500.04 and 119.96 → floors 500 + 119 = 619, the cent left to the larger remainder (mug):
    //    tee 5.00, mug 1.20.
    // 2. SUMMER5: 5.00 off the 10.00 fee → shipping_discount 5.00, fee left 5.00.
    //    discount = 6.20 + 5.00 = 11.20.
    // 3. Tax 8.25 %: tee (49.98 − 5.00) = 44.98 → 3.710850 → 3.71; mug (11.99 − 1.20) = 10.79 → 0.890175 → 0.89;
    //    shipping at the highest line rate on what is left of it: 5.00 → 0.4125 → 0.41. Estimated tax 5.01.
    // 4. Total = 61.97 − 11.20 + 10.00 + 5.01 = 65.78 (lines 48.69 + 11.68, shipping 5.41). Without tax 60.77.
    const estimated = await estimate(payload);
    expect(estimated.statusCode, estimated.body).toBe(200);
    const quote = json(estimated);
    expect(quote).toMatchObject({
      currency: 'USD',
      subtotal: '61.97',
      discount: '11.20',
      discount_name: '10 % off everything this week, Summer 5 off shipping',
      promotions: [
        { id: sale.id, name: '10 % off everything this week', code: null, kind: 'order_percentage', amount: '6.20' },
        { id: summer.id, name: 'Summer 5 off shipping', code: 'SUMMER5', kind: 'shipping_fixed', amount: '5.00' },
      ],
      shipping_name: 'Ground',
      shipping_fee: '10.00',
      shipping_discount: '5.00',
      estimated_tax: '5.01',
      total_without_tax: '60.77',
      total: '65.78',
      total_items: 3,
    });
    expect(quote.lines).toMatchObject([
      { alias: 'po-tee', subtotal: '49.98', discount: '5.00', tax: '3.71', total: '48.69' },
      { alias: 'po-mug', subtotal: '11.99', discount: '1.20', tax: '0.89', total: '11.68' },
    ]);
    expect(quote.lines.map((l: { adjustments: unknown }) => l.adjustments)).toEqual([
      [{ promotion_id: sale.id, amount: '5.00' }],
      [{ promotion_id: sale.id, amount: '1.20' }],
    ]);
    // Each line's adjustments add up to its discount; the promotions' amounts add up to the order's discount.
    for (const line of quote.lines as { discount: string; adjustments: { amount: string }[] }[]) {
      expect(line.adjustments.reduce((sum, a) => sum + cents(a.amount), 0)).toBe(cents(line.discount));
    }
    expect(quote.promotions.reduce((sum: number, p: { amount: string }) => sum + cents(p.amount), 0)).toBe(
      cents(quote.discount),
    );
    // Section 6's invariant, as written: subtotal − discount + shipping_fee + estimated_tax = total.
    expect(cents(quote.subtotal) - cents(quote.discount) + cents(quote.shipping_fee) + cents(quote.estimated_tax)).toBe(
      cents(quote.total),
    );

    const placedRes = await place({ ...payload, expected_total: '65.78' }, { url: guestCreateUrl });
    expect(placedRes.statusCode, placedRes.body).toBe(201);
    const placed = json(placedRes);
    expect(figures(placed)).toEqual(quote);

    // The order as its guest and as an admin see it.
    const asGuest = json(
      await t.app.inject({
        method: 'GET',
        url: `/order/storefront/api/orders/${placed.order_alias}/`,
        headers: { 'x-order-token': placed.order_token },
      }),
    );
    const asAdmin = await api.get(`/order/dashboard/api/orders/${placed.order_alias}/`);
    for (const order of [asGuest, asAdmin]) {
      expect(order).toMatchObject({
        discount: '11.20',
        promocode: 'SUMMER5',
        promotions: quote.promotions,
        shipping_fee: '10.00',
        shipping_discount: '5.00',
        total: '65.78',
      });
      expect(order.lines.map((l: { adjustments: unknown }) => l.adjustments)).toEqual([
        [{ promotion_id: sale.id, amount: '5.00' }],
        [{ promotion_id: sale.id, amount: '1.20' }],
      ]);
    }

    // One redemption per promotion, one use each.
    for (const id of [sale.id, summer.id]) {
      const redemptions = await redemptionsOf(id);
      expect(redemptions.map((r) => ({ orderId: r.orderId, releasedAt: r.releasedAt }))).toEqual([
        { orderId: placed.order_id, releasedAt: null },
      ]);
      expect((await promotionRow(id))?.timesUsed).toBe(1);
    }
  });
});

describe('the terms an order keeps of its promotions (for pricing it again, issue #27)', () => {
  it('keeps each applied promotion as at placement after the admin changes it, and shows none of it', async () => {
    const sale = await weekSale();
    const placed = json(await place(basket(), { url: guestCreateUrl }));
    await api.patch(`${promotionsUrl}${sale.id}/`, {
      action: { type: 'order_percentage', percent: '50' },
      priority: 9,
    });

    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, placed.order_id));
    const kept = row?.promotions[0];
    expect(kept?.terms).toEqual({
      priority: 0,
      combinable: true,
      conditions: [],
      action: { type: 'order_percentage', percent: '10', products: null },
    });
    expect(kept && promotionAsPlaced(kept)).toMatchObject({
      id: sale.id,
      action: { type: 'order_percentage', percent: '10', products: null },
    });
    const asAdmin = await api.get(`/order/dashboard/api/orders/${placed.order_alias}/`);
    expect(asAdmin.promotions).toEqual([
      { id: sale.id, name: '10 % off everything this week', code: null, kind: 'order_percentage', amount: '6.20' },
    ]);
  });

  it('prices placed orders again from what they kept to their stored figures, promotions changed since', async () => {
    const sale = await weekSale();
    await promotion({
      name: 'Summer 5 off shipping',
      code: 'SUMMER5',
      action: { type: 'shipping_fixed', amount: '5.00' },
    });
    await promotion({
      name: 'Second tee half price',
      priority: 5,
      action: { type: 'buy_x_get_y', buy_quantity: 1, get_quantity: 1, percent: '50' },
    });
    const placedIds = [
      json(await place(basket({ promocode: 'SUMMER5' }), { url: guestCreateUrl })).order_id,
      json(await place(basket(), { url: guestCreateUrl })).order_id,
    ];
    await api.patch(`${promotionsUrl}${sale.id}/`, { action: { type: 'order_percentage', percent: '50' } });
    for (const id of placedIds) {
      const [row] = await t.database.db.select().from(orders).where(eq(orders.id, id));
      const lines = await t.database.db
        .select()
        .from(orderLines)
        .where(eq(orderLines.orderId, id))
        .orderBy(orderLines.id);
      if (!row) throw new Error(`order ${id} not found`);
      expect(row.promotions.length).toBeGreaterThan(1);
      const basis = placedOrderBasis(row, lines);
      if (!basis) throw new Error('the order kept no terms');
      const again = priceOrder(pricingInputAsPlaced(basis, 'half_up'));
      expect({
        subtotal: again.subtotalMinor,
        discount: again.discountMinor,
        shippingDiscount: again.shippingDiscountMinor,
        tax: again.estimatedTaxMinor,
        total: again.totalMinor,
        promotions: again.promotions.map((p) => ({ id: p.id, amount: p.amountMinor })),
        lines: again.lines.map((l) => [l.discountMinor, l.taxMinor, l.totalMinor]),
      }).toEqual({
        subtotal: row.subtotal,
        discount: row.discount,
        shippingDiscount: row.shippingDiscount,
        tax: row.estimatedTax,
        total: row.total,
        promotions: row.promotions.map((p) => ({ id: p.id, amount: p.amount })),
        lines: lines.map((l) => [l.discount, l.tax, l.total]),
      });
    }
  });
});

describe('two automatic buy-get promotions stacked (issue #24 item 6)', () => {
  it('use each tee once: two "buy 1 get 1 free" on three tees take one tee off, estimate and placement', async () => {
    const buy1get1 = { type: 'buy_x_get_y', buy_quantity: 1, get_quantity: 1, percent: '100' } as const;
    const first = await promotion({ name: 'Tees 2 for 1', priority: 1, action: buy1get1 });
    await promotion({ name: 'Also 2 for 1', action: buy1get1 });
    // The first: a tee bought, a tee free (24.99). The second finds one tee left: no deal.
    // Tax 8.25 %: tees 74.97 − 24.99 = 49.98 → 4.123… → 4.12; shipping 10.00 → 0.825 → 0.83. Estimated tax 4.95.
    // Total = 74.97 − 24.99 + 10.00 + 4.95 = 64.93.
    const payload = basket({ variants: [{ alias: 'po-tee', quantity: 3 }] });
    const estimated = await estimate(payload);
    expect(estimated.statusCode, estimated.body).toBe(200);
    const quote = json(estimated);
    expect(quote).toMatchObject({
      subtotal: '74.97',
      discount: '24.99',
      discount_name: 'Tees 2 for 1',
      promotions: [{ id: first.id, kind: 'buy_x_get_y', amount: '24.99' }],
      estimated_tax: '4.95',
      total: '64.93',
    });
    const placed = await place({ ...payload, expected_total: '64.93' }, { url: guestCreateUrl });
    expect(placed.statusCode, placed.body).toBe(201);
    expect(figures(json(placed))).toEqual(quote);
  });
});

describe('limits of automatic promotions under concurrency', () => {
  it('gives an automatic promotion limited to 2 uses to 2 of 6 racing guest orders, placing all 6', async () => {
    const limited = await promotion({
      name: 'First two',
      redemption_limit: 2,
      action: { type: 'order_fixed', amount: '1.00' },
    });
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        place({ variants: [{ alias: 'po-mug' }], shipping_address: guestAddress }, { url: guestCreateUrl }),
      ),
    );
    expect(
      results.map((r) => r.statusCode),
      results.map((r) => r.body).join('\n'),
    ).toEqual(Array(6).fill(201));
    const bodies = results.map(json);
    // With it: 11.99 − 1.00 = 10.99, tax 0.906675 → 0.91, total 11.90; without it: 11.99 + 0.99 (0.989175) = 12.98.
    const carrying = bodies.filter((b) => b.promotions.some((p: { id: number }) => p.id === limited.id));
    expect(carrying).toHaveLength(2);
    for (const b of carrying) expect(b).toMatchObject({ discount: '1.00', total: '11.90' });
    for (const b of bodies.filter((x) => !carrying.includes(x))) {
      expect(b).toMatchObject({ discount: '0.00', promotions: [], total: '12.98' });
    }
    expect((await promotionRow(limited.id))?.timesUsed).toBe(2);
    expect((await redemptionsOf(limited.id)).map((r) => r.orderId).sort()).toEqual(
      carrying.map((b) => b.order_id).sort(),
    );
  });
});

describe('cancelling an order', () => {
  it('gives back every promotion use it took: times_used goes back and each redemption is released', async () => {
    const sale = await weekSale();
    const summer = await promotion({
      name: 'Summer 5 off shipping',
      code: 'SUMMER5',
      redemption_limit: 1,
      action: { type: 'shipping_fixed', amount: '5.00' },
    });
    const placed = json(await place(basket({ promocode: 'SUMMER5' }), { url: guestCreateUrl }));
    expect(placed.promotions.map((p: { id: number }) => p.id)).toEqual([sale.id, summer.id]);
    // Used up: the code is refused while the order stands.
    expect(expectProblem(await estimate(basket({ promocode: 'SUMMER5' })), 422, 'promo_code_invalid').rule).toBe(
      'redemption_limit',
    );

    const cancelled = await api.patch(`/order/dashboard/api/orders/${placed.order_alias}/`, { status: 'cancelled' });
    expect(cancelled.status).toBe('cancelled');
    for (const id of [sale.id, summer.id]) {
      expect((await promotionRow(id))?.timesUsed).toBe(0);
      const redemptions = await redemptionsOf(id);
      expect(redemptions).toHaveLength(1);
      expect(redemptions[0]?.releasedAt).toBeInstanceOf(Date);
    }
    // The code's one use is free again.
    expect(json(await estimate(basket({ promocode: 'SUMMER5' }))).shipping_discount).toBe('5.00');
  });
});

describe('the price guarantee (expected_total)', () => {
  it('places the order when expected_total is the total', async () => {
    await weekSale();
    const { total } = json(await estimate(basket()));
    // The sale alone: discount 6.20 (tee 5.00, mug 1.20, as above); tax 3.71 + 0.89 + shipping 10.00 × 8.25 % =
    // 0.825 → 0.83, 5.43 in all; total 61.97 − 6.20 + 10.00 + 5.43 = 71.20.
    expect(total).toBe('71.20');
    const res = await place(basket({ expected_total: total }));
    expect(res.statusCode, res.body).toBe(201);
    expect(json(res).total).toBe('71.20');
  });

  it('answers 409 total_changed with the new figures, and writes nothing, when the total differs', async () => {
    // The customer saw the total before the sale started: tax 49.98 → 4.12335 → 4.12, 11.99 → 0.989175 → 0.99,
    // shipping 0.83; 61.97 + 10.00 + 5.94 = 77.91. With the sale it is 71.20.
    const sale = await weekSale();
    const [ordersBefore, stockBefore] = [await orderCount(), await teeStock()];
    const body = expectProblem(await place(basket({ expected_total: '77.91' })), 409, 'total_changed');
    expect(body.detail).toMatch(/71\.20/);
    expect(body.estimate).toMatchObject({ total: '71.20', discount: '6.20', promotions: [{ id: sale.id }] });
    expect([await orderCount(), await teeStock()]).toEqual([ordersBefore, stockBefore]);
    expect((await promotionRow(sale.id))?.timesUsed).toBe(0);
    expect(await redemptionsOf(sale.id)).toEqual([]);
  });

  it.each(['71.2O', '71.201', '', 71.2])('refuses expected_total %j with 422 naming expected_total', async (bad) => {
    await weekSale();
    const ordersBefore = await orderCount();
    const body = expectProblem(await place(basket({ expected_total: bad })), 422, 'validation_error');
    expect(body.errors.map((e: { field: string }) => e.field)).toEqual(['expected_total']);
    expect(await orderCount()).toBe(ordersBefore);
  });
});

describe('promotions that do not apply', () => {
  it('leaves out an automatic promotion whose minimum is above the order, silently', async () => {
    const big = await promotion({
      name: 'Big baskets',
      conditions: [{ type: 'min_subtotal', amount: '61.98' }],
      action: { type: 'order_percentage', percent: '50' },
    });
    // 61.97 < 61.98: no discount; tax 4.12 + 0.99 + 0.83 = 5.94 (as above), total 77.91.
    const quote = json(await estimate(basket()));
    expect(quote).toMatchObject({ discount: '0.00', discount_name: null, promotions: [], total: '77.91' });
    expect(quote.lines.map((l: { adjustments: unknown }) => l.adjustments)).toEqual([[], []]);
    const placed = json(await place(basket()));
    expect(placed).toMatchObject({ discount: '0.00', promotions: [], total: '77.91' });
    expect(await redemptionsOf(big.id)).toEqual([]);
    expect((await promotionRow(big.id))?.timesUsed).toBe(0);
    // The minimum is inclusive: at 61.97 it applies (50 % of 61.97 = 30.985 → 30.99).
    await api.patch(`${promotionsUrl}${big.id}/`, { conditions: [{ type: 'min_subtotal', amount: '61.97' }] });
    expect(json(await estimate(basket()))).toMatchObject({ discount: '30.99', promotions: [{ id: big.id }] });
  });

  it('refuses a code whose rule fails with 422 promo_code_invalid naming the rule, and places nothing', async () => {
    await promotion({
      name: 'Big code',
      code: 'BIG50',
      conditions: [{ type: 'min_subtotal', amount: '100.00' }],
      action: { type: 'order_percentage', percent: '50' },
    });
    const ordersBefore = await orderCount();
    for (const res of [await estimate(basket({ promocode: 'big50' })), await place(basket({ promocode: 'big50' }))]) {
      const body = expectProblem(res, 422, 'promo_code_invalid');
      expect(body.rule).toBe('min_subtotal');
      expect(body.detail).toBe("promo code BIG50 needs a subtotal of at least 100.00 USD; this order's is 61.97 USD");
    }
    expect(await orderCount()).toBe(ordersBefore);
  });

  it("refuses a guest's second use of a once-each code alike in the estimate and under the code's lock", async () => {
    const once = await promotion({
      name: 'Once per guest',
      code: 'ONCEEACH',
      usage_limit_per_customer: 1,
      action: { type: 'order_fixed', amount: '3.00' },
    });
    const guest = {
      ...basket({ promocode: 'onceeach' }),
      shipping_address: { ...guestAddress, email: 'once@example.com' },
    };
    expect(json(await place(guest, { url: guestCreateUrl })).promotions).toMatchObject([{ id: once.id }]);
    const ordersBefore = await orderCount();
    // The estimate counts the guest's uses itself; a placement leaves the count to its batch, which reads it under
    // the code's row lock (decision 0025): the same 422, rule and detail.
    const [estimated, placed] = [await estimate(guest), await place(guest, { url: guestCreateUrl })];
    const refusals = [estimated, placed].map((res) => expectProblem(res, 422, 'promo_code_invalid'));
    expect(refusals[0]?.rule).toBe('customer_limit');
    expect(refusals[1]).toMatchObject({ rule: refusals[0]?.rule, detail: refusals[0]?.detail });
    expect(await orderCount()).toBe(ordersBefore);
    expect(await redemptionsOf(once.id)).toHaveLength(1);
  });
});

describe('an exclusive automatic promotion against a combinable code', () => {
  it('gives the order the exclusive one alone when it is larger, not redeeming the code, and no error', async () => {
    const exclusive = await promotion({
      name: 'Flat 15',
      combinable: false,
      action: { type: 'order_fixed', amount: '15.00' },
    });
    const code = await promotion({ name: 'Ten', code: 'TEN', action: { type: 'order_percentage', percent: '10' } });
    // TEN alone: 6.20. Flat 15: 15.00 > 6.20, so it alone applies: split 1500 over 4998 : 1199 —
    // 1209.78… and 290.22… → 1209 + 290 = 1499, the cent to the tee (.78 > .22): tee 12.10, mug 2.90.
    // Tax: 37.88 → 3.1251 → 3.13; 9.09 → 0.749925 → 0.75; shipping 0.83. Total 61.97 − 15.00 + 10.00 + 4.71 = 61.68.
    const payload = basket({ promocode: 'TEN' });
    const estimated = await estimate(payload);
    expect(estimated.statusCode, estimated.body).toBe(200);
    const expected = {
      discount: '15.00',
      promotions: [{ id: exclusive.id, name: 'Flat 15', code: null, kind: 'order_fixed', amount: '15.00' }],
      estimated_tax: '4.71',
      total: '61.68',
    };
    expect(json(estimated)).toMatchObject(expected);
    expect(json(estimated).lines.map((l: { discount: string }) => l.discount)).toEqual(['12.10', '2.90']);
    const placedRes = await place(payload, { url: guestCreateUrl });
    expect(placedRes.statusCode, placedRes.body).toBe(201);
    const placed = json(placedRes);
    expect(placed).toMatchObject(expected);
    expect((await api.get(`/order/dashboard/api/orders/${placed.order_alias}/`)).promocode).toBeNull();
    expect((await promotionRow(code.id))?.timesUsed).toBe(0);
    expect(await redemptionsOf(code.id)).toEqual([]);
    expect((await promotionRow(exclusive.id))?.timesUsed).toBe(1);
  });
});

describe.runIf(onPostgres)('two processes on PostgreSQL', () => {
  let other: Awaited<ReturnType<typeof secondProcess>> | undefined;
  beforeAll(async () => {
    other = await secondProcess(t);
  });
  afterAll(async () => {
    await other?.close();
  });

  it('gives a once-per-customer automatic promotion to one order of a customer racing orders on both', async () => {
    const once = await promotion({
      name: 'Once each',
      usage_limit_per_customer: 1,
      action: { type: 'order_fixed', amount: '2.00' },
    });
    const [user, guestEmail] = [await signUp(t.app), uniqueEmail('po-race')];
    const apps = [t.app, other!.app];
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) => {
        const app = apps[i % 2]!;
        // Half the orders are the user's, half a guest's (counted by email), each spread over both processes.
        return i % 4 < 2
          ? place({ variants: [{ alias: 'po-mug' }], shipping_address: guestAddress }, { app, who: user })
          : place(
              { variants: [{ alias: 'po-mug' }], shipping_address: { ...guestAddress, email: guestEmail } },
              { app, url: guestCreateUrl },
            );
      }),
    );
    expect(
      results.map((r) => r.statusCode),
      results.map((r) => r.body).join('\n'),
    ).toEqual(Array(16).fill(201));
    const withIt = results.map(json).filter((b) => b.promotions.some((p: { id: number }) => p.id === once.id));
    expect(withIt).toHaveLength(2);
    // One redemption each, none released: the user's by id, the guest's by email.
    const redemptions = await redemptionsOf(once.id);
    expect(redemptions.map((r) => [r.userId, r.userId === null ? r.email : null, r.releasedAt])).toEqual(
      expect.arrayContaining([
        [user.id, null, null],
        [null, guestEmail, null],
      ]),
    );
    expect(redemptions).toHaveLength(2);
    expect((await promotionRow(once.id))?.timesUsed).toBe(2);
  });
});
