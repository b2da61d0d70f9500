import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, payments } from '../src/db/schema.js';
import { type AdminApi, addressIn, buildAdminTestApp, marketInputs, sendEstimate, sendGuestOrder } from './fixtures.js';
import { bearer, expectProblem, json, onPostgres, type SignedIn, secondProcess, type TestApp } from './helpers.js';

// Every amount carries its currency (issue #28, decision 0037): shipping rates and fixed promotion amounts given per
// currency, every figure computed by hand. A USD store with
// - eu: EUR at 0.92, no rule, no tax (FR has no rate here): the cap (10.00 USD) is 10 × 0.92 = EUR 9.20;
// - jp: JPY at 151.37 rounded to ¥100: the cap 1,513.7 → ¥1,514 → ¥1,500.
// Shipping "Flat" 5.00 USD with an explicit EUR 4.50: in EUR 4.50 (not 4.60 converted), in JPY 756.85 → ¥757.
// "Heavy" (0–10 kg) 5.00 USD + 1.00 a kg, in EUR 4.00 + 0.80 a kg: two caps of 1 kg each, 2 kg above 0:
// USD 7.00, EUR 4.00 + 1.60 = 5.60, JPY ¥757 + ¥151 (151.37) × 2 = ¥1,059.
// The code FIVE: 5.00 USD off the caps, EUR 4.00, no yen.

let t: TestApp;
let admin: SignedIn;
let api: AdminApi;
let flat: number;
let heavy: number;
let flatRate: number;
let capId: number;
const market: Record<string, { id: number }> = {};

const estimate = (payload: object) => sendEstimate(t, payload);
const place = (payload: object) => sendGuestOrder(t, payload);
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

const rates = '/shipping/dashboard/api/shipping-rates/';
const promotionsUrl = '/discount/dashboard/api/promotions/';
const send = (method: 'POST' | 'PATCH', url: string, payload: object) =>
  t.app.inject({ method, url, payload, headers: bearer(admin.access) });

beforeAll(async () => {
  ({ t, admin, api } = await buildAdminTestApp());
  const cap = await api.product({
    name: 'Cap',
    variants: [{ alias: 'ca-cap', name: 'Cap', price: '10.00', weight_grams: '1000', stock: 1000 }],
  });
  capId = cap.id;
  flat = (await api.shippingMethod({ name: 'Flat' })).id;
  flatRate = (
    await api.shippingRate({
      shipping_method_id: flat,
      weight_min_kg: '0',
      base_rate: '5.00',
      prices: [{ currency: 'eur', base_rate: '4.50' }],
    })
  ).id;
  heavy = (await api.shippingMethod({ name: 'Heavy' })).id;
  await api.shippingRate({
    shipping_method_id: heavy,
    weight_min_kg: '0',
    weight_max_kg: '10',
    base_rate: '5.00',
    per_kg_rate: '1.00',
    prices: [{ currency: 'EUR', base_rate: '4.00', per_kg_rate: '0.80' }],
  });
  market.eu = await api.market({ ...marketInputs.eu, countries: ['FR'] });
  market.jp = await api.market(marketInputs.jp);
  await api.promotion({
    name: 'Five off caps',
    code: 'FIVE',
    action: { type: 'order_fixed', amount: '5.00', amounts: { EUR: '4.00' }, products: [capId] },
  });
});
afterAll(() => t.close());

const caps = (country: string, method: number, quantity = 2) => ({
  variants: [{ alias: 'ca-cap', quantity }],
  shipping_address: addressIn(country),
  shipping_method_id: method,
});

