import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, payments } from '../src/db/schema.js';
import { type AdminApi, addressIn, buildAdminTestApp, marketInputs, sendEstimate, sendGuestOrder } from './fixtures.js';
import { bearer, expectProblem, json, type SignedIn, type TestApp } from './helpers.js';

// One USD store with three more markets (issue #28 item 7, decision 0031), every figure computed by hand:
// - the T-shirt is 25.00 USD (compare-at 30.00), the mug 8.00 USD;
// - eu: EUR at 0.92, prices including tax, the T-shirt's explicit price EUR 23.00 (compare-at 27.00), DE and FR;
// - jp: JPY at 151.37, rounded to the nearest ¥100: 25 × 151.37 = 3,784.25 → ¥3,784 → ¥3,800; 30 USD → ¥4,500;
//   the mug 8 × 151.37 = 1,210.96 → ¥1,211 → ¥1,200;
// - kw: KWD at 0.3075, three decimals, no rule: 25 × 0.3075 = 7.6875 → KD 7.688; 30 USD → KD 9.225.
// Shipping ("Flat") is 5.00 USD anywhere: ¥757 (756.85), KD 1.538 (1.5375, half up), EUR 4.60.
// Tax: 19 % in DE on the Standard class (the T-shirt's), nothing elsewhere.

let t: TestApp;
let admin: SignedIn;
let api: AdminApi;
let teeProductId: number;
let flat: number;
let express: number;
const market: Record<string, { id: number }> = {};

type Headers = Record<string, string>;
const estimate = (payload: object, headers?: Headers) => sendEstimate(t, payload, headers);
const place = (payload: object, headers?: Headers) => sendGuestOrder(t, payload, headers);
const productPage = (headers: Headers = {}) =>
  t.app.inject({ method: 'GET', url: `/product/storefront/api/products/${teeProductId}/`, headers });

beforeAll(async () => {
  ({ t, admin, api } = await buildAdminTestApp());
  const standard = await api.taxClass({ name: 'Standard' });
  await api.taxRate({ tax_class_id: standard.id, country: 'DE', rate: '19' });
  const tee = await api.product({
    name: 'Tee',
    tax_class_id: standard.id,
    variants: [{ alias: 'mc-tee', name: 'M', price: '25.00', compare_at_price: '30.00', stock: 1000 }],
  });
  teeProductId = tee.id;
  await api.product({ name: 'Mug', variants: [{ alias: 'mc-mug', name: 'Mug', price: '8.00', stock: 1000 }] });
  flat = (await api.shippingMethod({ name: 'Flat' })).id;
  await api.shippingRate({ shipping_method_id: flat, weight_min_kg: '0', base_rate: '5.00' });
  express = (await api.shippingMethod({ name: 'Express' })).id;
  await api.shippingRate({ shipping_method_id: express, weight_min_kg: '0', base_rate: '20.00' });
  market.eu = await api.market({ ...marketInputs.eu, prices_include_tax: true });
  market.jp = await api.market({ ...marketInputs.jp, shipping_method_ids: [flat], payment_plugins: ['sandbox'] });
  market.kw = await api.market({
    code: 'kw',
    name: 'Kuwait',
    currency: 'KWD',
    exchange_rate: '0.3075',
    countries: ['KW'],
  });
  await api.variantPrices(tee.variants[0]?.id ?? 0, [{ currency: 'EUR', price: '23.00', compare_at_price: '27.00' }]);
});
afterAll(() => t.close());

