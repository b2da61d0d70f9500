import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminApi, addressIn, buildAdminTestApp, marketInputs, sendEstimate, sendGuestOrder } from './fixtures.js';
import { bearer, expectProblem, json, signUp, type TestApp, uniqueEmail } from './helpers.js';

// A cart keeps its market (issue #28 item 3, decision 0031). A USD store with:
// - eu: EUR at 0.92, the T-shirt's explicit price EUR 23.00, DE and FR, no tax;
// - jp: JPY at 151.37, rounded to the nearest ¥100: 25 × 151.37 = 3,784.25 → ¥3,800; JP;
// - gone: GBP at 0.8, deleted during a test.
// The T-shirt is 25.00 USD. Shipping is not asked for: the figures are the lines'.

let t: TestApp;
let api: AdminApi;
let variantId: number;

type Headers = Record<string, string>;
const cartUrl = '/cart/storefront/api/carts/';
const add = (headers: Headers, extra: object = {}) =>
  t.app.inject({
    method: 'POST',
    url: `${cartUrl}add/`,
    headers,
    payload: { product_variant_id: variantId, quantity: 1, ...extra },
  });
const view = (headers: Headers) => t.app.inject({ method: 'GET', url: cartUrl, headers });
const estimate = (payload: object, headers: Headers) => sendEstimate(t, payload, headers);
const place = (payload: object, headers: Headers) => sendGuestOrder(t, payload, headers);
const tee = { variants: [{ alias: 'kept-tee' }] };

/** A new guest cart of one T-shirt, written with these headers; its token. */
async function guestCart(headers: Headers, extra: object = {}): Promise<string> {
  const res = await add(headers, extra);
  expect(res.statusCode, res.body).toBe(200);
  return res.headers['x-cart-token'] as string;
}

beforeAll(async () => {
  ({ t, api } = await buildAdminTestApp());
  const product = await api.product({
    name: 'Kept Tee',
    variants: [{ alias: 'kept-tee', name: 'M', price: '25.00', stock: 1000 }],
  });
  variantId = product.variants[0]?.id ?? 0;
  await api.market({ ...marketInputs.eu, prices_include_tax: false });
  await api.market(marketInputs.jp);
  await api.variantPrices(variantId, [{ currency: 'EUR', price: '23.00' }]);
});
afterAll(() => t.close());

describe('a cart keeps the market a write named', () => {
  it('stays in EUR when read without X-Market after being created with X-Market: eu', async () => {
    const token = await guestCart({ 'x-market': 'eu' });
    const shown = json(await view({ 'x-cart-token': token }));
    expect(shown).toMatchObject({ currency: 'EUR', subtotal: '23.00', items: [{ unit_price: '23.00' }] });
  });

  it('moves to the market of a later write naming another, and keeps it through writes naming none', async () => {
    const token = await guestCart({ 'x-market': 'eu' });
    const moved = await add({ 'x-cart-token': token, 'x-market': 'jp' });
    expect(json(moved)).toMatchObject({ currency: 'JPY', subtotal: '7600' });
    expect(json(await view({ 'x-cart-token': token }))).toMatchObject({ currency: 'JPY', subtotal: '7600' });
    const unnamed = await add({ 'x-cart-token': token });
    expect(json(unnamed)).toMatchObject({ currency: 'JPY', subtotal: '11400', items: [{ quantity: 3 }] });
  });

  it("keeps the body's market when no header is sent, the header winning over the body", async () => {
    const token = await guestCart({}, { market: 'jp' });
    expect(json(await view({ 'x-cart-token': token })).currency).toBe('JPY');
    await add({ 'x-cart-token': token, 'x-market': 'eu' }, { market: 'jp' });
    expect(json(await view({ 'x-cart-token': token })).currency).toBe('EUR');
  });

  it('is shown in the header’s market on a read without moving there: a read writes nothing', async () => {
    const token = await guestCart({ 'x-market': 'eu' });
    expect(json(await view({ 'x-cart-token': token, 'x-market': 'jp' })).currency).toBe('JPY');
    expect(json(await view({ 'x-cart-token': token })).currency).toBe('EUR');
  });

  it('stays in the store currency when no request named a market, as before', async () => {
    const token = await guestCart({});
    expect(json(await view({ 'x-cart-token': token }))).toMatchObject({ currency: 'USD', subtotal: '25.00' });
  });

  it('refuses an unknown market on a write (422) and keeps the market it had', async () => {
    const token = await guestCart({ 'x-market': 'eu' });
    expectProblem(await add({ 'x-cart-token': token, 'x-market': 'mars' }), 422, 'unknown_market');
    const body = expectProblem(await add({ 'x-cart-token': token }, { market: 'other-store' }), 422, 'unknown_market');
    expect(body.errors.map((e: { field: string }) => e.field)).toEqual(['market']);
    expect(json(await view({ 'x-cart-token': token }))).toMatchObject({ currency: 'EUR', items: [{ quantity: 1 }] });
  });

  it("keeps a guest's first look's market when that look creates the cart", async () => {
    const first = await view({ 'x-market': 'jp' });
    const token = first.headers['x-cart-token'] as string;
    expect(json(first).currency).toBe('JPY');
    expect(json(await add({ 'x-cart-token': token })).currency).toBe('JPY');
  });
});