describe('shipping rates per currency', () => {
  it('shows a rate’s amounts per currency, upper-cased, at each currency’s precision', async () => {
    const shown = json(
      await t.app.inject({ method: 'GET', url: `${rates}${flatRate}/`, headers: bearer(admin.access) }),
    );
    expect(shown).toMatchObject({
      base_rate: '5.00',
      prices: [{ currency: 'EUR', base_rate: '4.50', per_kg_rate: '0.00' }],
    });
  });

  it.each([
    { country: 'US', method: 'flat', currency: 'USD', fee: '5.00', total: '25.00' },
    { country: 'FR', method: 'flat', currency: 'EUR', fee: '4.50', total: '22.90' },
    { country: 'JP', method: 'flat', currency: 'JPY', fee: '757', total: '3757' },
    { country: 'US', method: 'heavy', currency: 'USD', fee: '7.00', total: '27.00' },
    { country: 'FR', method: 'heavy', currency: 'EUR', fee: '5.60', total: '24.00' },
    { country: 'JP', method: 'heavy', currency: 'JPY', fee: '1059', total: '4059' },
  ])('charges $method to $country $fee $currency: its own rate, else converted', async (c) => {
    const res = await estimate(caps(c.country, c.method === 'flat' ? flat : heavy));
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res)).toMatchObject({ currency: c.currency, shipping_fee: c.fee, total: c.total });
  });

  it('converts again once the rate’s own amounts are removed, at once', async () => {
    const cleared = await send('PATCH', `${rates}${flatRate}/`, { prices: [] });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(json(cleared).prices).toEqual([]);
    try {
      // 5.00 × 0.92 = 4.60.
      expect(json(await estimate(caps('FR', flat))).shipping_fee).toBe('4.60');
    } finally {
      await send('PATCH', `${rates}${flatRate}/`, { prices: [{ currency: 'EUR', base_rate: '4.50' }] });
    }
    expect(json(await estimate(caps('FR', flat))).shipping_fee).toBe('4.50');
  });

  it.each([
    { prices: [{ currency: 'XYZ', base_rate: '1' }], field: 'prices[0].currency' },
    { prices: [{ currency: 'USD', base_rate: '1.00' }], field: 'prices[0].currency' },
    { prices: [{ currency: 'JPY', base_rate: '4.5' }], field: 'prices[0].base_rate' },
    { prices: [{ currency: 'KWD', base_rate: '1.000', per_kg_rate: '0.0005' }], field: 'prices[0].per_kg_rate' },
    { prices: [{ currency: 'EUR', base_rate: '-1.00' }], field: 'prices[0].base_rate' },
    {
      prices: [
        { currency: 'EUR', base_rate: '1.00' },
        { currency: 'eur', base_rate: '2.00' },
      ],
      field: 'prices[1].currency',
    },
  ])('refuses $field of $prices.0.currency with a 422 naming it, and changes nothing', async ({ prices, field }) => {
    for (const res of [
      await send('POST', rates, { shipping_method_id: flat, weight_min_kg: '20', base_rate: '9.00', prices }),
      await send('PATCH', `${rates}${flatRate}/`, { base_rate: '6.00', prices }),
    ]) {
      const body = expectProblem(res, 422, 'validation_error');
      expect(body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
    expect(json(await estimate(caps('FR', flat))).shipping_fee).toBe('4.50');
  });
});

