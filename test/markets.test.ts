import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi } from './fixtures.js';
import {
  bearer,
  buildTestApp,
  expectProblem,
  json,
  type SignedIn,
  signInAdmin,
  signUp,
  type TestApp,
} from './helpers.js';

let t: TestApp;
let admin: SignedIn;
let customer: SignedIn;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await signInAdmin(t);
  customer = await signUp(t.app);
});
afterAll(() => t.close());

const base = '/market/dashboard/api/markets/';
const storefront = '/market/storefront/api/markets/';
type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
const callAs = (token: string | undefined) => (method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: token ? bearer(token) : {}, ...(payload ? { payload } : {}) });
const call = (method: Method, url: string, payload?: object) => callAs(admin.access)(method, url, payload);
const fields = (body: { errors: { field: string }[] }) => body.errors.map((e) => e.field);

let sequence = 0;
/** A market that converts from USD, with countries of its own (unique per call unless given). */
async function newMarket(payload: Record<string, unknown> = {}) {
  sequence += 1;
  const res = await call('POST', base, {
    code: `m${sequence}`,
    name: `Market ${sequence}`,
    currency: 'EUR',
    exchange_rate: '0.92',
    ...payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return json(res);
}

describe('the default market', () => {
  it('is today’s store: STORE_CURRENCY, PRICES_INCLUDE_TAX, rate 1, every country no other market lists', async () => {
    const [first] = json(await call('GET', base));
    expect(first).toMatchObject({
      code: 'default',
      name: 'Default',
      currency: 'USD',
      prices_include_tax: false,
      exchange_rate: '1',
      rounding_step: null,
      price_ending: '0.00',
      rounding_direction: 'nearest',
      is_default: true,
      countries: [],
      payment_plugins: [],
      shipping_method_ids: [],
    });
  });

  it('follows the environment: a JPY store with tax-inclusive prices has a JPY, inclusive default market', async () => {
    const jpy = await buildTestApp({ config: { storeCurrency: 'JPY', pricesIncludeTax: true } });
    try {
      const res = await jpy.app.inject({ method: 'GET', url: storefront });
      expect(json(res)).toEqual([
        {
          code: 'default',
          name: 'Default',
          currency: 'JPY',
          prices_include_tax: true,
          is_default: true,
          countries: [],
        },
      ]);
    } finally {
      await jpy.close();
    }
  });

  it('may be renamed and given countries, plugins and methods, but not a currency, rate or rounding', async () => {
    const [market] = json(await call('GET', base));
    const url = `${base}${market.id}/`;
    const method = await adminApi(t, admin).shippingMethod({ name: 'Default post' });
    const renamed = json(
      await call('PATCH', url, {
        code: 'US',
        name: 'United States',
        countries: ['us'],
        shipping_method_ids: [method.id],
      }),
    );
    expect(renamed).toMatchObject({ code: 'us', name: 'United States', countries: ['US'], currency: 'USD' });
    expect(renamed.shipping_method_ids).toEqual([method.id]);
    for (const [field, value] of [
      ['currency', 'EUR'],
      ['prices_include_tax', true],
      ['exchange_rate', '2'],
      ['rounding_step', '1'],
      ['price_ending', '0.99'],
      ['rounding_direction', 'up'],
    ] as const) {
      const body = expectProblem(await call('PATCH', url, { [field]: value }), 422, 'validation_error');
      expect(fields(body)).toEqual([field]);
    }
    json(await call('PATCH', url, { code: 'default', name: 'Default', countries: [], shipping_method_ids: [] }));
  });

  it('cannot be deleted', async () => {
    const [market] = json(await call('GET', base));
    expectProblem(await call('DELETE', `${base}${market.id}/`), 409, 'default_market_required');
    expect(json(await call('GET', base))[0].is_default).toBe(true);
  });
});

describe('markets (admin)', () => {
  it('creates, lists, reads, changes and deletes a market', async () => {
    const created = await newMarket({
      code: 'JP',
      name: ' Japan ',
      currency: 'jpy',
      prices_include_tax: true,
      exchange_rate: '151.3700',
      rounding_step: '100',
      countries: ['jp'],
      payment_plugins: ['sandbox'],
    });
    expect(created).toMatchObject({
      code: 'jp',
      name: 'Japan',
      currency: 'JPY',
      prices_include_tax: true,
      exchange_rate: '151.37',
      rounding_step: '100',
      price_ending: '0',
      rounding_direction: 'nearest',
      is_default: false,
      countries: ['JP'],
      payment_plugins: ['sandbox'],
      shipping_method_ids: [],
    });
    const url = `${base}${created.id}/`;
    expect(json(await call('GET', url))).toEqual(created);
    expect(json(await call('GET', base)).map((m: { code: string }) => m.code)).toContain('jp');
    const patched = json(
      await call('PATCH', url, { rounding_step: '1000', price_ending: '980', rounding_direction: 'up' }),
    );
    expect(patched).toMatchObject({ rounding_step: '1000', price_ending: '980', rounding_direction: 'up' });
    expect(patched.countries).toEqual(['JP']);
    expect((await call('DELETE', url)).statusCode).toBe(204);
    expectProblem(await call('GET', url), 404, 'market_not_found');
    expectProblem(await call('PATCH', url, { name: 'X' }), 404, 'market_not_found');
    expectProblem(await call('DELETE', url), 404, 'market_not_found');
    // Its country is free again.
    await newMarket({ currency: 'JPY', exchange_rate: '151.37', countries: ['JP'] });
  });

  it('shows a rule at the currency’s precision: EUR .99 endings, KWD whole dinars', async () => {
    const eur = await newMarket({ rounding_step: '1', price_ending: '0.99', rounding_direction: 'up' });
    expect(eur).toMatchObject({ rounding_step: '1.00', price_ending: '0.99' });
    const kwd = await newMarket({ currency: 'KWD', exchange_rate: '0.3075', rounding_step: '1' });
    expect(kwd).toMatchObject({
      currency: 'KWD',
      exchange_rate: '0.3075',
      rounding_step: '1.000',
      price_ending: '0.000',
    });
    // A currency change is checked against the rule kept: 0.99 is finer than a yen.
    const body = expectProblem(await call('PATCH', `${base}${eur.id}/`, { currency: 'JPY' }), 422, 'validation_error');
    expect(fields(body)).toEqual(['price_ending']);
    const moved = json(
      await call('PATCH', `${base}${eur.id}/`, {
        currency: 'JPY',
        exchange_rate: '151.37',
        rounding_step: '100',
        price_ending: '0',
      }),
    );
    expect(moved).toMatchObject({ currency: 'JPY', rounding_step: '100', price_ending: '0' });
  });

  it('answers 409 naming a country that belongs to another market, and its market', async () => {
    await newMarket({ code: 'eu', countries: ['DE', 'FR', 'IT'] });
    const res = await call('POST', base, {
      code: 'dach',
      name: 'DACH',
      currency: 'EUR',
      exchange_rate: '0.92',
      countries: ['AT', 'de', 'CH'],
    });
    const body = expectProblem(res, 409, 'country_in_another_market');
    expect(body.detail).toBe('DE is in market "eu"');
    expect(body.errors).toEqual([{ field: 'countries[1]', message: 'DE is in market "eu"' }]);
    // Nothing was written: AT is still free.
    const other = await newMarket({ countries: ['AT'] });
    const moved = await call('PATCH', `${base}${other.id}/`, { countries: ['AT', 'FR'] });
    expect(expectProblem(moved, 409, 'country_in_another_market').detail).toBe('FR is in market "eu"');
    expect(json(await call('GET', `${base}${other.id}/`)).countries).toEqual(['AT']);
  });

  it('answers 409 for a code in use, whatever its case', async () => {
    await newMarket({ code: 'uk', currency: 'GBP', exchange_rate: '0.79' });
    const res = await call('POST', base, { code: 'UK', name: 'UK again', currency: 'GBP', exchange_rate: '0.79' });
    expectProblem(res, 409, 'market_code_taken');
  });

  it.each([
    [{ currency: 'XYZ' }, 'currency'],
    [{ currency: 'EURO' }, 'currency'],
    [{ currency: '' }, 'currency'],
    [{ exchange_rate: '0' }, 'exchange_rate'],
    [{ exchange_rate: '-1.5' }, 'exchange_rate'],
    [{ exchange_rate: '1e3' }, 'exchange_rate'],
    [{ exchange_rate: '0.12345678901' }, 'exchange_rate'],
    [{ exchange_rate: '100000000000000' }, 'exchange_rate'],
    [{ exchange_rate: 0.92 }, 'exchange_rate'],
    [{ currency: 'USD', exchange_rate: '1.1' }, 'exchange_rate'],
    [{ rounding_step: '0' }, 'rounding_step'],
    [{ rounding_step: '0.001' }, 'rounding_step'],
    [{ currency: 'JPY', exchange_rate: '151.37', rounding_step: '0.5' }, 'rounding_step'],
    [{ rounding_step: '1', price_ending: '1' }, 'price_ending'],
    [{ rounding_step: '1', price_ending: '-0.01' }, 'price_ending'],
    [{ price_ending: '0.99' }, 'price_ending'],
    [{ rounding_direction: 'sideways' }, 'rounding_direction'],
    [{ code: 'e u' }, 'code'],
    [{ code: '' }, 'code'],
    [{ code: 'x'.repeat(33) }, 'code'],
    [{ name: '  ' }, 'name'],
    [{ countries: ['XX'] }, 'countries[0]'],
    [{ countries: ['GB', 'gb'] }, 'countries[1]'],
    [{ countries: 'GB' }, 'countries'],
    [{ payment_plugins: ['paypal'] }, 'payment_plugins[0]'],
    [{ payment_plugins: ['sandbox', 'sandbox'] }, 'payment_plugins[1]'],
    [{ shipping_method_ids: [999999] }, 'shipping_method_ids[0]'],
    [{ shipping_method_ids: [0] }, 'shipping_method_ids[0]'],
    [{ shipping_method_ids: [2147483648] }, 'shipping_method_ids[0]'],
    [{ is_default: true }, 'is_default'],
    [{ exchange_rate: 'a\u0000b' }, 'exchange_rate'],
    [{ name: '\ud800' }, 'name'],
  ])('refuses %o with 422 naming %s', async (change, field) => {
    sequence += 1;
    const payload = { code: `bad${sequence}`, name: 'Bad', currency: 'EUR', exchange_rate: '0.92', ...change };
    const body = expectProblem(await call('POST', base, payload), 422, 'validation_error');
    expect(fields(body)).toContain(field);
  });

  it('refuses a body without its required fields, and a bad change, naming the fields', async () => {
    const body = expectProblem(await call('POST', base, {}), 422, 'validation_error');
    expect(fields(body)).toEqual(expect.arrayContaining(['code', 'name', 'currency', 'exchange_rate']));
    const market = await newMarket();
    const url = `${base}${market.id}/`;
    expect(fields(expectProblem(await call('PATCH', url, { exchange_rate: 'x' }), 422, 'validation_error'))).toEqual([
      'exchange_rate',
    ]);
    expect(fields(expectProblem(await call('PATCH', url, { currency: 'ABC' }), 422, 'validation_error'))).toEqual([
      'currency',
    ]);
    expect(json(await call('GET', url))).toEqual(market);
  });

  it('answers 404 for an id that names no market, and 422 for one that is not an id', async () => {
    expectProblem(await call('GET', `${base}2147483647/`), 404, 'market_not_found');
    expectProblem(await call('GET', `${base}2147483648/`), 422, 'validation_error');
    expectProblem(await call('GET', `${base}abc/`), 422, 'validation_error');
    expectProblem(await call('DELETE', `${base}0/`), 422, 'validation_error');
  });

  it('lists shipping methods by id and drops a deleted method from the markets that offered it', async () => {
    const method = await adminApi(t, admin).shippingMethod({ name: 'Courier' });
    const market = await newMarket({ shipping_method_ids: [method.id] });
    expect(market.shipping_method_ids).toEqual([method.id]);
    expect((await call('DELETE', `/shipping/dashboard/api/shipping-methods/${method.id}/`)).statusCode).toBe(204);
    expect(json(await call('GET', `${base}${market.id}/`)).shipping_method_ids).toEqual([]);
  });

  it('is for admins only', async () => {
    for (const [method, url] of [
      ['GET', base],
      ['POST', base],
      ['GET', `${base}1/`],
      ['PATCH', `${base}1/`],
      ['DELETE', `${base}1/`],
    ] as const) {
      expectProblem(await callAs(undefined)(method, url, method === 'POST' ? {} : undefined), 401, 'unauthorized');
      expectProblem(await callAs(customer.access)(method, url, method === 'POST' ? {} : undefined), 403, 'forbidden');
    }
  });
});

describe('markets (storefront)', () => {
  it('lists every market with its code, name, currency, countries and inclusivity, no rates', async () => {
    await newMarket({
      code: 'ch',
      name: 'Switzerland',
      currency: 'CHF',
      exchange_rate: '0.88',
      countries: ['CH', 'LI'],
    });
    const res = await t.app.inject({ method: 'GET', url: storefront });
    expect(res.statusCode).toBe(200);
    const list = json(res);
    expect(list[0]).toMatchObject({ code: 'default', is_default: true, currency: 'USD' });
    expect(list).toContainEqual({
      code: 'ch',
      name: 'Switzerland',
      currency: 'CHF',
      prices_include_tax: false,
      is_default: false,
      countries: ['CH', 'LI'],
    });
    for (const market of list)
      expect(Object.keys(market).sort()).toEqual([
        'code',
        'countries',
        'currency',
        'is_default',
        'name',
        'prices_include_tax',
      ]);
  });
});

describe('explicit prices per currency (admin variant API)', () => {
  const pricesUrl = (id: number) => `/product/dashboard/api/variants/${id}/prices/`;
  async function newVariant() {
    sequence += 1;
    const product = await adminApi(t, admin).product({
      name: 'T-shirt',
      variants: [{ alias: `priced-${sequence}`, name: 'S', price: '25.00', stock: 10 }],
    });
    return product.variants[0] as { id: number };
  }

  it('sets, reads and replaces a variant’s prices, each at its currency’s precision', async () => {
    const variant = await newVariant();
    expect(json(await call('GET', pricesUrl(variant.id)))).toEqual([]);
    const prices = [
      { currency: 'jpy', price: '3800' },
      { currency: 'EUR', price: '23', compare_at_price: '27.5' },
      { currency: 'KWD', price: '7.5', compare_at_price: null },
    ];
    const set = json(await call('PUT', pricesUrl(variant.id), { prices }));
    expect(set.map(({ updated_at: _, ...p }: { updated_at: string }) => p)).toEqual([
      { currency: 'EUR', price: '23.00', compare_at_price: '27.50' },
      { currency: 'JPY', price: '3800', compare_at_price: null },
      { currency: 'KWD', price: '7.500', compare_at_price: null },
    ]);
    expect(json(await call('GET', pricesUrl(variant.id)))).toEqual(set);
    const replaced = json(await call('PUT', pricesUrl(variant.id), { prices: [{ currency: 'GBP', price: '21.99' }] }));
    expect(replaced.map((p: { currency: string }) => p.currency)).toEqual(['GBP']);
    expect(json(await call('PUT', pricesUrl(variant.id), { prices: [] }))).toEqual([]);
  });

  it('leaves the variant’s own price and the storefront as they were', async () => {
    const variant = await newVariant();
    json(await call('PUT', pricesUrl(variant.id), { prices: [{ currency: 'EUR', price: '23.00' }] }));
    const stored = json(await call('GET', `/product/dashboard/api/variants/${variant.id}/`));
    expect(stored.price).toBe('25.00');
  });

  it.each([
    [[{ currency: 'USD', price: '25.00' }], 'prices[0].currency'],
    [[{ currency: 'XYZ', price: '1.00' }], 'prices[0].currency'],
    [
      [
        { currency: 'EUR', price: '1.00' },
        { currency: 'eur', price: '2.00' },
      ],
      'prices[1].currency',
    ],
    [[{ currency: 'JPY', price: '3800.5' }], 'prices[0].price'],
    [[{ currency: 'EUR', price: '1.001' }], 'prices[0].price'],
    [[{ currency: 'KWD', price: '1.0001' }], 'prices[0].price'],
    [[{ currency: 'EUR', price: '-1.00' }], 'prices[0].price'],
    [[{ currency: 'EUR', price: '1e3' }], 'prices[0].price'],
    [[{ currency: 'EUR', price: 23 }], 'prices[0].price'],
    [[{ currency: 'EUR', price: '99999999999999999' }], 'prices[0].price'],
    [[{ currency: 'EUR', price: '1.00', compare_at_price: 'x' }], 'prices[0].compare_at_price'],
    [[{ currency: 'EUR', price: '1.00', market: 'eu' }], 'prices[0].market'],
    [[{ currency: 'E\u0000R', price: '1.00' }], 'prices[0].currency'],
  ])('refuses %j with 422 naming %s, and keeps the prices it had', async (prices, field) => {
    const variant = await newVariant();
    const before = json(await call('PUT', pricesUrl(variant.id), { prices: [{ currency: 'EUR', price: '23.00' }] }));
    const body = expectProblem(await call('PUT', pricesUrl(variant.id), { prices }), 422, 'validation_error');
    expect(fields(body)).toContain(field);
    expect(json(await call('GET', pricesUrl(variant.id)))).toEqual(before);
  });

  it('answers 404 for a variant that does not exist, and is for admins only', async () => {
    expectProblem(await call('GET', pricesUrl(2147483647)), 404, 'variant_not_found');
    expectProblem(await call('PUT', pricesUrl(2147483647), { prices: [] }), 404, 'variant_not_found');
    expectProblem(await call('GET', pricesUrl(2147483648)), 422, 'validation_error');
    const variant = await newVariant();
    expectProblem(await callAs(undefined)('GET', pricesUrl(variant.id)), 401, 'unauthorized');
    expectProblem(await callAs(customer.access)('PUT', pricesUrl(variant.id), { prices: [] }), 403, 'forbidden');
  });

  it('keeps an archived variant’s prices, as it keeps the variant for its orders', async () => {
    const variant = await newVariant();
    const set = json(await call('PUT', pricesUrl(variant.id), { prices: [{ currency: 'EUR', price: '23.00' }] }));
    expect((await call('DELETE', `/product/dashboard/api/variants/${variant.id}/`)).statusCode).toBe(204);
    expect(json(await call('GET', pricesUrl(variant.id)))).toEqual(set);
  });
});