describe('a checkout without a market named is priced in the cart’s market', () => {
  it('estimates and places a guest’s order in the kept EUR, without a header or a payload market', async () => {
    const token = await guestCart({ 'x-market': 'eu' });
    const estimated = await estimate(tee, { 'x-cart-token': token });
    expect(estimated.statusCode, estimated.body).toBe(200);
    expect(json(estimated)).toMatchObject({ currency: 'EUR', total: '23.00', market: { code: 'eu' } });
    const payload = { ...tee, shipping_address: addressIn('FR'), expected_total: '23.00' };
    const placed = await place(payload, { 'x-cart-token': token });
    expect(placed.statusCode, placed.body).toBe(201);
    expect(json(placed)).toMatchObject({ currency: 'EUR', total: '23.00', market: { code: 'eu' } });
    expect(json(placed).market_changed).not.toBe(true);
  });

  it('re-prices in the shipping country’s market and says so, as for a requested market', async () => {
    const token = await guestCart({ 'x-market': 'eu' });
    const res = await estimate({ ...tee, shipping_address: addressIn('US') }, { 'x-cart-token': token });
    expect(json(res)).toMatchObject({ currency: 'USD', total: '25.00', market_changed: true });
  });

  it('lets the header or the payload choose over the kept market', async () => {
    const token = await guestCart({ 'x-market': 'eu' });
    expect(json(await estimate(tee, { 'x-cart-token': token, 'x-market': 'jp' })).currency).toBe('JPY');
    expect(json(await estimate({ ...tee, market: 'jp' }, { 'x-cart-token': token })).currency).toBe('JPY');
  });

  it('still refuses tampering: a currency the kept market does not sell in, a market of another store', async () => {
    const token = await guestCart({ 'x-market': 'eu' });
    const headers = { 'x-cart-token': token };
    const tampered = { ...tee, currency: 'USD' };
    expectProblem(await estimate(tampered, headers), 422, 'currency_mismatch');
    expectProblem(await place({ ...tampered, shipping_address: addressIn('DE') }, headers), 422, 'currency_mismatch');
    expectProblem(await estimate({ ...tee, market: 'other-store-eu' }, headers), 422, 'unknown_market');
    expectProblem(await estimate(tee, { ...headers, 'x-market': 'EU2' }), 422, 'unknown_market');
  });

  it("prices a signed-in customer's estimate in their cart's market", async () => {
    const user = await signUp(t.app, uniqueEmail('kept'));
    expect((await add({ ...bearer(user.access), 'x-market': 'jp' })).statusCode).toBe(200);
    expect(json(await view(bearer(user.access))).currency).toBe('JPY');
    expect(json(await estimate(tee, bearer(user.access)))).toMatchObject({ currency: 'JPY', total: '3800' });
  });
});

describe('the market of a merged cart and of a deleted market', () => {
  it("takes the guest cart's market at sign-in, and keeps the customer's when the guest's kept none", async () => {
    const user = await signUp(t.app, uniqueEmail('merge'), 'password123');
    await add({ ...bearer(user.access), 'x-market': 'eu' });
    const signIn = async (token: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/user/storefront/api/login/',
        headers: { 'x-cart-token': token },
        payload: { email: user.email, password: 'password123' },
      });
      expect(res.statusCode, res.body).toBe(200);
      return bearer(json(res).access);
    };
    const afterUnnamed = await signIn(await guestCart({}));
    expect(json(await view(afterUnnamed)).currency).toBe('EUR');
    const afterJp = await signIn(await guestCart({ 'x-market': 'jp' }));
    expect(json(await view(afterJp))).toMatchObject({ currency: 'JPY', items: [{ quantity: 3 }] });
  });

  it('falls back to the default market when the kept market was deleted, never a 500', async () => {
    const gone = await api.market({
      code: 'gone',
      name: 'Gone',
      currency: 'GBP',
      prices_include_tax: true,
      exchange_rate: '0.8',
      countries: ['GB'],
    });
    const token = await guestCart({ 'x-market': 'gone' });
    expect(json(await view({ 'x-cart-token': token }))).toMatchObject({ currency: 'GBP', subtotal: '20.00' });
    await api.delete(`/market/dashboard/api/markets/${gone.id}/`);
    const shown = await view({ 'x-cart-token': token });
    expect(shown.statusCode, shown.body).toBe(200);
    expect(json(shown)).toMatchObject({ currency: 'USD', subtotal: '25.00' });
    expect(json(await add({ 'x-cart-token': token })).currency).toBe('USD');
    expect(json(await estimate(tee, { 'x-cart-token': token })).currency).toBe('USD');
  });
});