describe('fixed promotion amounts per currency', () => {
  it('applies a code with its EUR amount in EUR; estimate, placement and payment agree', async () => {
    // 2 × 9.20 = 18.40, 4.00 off, shipping 4.50: 18.90.
    const payload = { ...caps('FR', flat), promocode: 'five' };
    const estimated = json(await estimate(payload));
    expect(estimated).toMatchObject({ currency: 'EUR', subtotal: '18.40', discount: '4.00', total: '18.90' });
    const res = await place({ ...payload, expected_total: '18.90' });
    expect(res.statusCode, res.body).toBe(201);
    const placed = json(res);
    expect(placed).toMatchObject({ currency: 'EUR', discount: '4.00', shipping_fee: '4.50', total: '18.90' });
    const [row] = await t.database.db.select().from(orders).where(eq(orders.alias, placed.order_alias));
    expect(row).toMatchObject({ currency: 'EUR', total: 1890, shippingFee: 450 });
    // What the order keeps of the promotion is what it got: 400 cents of EUR.
    expect(row?.promotions[0]?.terms?.action).toMatchObject({ type: 'order_fixed', amount: 400 });
    const started = await t.app.inject({
      method: 'POST',
      url: '/payment/storefront/api/start-payment/sandbox/',
      headers: { 'x-order-token': placed.order_token },
      payload: { order_alias: placed.order_alias },
    });
    expect(started.statusCode, started.body).toBe(200);
    const [payment] = await t.database.db
      .select()
      .from(payments)
      .where(eq(payments.orderId, row?.id ?? 0));
    expect(payment).toMatchObject({ amount: 1890, currency: 'EUR' });
  });

  it('applies the store amount in USD, and refuses the code in JPY where it has none (422 rule currency)', async () => {
    // 20.00 − 5.00 + 5.00.
    expect(json(await estimate({ ...caps('US', flat), promocode: 'FIVE' }))).toMatchObject({
      discount: '5.00',
      total: '20.00',
    });
    const body = expectProblem(await estimate({ ...caps('JP', flat), promocode: 'FIVE' }), 422, 'promo_code_invalid');
    expect(body.rule).toBe('currency');
    expect(body.detail).toBe('promo code FIVE has no amount in JPY');
  });

  it('gives an automatic promotion where every amount has the order’s currency, and skips it elsewhere', async () => {
    // 10 % off the caps over a subtotal of 30.00 USD, EUR 15.00; no yen.
    const created = await api.promotion({
      name: 'Caps 10 % over 30',
      conditions: [{ type: 'min_subtotal', amount: '30.00', amounts: { EUR: '15.00' } }],
      action: { type: 'order_percentage', percent: '10', products: [capId] },
    });
    expect(created.conditions).toEqual([{ type: 'min_subtotal', amount: '30.00', amounts: { EUR: '15.00' } }]);
    try {
      // EUR: 18.40 ≥ 15.00, 1.84 off. USD: 20.00 < 30.00. JPY: no yen amount (3,000 would otherwise qualify).
      expect(json(await estimate(caps('FR', flat)))).toMatchObject({ discount: '1.84', total: '21.06' });
      expect(json(await estimate(caps('US', flat)))).toMatchObject({ discount: '0.00', total: '25.00' });
      expect(json(await estimate(caps('JP', flat)))).toMatchObject({ discount: '0', total: '3757' });
      const patched = await send('PATCH', `${promotionsUrl}${created.id}/`, {
        conditions: [{ type: 'min_subtotal', amount: '30.00', amounts: { EUR: '15.00', JPY: '2000' } }],
      });
      expect(patched.statusCode, patched.body).toBe(200);
      // 10 % of ¥3,000 at once.
      expect(json(await estimate(caps('JP', flat)))).toMatchObject({ discount: '300', total: '3457' });
    } finally {
      await send('PATCH', `${promotionsUrl}${created.id}/`, { is_active: false });
    }
  });

  it.each([
    { amounts: { EUR: '4.001' }, field: 'action.amounts.EUR' },
    { amounts: { JPY: '8.5' }, field: 'action.amounts.JPY' },
    { amounts: { EUR: '0' }, field: 'action.amounts.EUR' },
    { amounts: { XYZ: '1.00' }, field: 'action.amounts.XYZ' },
    { amounts: { usd: '1.00' }, field: 'action.amounts.usd' },
    { amounts: { EUR: '1.00', eur: '2.00' }, field: 'action.amounts.eur' },
  ])('refuses amounts $amounts with a 422 naming $field', async ({ amounts, field }) => {
    const res = await send('POST', promotionsUrl, {
      name: 'Bad',
      action: { type: 'order_fixed', amount: '5.00', amounts, products: null },
    });
    const body = expectProblem(res, 422, 'validation_error');
    expect(body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
  });

  it('shows every money field with its amounts per currency, {} when none', async () => {
    const created = await api.promotion({
      name: 'Ship 2 off',
      is_active: false,
      action: { type: 'shipping_fixed', amount: '2.00', amounts: { kwd: '0.600', JPY: '300' } },
    });
    expect(created.action).toEqual({ type: 'shipping_fixed', amount: '2.00', amounts: { JPY: '300', KWD: '0.600' } });
    const plain = await api.promotion({
      name: 'Plain',
      is_active: false,
      action: { type: 'order_fixed', amount: '1.00' },
    });
    expect(plain.action).toEqual({ type: 'order_fixed', amount: '1.00', amounts: {}, products: null });
  });
});

describe.runIf(onPostgres)('amounts per currency across processes (PostgreSQL)', () => {
  it('another process sees a rate’s new EUR amount once the notification arrives', async () => {
    const other = await secondProcess(t);
    try {
      const fee = async () =>
        json(
          await other.app.inject({ method: 'POST', url: '/order/storefront/api/estimate/', payload: caps('FR', flat) }),
        ).shipping_fee;
      expect(await fee()).toBe('4.50');
      const res = await send('PATCH', `${rates}${flatRate}/`, { prices: [{ currency: 'EUR', base_rate: '3.90' }] });
      expect(res.statusCode, res.body).toBe(200);
      await eventually(async () => expect(await fee()).toBe('3.90'));
    } finally {
      await send('PATCH', `${rates}${flatRate}/`, { prices: [{ currency: 'EUR', base_rate: '4.50' }] });
      await other.close();
    }
  });
});