describe('the catalog in the request’s market', () => {
  it('shows the store currency without X-Market, as before', async () => {
    const shown = json(await productPage());
    expect(shown.currency).toBe('USD');
    expect(shown.variants[0]).toMatchObject({ price: '25.00', compare_at_price: '30.00' });
  });

  it.each([
    { code: 'eu', currency: 'EUR', price: '23.00', compareAt: '27.00' },
    { code: 'jp', currency: 'JPY', price: '3800', compareAt: '4500' },
    { code: 'KW', currency: 'KWD', price: '7.688', compareAt: '9.225' },
  ])('in $code: $currency, explicit or converted and rounded', async ({ code, currency, price, compareAt }) => {
    const res = await productPage({ 'x-market': code });
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res).currency).toBe(currency);
    expect(json(res).variants[0]).toMatchObject({ price, compare_at_price: compareAt });
    const list = json(
      await t.app.inject({ method: 'GET', url: '/product/storefront/api/products/', headers: { 'x-market': code } }),
    );
    const listed = list.items.find((p: { id: number }) => p.id === teeProductId);
    expect(listed.currency).toBe(currency);
    expect(listed.variants[0]).toMatchObject({ price, compare_at_price: compareAt });
  });

  it('keeps its page cache right across markets and across a change of rate', async () => {
    expect(json(await productPage({ 'x-market': 'jp' })).variants[0].price).toBe('3800');
    expect(json(await productPage()).variants[0].price).toBe('25.00');
    await api.patch(`/market/dashboard/api/markets/${market.jp?.id}/`, { exchange_rate: '140' });
    try {
      // 25 × 140 = ¥3,500, already a multiple of 100.
      expect(json(await productPage({ 'x-market': 'jp' })).variants[0].price).toBe('3500');
    } finally {
      await api.patch(`/market/dashboard/api/markets/${market.jp?.id}/`, { exchange_rate: '151.37' });
    }
    expect(json(await productPage({ 'x-market': 'jp' })).variants[0].price).toBe('3800');
  });

  it('prices the product by handle and the category and collection pages in the market too', async () => {
    const category = await api.post('/product/dashboard/api/categories/', { name: 'Market Shirts' });
    await api.patch(`/product/dashboard/api/products/${teeProductId}/`, { category_ids: [category.id] });
    const collection = await api.post('/product/dashboard/api/collections/', {
      name: 'Market Picks',
      product_ids: [teeProductId],
    });
    const get = (url: string, headers: Headers) => t.app.inject({ method: 'GET', url, headers });
    const base = '/product/storefront/api';
    for (const [headers, currency, price] of [
      [{}, 'USD', '25.00'],
      [{ 'x-market': 'jp' }, 'JPY', '3800'],
      [{ 'x-market': 'eu' }, 'EUR', '23.00'],
    ] as const) {
      const byHandle = json(await get(`${base}/products/by-handle/tee/`, headers));
      expect(byHandle).toMatchObject({ id: teeProductId, currency });
      expect(byHandle.variants[0].price).toBe(price);
      for (const page of [`${base}/categories/${category.handle}/`, `${base}/collections/${collection.handle}/`]) {
        const [item] = json(await get(page, headers)).products.items;
        expect(item).toMatchObject({ id: teeProductId, currency });
        expect(item.variants[0].price).toBe(price);
      }
    }
    for (const url of [`${base}/products/by-handle/tee/`, `${base}/categories/${category.handle}/`]) {
      expectProblem(await get(url, { 'x-market': 'mars' }), 422, 'unknown_market');
    }
  });

  it('refuses an unknown or malformed market code with a 422 naming the header', async () => {
    for (const code of ['mars', '../eu', 'x'.repeat(300)]) {
      const res = await productPage({ 'x-market': code });
      const body = expectProblem(res, 422, 'unknown_market');
      expect(body.errors).toEqual([{ field: 'headers.x-market', message: 'names no market of this store' }]);
    }
  });
});

describe('the cart in the request’s market', () => {
  it('prices its lines in the market’s currency, and refuses an unknown market before changing anything', async () => {
    const variantId = (await productVariantId()) ?? 0;
    const add = (headers: Headers) =>
      t.app.inject({
        method: 'POST',
        url: '/cart/storefront/api/carts/add/',
        headers,
        payload: { product_variant_id: variantId, quantity: 2 },
      });
    const first = await add({});
    expect(first.statusCode, first.body).toBe(200);
    const token = first.headers['x-cart-token'] as string;
    const view = async (code: string) =>
      json(
        await t.app.inject({
          method: 'GET',
          url: '/cart/storefront/api/carts/',
          headers: { 'x-cart-token': token, 'x-market': code },
        }),
      );
    expect(await view('jp')).toMatchObject({ currency: 'JPY', subtotal: '7600', items: [{ unit_price: '3800' }] });
    expect(await view('eu')).toMatchObject({ currency: 'EUR', subtotal: '46.00', items: [{ unit_price: '23.00' }] });
    expectProblem(await add({ 'x-cart-token': token, 'x-market': 'mars' }), 422, 'unknown_market');
    expect(await view('kw')).toMatchObject({ currency: 'KWD', subtotal: '15.376', items: [{ quantity: 2 }] });
  });
});

