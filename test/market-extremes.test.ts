import { count } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markets, orders } from '../src/db/schema.js';
import { type AdminApi, buildAdminTestApp } from './fixtures.js';
import { bearer, expectProblem, json, type SignedIn, type TestApp } from './helpers.js';

// Rates and prices at the edges of what the service holds exactly (Number.MAX_SAFE_INTEGER minor units, about
// 9.007 × 10^15; issue #28). A USD store whose largest price is 10.00 at first. At a rate of 10^12 yen per dollar
// the pen is 1,000 cents × 10^12 / 100 = ¥10^13, which fits; a price of 1,000,000.00 USD would be ¥10^18, which does
// not.
// Every such case is a 422 problem naming what is too large — at the admin's write when the store's prices show it,
// else at the estimate and placement — and never a 500.

let t: TestApp;
let jpId: number;
let admin: SignedIn;
let api: AdminApi;
const base = '/market/dashboard/api/markets/';
const send = (method: 'POST' | 'PATCH', url: string, payload: object) =>
  t.app.inject({ method, url, payload, headers: bearer(admin.access) });
const marketCount = async () => (await t.database.db.select({ n: count() }).from(markets))[0]?.n;
const orderCount = async () => (await t.database.db.select({ n: count() }).from(orders))[0]?.n;
const rateField = (res: LightMyRequestResponse) => {
  const body = expectProblem(res, 422, 'validation_error');
  expect(body.errors[0].field).toBe('exchange_rate');
  return body.errors[0].message as string;
};
const jpOrder = (alias: string, quantity = 1) => ({
  variants: [{ alias, quantity }],
  shipping_address: { first_name: 'Kei', last_name: 'K', country: 'JP', email: 'kei@example.com' },
});

beforeAll(async () => {
  ({ t, admin, api } = await buildAdminTestApp());
  await api.product({ name: 'Pen', variants: [{ alias: 'x-pen', name: 'Pen', price: '10.00', stock: 1000 }] });
  // Fits while the largest price is 10.00: ¥10^13.
  const jp = await api.post(base, {
    code: 'jp',
    name: 'Japan',
    currency: 'JPY',
    exchange_rate: '1000000000000',
    countries: ['JP'],
  });
  jpId = jp.id;
});
afterAll(() => t.close());

describe('rates an admin writes', () => {
  it.each([
    ['above the largest the column holds', '100000000000000'],
    ['in exponent notation', '1e12'],
    ['with 11 decimals', '0.00000000001'],
    ['zero', '0'],
    ['negative', '-151.37'],
    ['a float that is not a decimal string', 'Infinity'],
  ])('refuses a rate %s (422 naming exchange_rate, nothing written)', async (_, rate) => {
    const before = await marketCount();
    const res = await send('POST', base, { code: 'xx', name: 'X', currency: 'JPY', exchange_rate: rate });
    rateField(res);
    expect(await marketCount()).toBe(before);
  });

  it('refuses a rate at which the store’s largest price would not fit, on creation and on change', async () => {
    // A price jp at 10^12 cannot convert is accepted (the estimate refuses it, below); a market refuses it.
    await api.product({
      name: 'Yacht',
      variants: [{ alias: 'x-yacht', name: 'Yacht', price: '90000000.00', compare_at_price: '95000000.00', stock: 1 }],
    });
    {
      const before = await marketCount();
      // 9,500,000,000 cents × 10^8 / 100 = ¥9.5 × 10^15: more than 2^53 − 1.
      const message = rateField(
        await send('POST', base, { code: 'big', name: 'Big', currency: 'JPY', exchange_rate: '100000000' }),
      );
      expect(message).toContain("the store's largest price, 95000000.00 USD");
      expect(await marketCount()).toBe(before);
      // ¥9.5 × 10^14 at 10^7 fits.
      const big = await api.post(base, { code: 'big', name: 'Big', currency: 'JPY', exchange_rate: '10000000' });
      rateField(await send('PATCH', `${base}${big.id}/`, { exchange_rate: '100000000' }));
      expect((await api.get(`${base}${big.id}/`)).exchange_rate).toBe('10000000');
      // Rounded up to a step of ¥10^15, ¥9.5 × 10^14 becomes ¥10^15: fits, the rule is checked with the rate.
      await api.patch(`${base}${big.id}/`, { rounding_step: '1000000000000000', rounding_direction: 'up' });
      await api.delete(`${base}${big.id}/`);
    }
  });
});

describe('prices that overflow after the rate was accepted', () => {
  beforeAll(async () => {
    // Added after jp's rate: 10^8 cents at 10^12 would be ¥10^18.
    await api.product({ name: 'Island', variants: [{ alias: 'x-island', name: 'I', price: '1000000.00', stock: 5 }] });
  });

  it('prices the pen exactly at ¥10,000,000,000,000', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/order/storefront/api/estimate/',
      payload: jpOrder('x-pen'),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res)).toMatchObject({ currency: 'JPY', total: '10000000000000' });
  });

  it('answers the estimate and the placement of the island with 422 amount_too_large naming the market', async () => {
    const before = await orderCount();
    for (const url of ['/order/storefront/api/estimate/', '/order/storefront/api/guest-user-order-create/']) {
      const body = expectProblem(
        await t.app.inject({ method: 'POST', url, payload: jpOrder('x-island') }),
        422,
        'amount_too_large',
      );
      expect(body.detail).toContain('market "jp"');
      expect(body).toMatchObject({ market: 'jp', currency: 'JPY', exchange_rate: '1000000000000' });
    }
    expect(await orderCount()).toBe(before);
  });

  it('answers the catalog in that market with a problem, never a 500', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/product/storefront/api/products/',
      headers: { 'x-market': 'jp' },
    });
    expectProblem(res, 422, 'amount_too_large');
    expect((await t.app.inject({ method: 'GET', url: '/product/storefront/api/products/' })).statusCode).toBe(200);
  });

  it('refuses at the estimate, as the placement would, a total too large back in the store currency', async () => {
    // At 10^-10 yen per dollar the pen is worth nothing: it gets the smallest price of the rule, ¥100 with a step of
    // 100. 100 pens are ¥10,000, which back in dollars is 10^4 × 10^12 cents: beyond 2^53 − 1.
    await api.patch(`${base}${jpId}/`, { exchange_rate: '0.0000000001', rounding_step: '100' });
    const one = await t.app.inject({
      method: 'POST',
      url: '/order/storefront/api/estimate/',
      payload: jpOrder('x-pen'),
    });
    expect(json(one)).toMatchObject({ total: '100' });
    const before = await orderCount();
    for (const url of ['/order/storefront/api/estimate/', '/order/storefront/api/guest-user-order-create/']) {
      const res = await t.app.inject({ method: 'POST', url, payload: jpOrder('x-pen', 100) });
      expect(expectProblem(res, 422, 'amount_too_large').market).toBe('jp');
    }
    expect(await orderCount()).toBe(before);
  });
});