async function productVariantId(): Promise<number | undefined> {
  return json(await productPage()).variants[0]?.id;
}

describe('estimate and placement in the market’s currency', () => {
  it('prices JPY by conversion and rounding, shipping converted, and says the market and rate it used', async () => {
    const res = await estimate(
      {
        variants: [{ alias: 'mc-tee', quantity: 2 }, { alias: 'mc-mug' }],
        shipping_address: addressIn('JP'),
        shipping_method_id: flat,
      },
      { 'x-market': 'jp' },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res)).toMatchObject({
      market: { code: 'jp', currency: 'JPY', prices_include_tax: false, exchange_rate: '151.37' },
      currency: 'JPY',
      subtotal: '8800',
      shipping_fee: '757',
      estimated_tax: '0',
      total: '9557',
      lines: [
        { alias: 'mc-tee', unit_price: '3800', subtotal: '7600' },
        { alias: 'mc-mug', unit_price: '1200', subtotal: '1200' },
      ],
    });
    expect(json(res).market_changed).toBeUndefined();
  });

  it('prices EUR with its explicit price, tax included, from the shipping country alone', async () => {
    const res = await estimate({ variants: [{ alias: 'mc-tee' }], shipping_address: addressIn('DE') });
    expect(res.statusCode, res.body).toBe(200);
    // 23.00 gross at 19 %: tax 23.00 × 19 / 119 = 3.672… → 3.67; without tax 19.33.
    expect(json(res)).toMatchObject({
      market: { code: 'eu', currency: 'EUR', prices_include_tax: true, exchange_rate: '0.92' },
      market_changed: true,
      currency: 'EUR',
      subtotal: '23.00',
      estimated_tax: '3.67',
      total_without_tax: '19.33',
      total: '23.00',
    });
  });

  it('prices KWD with three decimals', async () => {
    const res = await estimate(
      { variants: [{ alias: 'mc-tee' }], shipping_address: addressIn('KW'), shipping_method_id: flat },
      { 'x-market': 'kw' },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res)).toMatchObject({ currency: 'KWD', subtotal: '7.688', shipping_fee: '1.538', total: '9.226' });
  });

  it('re-prices in the shipping country’s market when the request asked for another, and says so', async () => {
    const res = await estimate(
      { variants: [{ alias: 'mc-tee' }], shipping_address: addressIn('DE'), market: 'jp' },
      { 'x-market': 'jp' },
    );
    expect(json(res)).toMatchObject({ market: { code: 'eu' }, market_changed: true, currency: 'EUR', total: '23.00' });
    // A country no market lists is the default market's.
    const us = json(
      await estimate({ variants: [{ alias: 'mc-tee' }], shipping_address: addressIn('US') }, { 'x-market': 'jp' }),
    );
    expect(us).toMatchObject({ market: { code: 'default', currency: 'USD' }, market_changed: true, total: '25.00' });
  });

  it('keeps the default market’s answer as it was: no market fields, the store currency', async () => {
    const body = json(await estimate({ variants: [{ alias: 'mc-tee' }], shipping_address: addressIn('US') }));
    expect(body.currency).toBe('USD');
    expect(body.total).toBe('25.00');
    expect('market' in body).toBe(false);
    expect('market_changed' in body).toBe(false);
  });

  it('places a JPY order for the estimate’s total, keeps market, rate and total in USD; pays in JPY', async () => {
    const payload = {
      variants: [{ alias: 'mc-tee', quantity: 2 }, { alias: 'mc-mug' }],
      shipping_address: addressIn('JP'),
      shipping_method_id: flat,
      currency: 'JPY',
      expected_total: '9557',
    };
    const estimated = json(await estimate(payload, { 'x-market': 'jp' }));
    const res = await place(payload, { 'x-market': 'jp' });
    expect(res.statusCode, res.body).toBe(201);
    const placed = json(res);
    expect(placed).toMatchObject({ currency: 'JPY', total: '9557', market: { code: 'jp', exchange_rate: '151.37' } });
    expect(placed.total).toBe(estimated.total);
    const [row] = await t.database.db.select().from(orders).where(eq(orders.alias, placed.order_alias));
    // 9,557 yen at 151.37 yen a dollar: 63.1366… USD → 63.14.
    expect(row).toMatchObject({
      currency: 'JPY',
      pricesIncludeTax: false,
      total: 9557,
      marketId: market.jp?.id,
      exchangeRate: '151.3700000000',
      totalInStoreCurrency: 6314,
    });
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
    expect(payment).toMatchObject({ amount: 9557, currency: 'JPY' });
    // The admin's order: its market, the rate locked at placement and the total in USD beside the yen.
    const adminOrder = await api.get(`/order/dashboard/api/orders/${placed.order_alias}/`);
    expect(adminOrder).toMatchObject({ currency: 'JPY', total: '9557' });
    expect(adminOrder.market).toEqual({
      id: market.jp?.id,
      code: 'jp',
      name: 'Japan',
      currency: 'JPY',
      exchange_rate: '151.37',
      store_currency: 'USD',
      total_in_store_currency: '63.14',
    });
  });

  it('shows no market on an admin’s order of the default market', async () => {
    const placed = json(await place({ variants: [{ alias: 'mc-mug' }], shipping_address: addressIn('US') }));
    const adminOrder = await api.get(`/order/dashboard/api/orders/${placed.order_alias}/`);
    expect(adminOrder).toMatchObject({ currency: 'USD', total: '8.00', market: null });
  });

  it('places a tax-inclusive EUR order with the explicit price', async () => {
    const res = await place({
      variants: [{ alias: 'mc-tee' }],
      shipping_address: addressIn('FR'),
      expected_total: '23.00',
    });
    expect(res.statusCode, res.body).toBe(201);
    const [row] = await t.database.db
      .select()
      .from(orders)
      .where(eq(orders.alias, json(res).order_alias));
    // 23.00 EUR at 0.92: 25.00 USD.
    expect(row).toMatchObject({ currency: 'EUR', pricesIncludeTax: true, total: 2300, totalInStoreCurrency: 2500 });
  });

  it('answers 409 total_changed with the new figures when the rate changed since the estimate', async () => {
    const payload = {
      variants: [{ alias: 'mc-tee', quantity: 2 }],
      shipping_address: addressIn('JP'),
      shipping_method_id: flat,
      expected_total: '8357',
    };
    expect(json(await estimate(payload)).total).toBe('8357');
    await api.patch(`/market/dashboard/api/markets/${market.jp?.id}/`, { exchange_rate: '140' });
    try {
      // 25 × 140 = ¥3,500 each, shipping 5 × 140 = ¥700: ¥7,700.
      const body = expectProblem(await place(payload), 409, 'total_changed');
      expect(body.estimate).toMatchObject({ currency: 'JPY', total: '7700', market: { exchange_rate: '140' } });
    } finally {
      await api.patch(`/market/dashboard/api/markets/${market.jp?.id}/`, { exchange_rate: '151.37' });
    }
  });

  it('refuses a shipping method or a payment plugin the market does not offer (422)', async () => {
    const body = expectProblem(
      await estimate({
        variants: [{ alias: 'mc-tee' }],
        shipping_address: addressIn('JP'),
        shipping_method_id: express,
      }),
      422,
      'not_offered_in_market',
    );
    expect(body.errors).toEqual([{ field: 'shipping_method_id', message: 'is not offered in market "jp"' }]);
    const placed = json(await place({ variants: [{ alias: 'mc-tee' }], shipping_address: addressIn('JP') }));
    const refused = await t.app.inject({
      method: 'POST',
      url: '/payment/storefront/api/start-payment/cash_on_delivery/',
      headers: { 'x-order-token': placed.order_token },
      payload: { order_alias: placed.order_alias },
    });
    expectProblem(refused, 422, 'not_offered_in_market');
  });

  it('keeps a market that has orders (409 market_has_orders)', async () => {
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/market/dashboard/api/markets/${market.jp?.id}/`,
      headers: bearer(admin.access),
    });
    expectProblem(res, 409, 'market_has_orders');
  });
});

describe('promotions in another currency', () => {
  it('apply a percentage everywhere, a fixed amount only in the store currency, else a code is 422', async () => {
    const cap = await api.product({
      name: 'Cap',
      variants: [{ alias: 'mc-cap', name: 'Cap', price: '10.00', stock: 100 }],
    });
    await api.promotion({ name: 'Caps 10 %', action: { type: 'order_percentage', percent: '10', products: [cap.id] } });
    await api.promotion({ name: 'Caps 2 off', action: { type: 'order_fixed', amount: '2.00', products: [cap.id] } });
    await api.promotion({
      name: 'Code 2 off',
      code: 'CAPTWO',
      action: { type: 'order_fixed', amount: '2.00', products: [cap.id] },
    });
    const order = { variants: [{ alias: 'mc-cap' }], shipping_address: addressIn('JP') };
    // 10 × 151.37 = 1,513.7 → ¥1,514 → ¥1,500; 10 % off: ¥150.
    const jpy = json(await estimate(order));
    expect(jpy).toMatchObject({ currency: 'JPY', subtotal: '1500', discount: '150', total: '1350' });
    expect(jpy.promotions.map((p: { kind: string }) => p.kind)).toEqual(['order_percentage']);
    const usd = json(await estimate({ ...order, shipping_address: addressIn('US') }));
    expect(usd.promotions.map((p: { kind: string }) => p.kind).sort()).toEqual(['order_fixed', 'order_percentage']);
    const body = expectProblem(await estimate({ ...order, promocode: 'captwo' }), 422, 'promo_code_invalid');
    expect(body.rule).toBe('currency');
    expect(json(await estimate({ ...order, shipping_address: addressIn('US'), promocode: 'captwo' })).currency).toBe(
      'USD',
    );
  });
});

describe('tampering is refused, never charged (GHSA-wm63-7627-ch33)', () => {
  const tee = { variants: [{ alias: 'mc-tee' }] };

  const cases: { name: string; fields: object; headers: Headers; code: string; field: string }[] = [
    {
      name: 'a currency the market does not sell in',
      fields: { currency: 'USD' },
      headers: { 'x-market': 'jp' },
      code: 'currency_mismatch',
      field: 'currency',
    },
    {
      name: 'a currency the store does not have',
      fields: { currency: 'XYZ' },
      headers: {},
      code: 'currency_mismatch',
      field: 'currency',
    },
    {
      name: 'a currency that is not a code',
      fields: { currency: '¥' },
      headers: { 'x-market': 'jp' },
      code: 'currency_mismatch',
      field: 'currency',
    },
    {
      name: 'a market code of no market of this store',
      fields: { market: 'other-store-eu' },
      headers: {},
      code: 'unknown_market',
      field: 'market',
    },
    {
      name: 'a market header of no market of this store',
      fields: {},
      headers: { 'x-market': 'EU2' },
      code: 'unknown_market',
      field: 'headers.x-market',
    },
  ];

  it.each(cases)('$name: 422, nothing placed', async ({ fields, headers, code, field }) => {
    const payload = { ...tee, shipping_address: addressIn('JP', `tamper-${code}@example.com`), ...fields };
    const before = (await t.database.db.select({ id: orders.id }).from(orders)).length;
    for (const res of [await estimate(payload, headers), await place(payload, headers)]) {
      const body = expectProblem(res, 422, code);
      expect(body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
    expect((await t.database.db.select({ id: orders.id }).from(orders)).length).toBe(before);
  });

  it('a total with more decimals than the market’s currency has: 422, nothing placed', async () => {
    const payload = { ...tee, shipping_address: addressIn('JP'), expected_total: '3800.50' };
    const body = expectProblem(await place(payload, { 'x-market': 'jp' }), 422, 'validation_error');
    expect(body.errors.map((e: { field: string }) => e.field)).toEqual(['expected_total']);
  });

  it('an unknown market in the header is refused even when the address names a market', async () => {
    const res = await place({ ...tee, shipping_address: addressIn('DE') }, { 'x-market': 'gb' });
    expectProblem(res, 422, 'unknown_market');
  });
});

describe('order edits in the order’s market', () => {
  const editOf = (alias: string, body: object, preview = false) =>
    t.app.inject({
      method: 'POST',
      url: `/order/dashboard/api/orders/${alias}/edits/${preview ? 'preview/' : ''}`,
      headers: bearer(admin.access),
      payload: body,
    });
  const rateOf = (code: 'jp' | 'eu', exchange_rate: string) =>
    api.patch(`/market/dashboard/api/markets/${market[code]?.id}/`, { exchange_rate });

  it('adds a mug to a yen order at the rate the order locked, not today’s, rounded by the market’s rule', async () => {
    // A T-shirt (¥3,800) and Flat shipping (¥757): ¥4,557 at 151.37.
    const placed = json(
      await place({ variants: [{ alias: 'mc-tee' }], shipping_address: addressIn('JP'), shipping_method_id: flat }),
    );
    expect(placed.total).toBe('4557');
    await rateOf('jp', '140');
    try {
      // The mug at the order's 151.37: 8 × 151.37 = 1,210.96 → ¥1,211 → ¥1,200 (nearest 100). Today's 140 would give
      // 8 × 140 = ¥1,120 → ¥1,100. ¥4,557 + ¥1,200 = ¥5,757.
      const change = { lines: [{ alias: 'mc-mug', quantity: 1 }] };
      const previewed = json(await editOf(placed.order_alias, change, true));
      expect(previewed).toMatchObject({ currency: 'JPY', total_after: '5757' });
      const res = await editOf(placed.order_alias, { ...change, expected_total: '5757' });
      expect(res.statusCode, res.body).toBe(201);
      expect(json(res)).toMatchObject({
        currency: 'JPY',
        total_before: '4557',
        total_after: '5757',
        difference: '1200',
        lines: [{ alias: 'mc-mug', unit_price: '1200', before: 0, after: 1 }],
        order: { currency: 'JPY', total: '5757', market: { code: 'jp', exchange_rate: '151.37' } },
      });
    } finally {
      await rateOf('jp', '151.37');
    }
  });

  it('adds to a euro order a variant’s explicit EUR price, or its price at the order’s locked rate', async () => {
    // A mug in France: no EUR price, 8.00 × 0.92 = EUR 7.36, tax included (France has no rate here): 7.36.
    const placed = json(await place({ variants: [{ alias: 'mc-mug' }], shipping_address: addressIn('FR') }));
    expect(placed).toMatchObject({ currency: 'EUR', total: '7.36' });
    await rateOf('eu', '1');
    try {
      // A T-shirt at its explicit EUR 23.00 (the rate does not touch it) and a second mug at the order's 0.92, EUR 7.36
      // (today's rate 1 would make it 8.00): 23.00 + 2 × 7.36 = 37.72.
      const res = await editOf(placed.order_alias, {
        lines: [
          { alias: 'mc-tee', quantity: 1 },
          { alias: 'mc-mug', quantity: 2 },
        ],
        expected_total: '37.72',
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(json(res)).toMatchObject({ currency: 'EUR', total_before: '7.36', total_after: '37.72' });
      const lines = json(res).order.lines.map((l: { alias: string; unit_price: string; quantity: number }) => [
        l.alias,
        l.unit_price,
        l.quantity,
      ]);
      expect(lines).toEqual(
        expect.arrayContaining([
          ['mc-mug', '7.36', 2],
          ['mc-tee', '23.00', 1],
        ]),
      );
    } finally {
      await rateOf('eu', '0.92');
    }
  });
});
