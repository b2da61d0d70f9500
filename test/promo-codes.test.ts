import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products, promotions } from '../src/db/schema.js';
import { adminApi, type PromoCodeInput } from './fixtures.js';
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
let productId: number;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await signInAdmin(t);
  customer = await signUp(t.app);
  const [product] = await t.database.db
    .insert(products)
    .values({ name: 'Promo target', handle: 'promo-target' })
    .returning();
  productId = product?.id ?? 0;
});
afterAll(() => t.close());

const base = '/discount/dashboard/api/promo-codes';
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
/** Requests to this admin API as `token` (the admin by default) on `app` (this file's store by default). */
const callAs =
  ({ token = admin.access, app = t }: { token?: string; app?: Pick<TestApp, 'app'> } = {}) =>
  (method: Method, url: string, payload?: object) =>
    app.app.inject({ method, url: `${base}${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });
const call = (method: Method, url: string, payload?: object) => callAs()(method, url, payload);

let codeCounter = 0;
const uniqueCode = (prefix = 'CODE') => `${prefix}_${++codeCounter}`;
const newCode = (payload: Partial<PromoCodeInput> = {}) =>
  adminApi(t, admin).promoCode({ code: uniqueCode(), code_type: 'percentage', value: '10', ...payload });
const fields = (body: { errors: { field: string }[] }) => body.errors.map((e) => e.field);

describe('creating promo codes', () => {
  it('creates a percentage code with every field, upper-casing the code', async () => {
    const res = await call('POST', '/', {
      code: 'summer-sale_25',
      code_type: 'percentage',
      value: '12.50',
      is_active: false,
      starts_at: '2030-06-01T00:00:00+02:00',
      expires_at: '2030-09-01T00:00:00Z',
      min_purchase_amount: '25',
      redemption_limit: 100,
      usage_limit_per_customer: 1,
      specific_customers: [customer.id],
      applicable_products: [productId],
      new_customers_only: true,
    });
    expect(res.statusCode).toBe(201);
    const code = json(res);
    expect(code).toEqual({
      id: expect.any(Number),
      code: 'SUMMER-SALE_25',
      code_type: 'percentage',
      value: '12.5',
      amounts: {},
      is_active: false,
      starts_at: '2030-05-31T22:00:00.000Z',
      expires_at: '2030-09-01T00:00:00.000Z',
      min_purchase_amount: '25.00',
      min_purchase_amounts: {},
      redemption_limit: 100,
      usage_limit_per_customer: 1,
      specific_customers: [customer.id],
      applicable_products: [productId],
      new_customers_only: true,
      times_used: 0,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(json(await call('GET', `/${code.id}/`))).toEqual(code);
  });

  it('defaults to an active code for everyone with no limits', async () => {
    expect(await newCode()).toMatchObject({
      value: '10',
      is_active: true,
      starts_at: null,
      expires_at: null,
      min_purchase_amount: null,
      redemption_limit: null,
      usage_limit_per_customer: null,
      specific_customers: null,
      applicable_products: null,
      new_customers_only: false,
      times_used: 0,
    });
  });

  it('stores a fixed value in minor units and shows it as money', async () => {
    const code = await newCode({ code_type: 'fixed', value: '5' });
    expect(code.value).toBe('5.00');
    // A promo code is a promotion (SPEC section 10); its id is the promotion's.
    const [row] = await t.database.db.select().from(promotions).where(eq(promotions.id, code.id));
    expect(row?.action).toEqual({ type: 'order_fixed', amount: 500, products: null });
  });

  it('takes a free-shipping code without a value or with "0"', async () => {
    expect((await newCode({ code_type: 'free_shipping', value: undefined })).value).toBe('0');
    expect((await newCode({ code_type: 'free_shipping', value: '0' })).value).toBe('0');
    const body = expectProblem(
      await call('POST', '/', { code: uniqueCode(), code_type: 'free_shipping', value: '5' }),
      422,
      'validation_error',
    );
    expect(fields(body)).toEqual(['value']);
  });

  it('refuses a code already taken in any case with 409 promo_code_taken', async () => {
    await newCode({ code: 'WELCOME' });
    expectProblem(
      await call('POST', '/', { code: 'welcome', code_type: 'percentage', value: '5' }),
      409,
      'promo_code_taken',
    );
    const other = await newCode();
    expectProblem(await call('PATCH', `/${other.id}/`, { code: 'Welcome' }), 409, 'promo_code_taken');
  });

  it.each([
    [{ code: 'has space' }, 'code'],
    [{ code: '' }, 'code'],
    [{ code: 'X'.repeat(51) }, 'code'],
    [{ code: 'ÜBER' }, 'code'],
    [{ code: 42 }, 'code'],
    [{ code_type: 'bogo' }, 'code_type'],
    [{ code_type: undefined }, 'code_type'],
    [{ value: undefined }, 'value'],
    [{ value: '0' }, 'value'],
    [{ value: '100.0001' }, 'value'],
    [{ value: '12.34567' }, 'value'],
    [{ value: 12 }, 'value'],
    [{ value: '-5' }, 'value'],
    [{ code_type: 'fixed', value: '0' }, 'value'],
    [{ code_type: 'fixed', value: '-1.00' }, 'value'],
    [{ code_type: 'fixed', value: '1.005' }, 'value'],
    [{ code_type: 'fixed', value: undefined }, 'value'],
    [{ starts_at: 'tomorrow' }, 'starts_at'],
    [{ expires_at: '2030-01-01T00:00:00' }, 'expires_at'],
    [{ starts_at: '2016-12-31T23:59:60Z' }, 'starts_at'],
    [{ starts_at: '2030-01-02T00:00:00Z', expires_at: '2030-01-01T00:00:00Z' }, 'expires_at'],
    [{ starts_at: '2030-01-01T00:00:00Z', expires_at: '2030-01-01T00:00:00Z' }, 'expires_at'],
    [{ min_purchase_amount: '10.001' }, 'min_purchase_amount'],
    [{ min_purchase_amount: '-1' }, 'min_purchase_amount'],
    [{ min_purchase_amount: 10 }, 'min_purchase_amount'],
    [{ redemption_limit: 0 }, 'redemption_limit'],
    [{ redemption_limit: '5' }, 'redemption_limit'],
    [{ usage_limit_per_customer: 1.5 }, 'usage_limit_per_customer'],
    [{ specific_customers: [999999] }, 'specific_customers[0]'],
    [{ specific_customers: 'all' }, 'specific_customers'],
    [{ applicable_products: [999999] }, 'applicable_products[0]'],
    [{ applicable_products: [0] }, 'applicable_products[0]'],
    [{ new_customers_only: 'yes' }, 'new_customers_only'],
    [{ discount: '10' }, 'discount'],
  ])('refuses %o with 422 naming %s', async (change, field) => {
    const payload = { code: uniqueCode(), code_type: 'percentage', value: '10', ...change };
    expect(fields(expectProblem(await call('POST', '/', payload), 422, 'validation_error'))).toContain(field);
  });

  it('names each unknown customer and product by its position', async () => {
    const payload = {
      code: uniqueCode(),
      code_type: 'percentage',
      value: '10',
      specific_customers: [customer.id, 999998, 999999],
      applicable_products: [productId, 999999],
    };
    const body = expectProblem(await call('POST', '/', payload), 422, 'validation_error');
    expect(fields(body)).toEqual(['specific_customers[1]', 'specific_customers[2]', 'applicable_products[1]']);
  });

  it('refuses an id listed twice', async () => {
    const body = expectProblem(
      await call('POST', '/', {
        code: uniqueCode(),
        code_type: 'percentage',
        value: '10',
        specific_customers: [customer.id, customer.id],
      }),
      422,
      'validation_error',
    );
    expect(new Set(fields(body))).toEqual(new Set(['specific_customers']));
    expect(body.detail).toContain('duplicate');
  });
});

describe('changing promo codes', () => {
  it('changes fields and clears nullable ones with null', async () => {
    const code = await newCode({
      min_purchase_amount: '10',
      redemption_limit: 5,
      specific_customers: [customer.id],
      expires_at: '2031-01-01T00:00:00Z',
    });
    const url = `/${code.id}/`;
    const patched = json(
      await call('PATCH', url, {
        code: 'renamed-x',
        value: '15',
        min_purchase_amount: null,
        redemption_limit: null,
        specific_customers: null,
        expires_at: null,
        is_active: false,
        new_customers_only: true,
      }),
    );
    expect(patched).toMatchObject({
      code: 'RENAMED-X',
      value: '15',
      min_purchase_amount: null,
      redemption_limit: null,
      specific_customers: null,
      expires_at: null,
      is_active: false,
      new_customers_only: true,
    });
    expect(json(await call('PATCH', url, {}))).toMatchObject({ code: 'RENAMED-X', value: '15' });
  });

  it('checks the value against the type the code will have', async () => {
    const code = await newCode({ value: '20' });
    const url = `/${code.id}/`;
    expect(fields(expectProblem(await call('PATCH', url, { code_type: 'fixed' }), 422, 'validation_error'))).toEqual([
      'value',
    ]);
    expect(fields(expectProblem(await call('PATCH', url, { value: '120' }), 422, 'validation_error'))).toEqual([
      'value',
    ]);
    expect(json(await call('PATCH', url, { code_type: 'fixed', value: '7.5' }))).toMatchObject({
      code_type: 'fixed',
      value: '7.50',
    });
    expect(json(await call('PATCH', url, { value: '8' }))).toMatchObject({ code_type: 'fixed', value: '8.00' });
    expect(json(await call('PATCH', url, { code_type: 'free_shipping' }))).toMatchObject({
      code_type: 'free_shipping',
      value: '0',
    });
    expect(fields(expectProblem(await call('PATCH', url, { value: '3' }), 422, 'validation_error'))).toEqual(['value']);
    expect(json(await call('PATCH', url, { code_type: 'percentage', value: '0.0001' }))).toMatchObject({
      code_type: 'percentage',
      value: '0.0001',
    });
  });

  it('keeps starts_at before expires_at, counting the stored dates', async () => {
    const code = await newCode({ starts_at: '2030-01-01T00:00:00Z', expires_at: '2030-02-01T00:00:00Z' });
    const url = `/${code.id}/`;
    expect(
      fields(expectProblem(await call('PATCH', url, { expires_at: '2029-12-31T00:00:00Z' }), 422, 'validation_error')),
    ).toEqual(['expires_at']);
    expect(
      fields(expectProblem(await call('PATCH', url, { starts_at: '2030-03-01T00:00:00Z' }), 422, 'validation_error')),
    ).toEqual(['expires_at']);
    expect(json(await call('PATCH', url, { starts_at: '2030-03-01T00:00:00Z', expires_at: null }))).toMatchObject({
      starts_at: '2030-03-01T00:00:00.000Z',
      expires_at: null,
    });
  });

  it('checks listed customers and products on a change too', async () => {
    const code = await newCode();
    const body = expectProblem(
      await call('PATCH', `/${code.id}/`, { applicable_products: [productId, 999999] }),
      422,
      'validation_error',
    );
    expect(fields(body)).toEqual(['applicable_products[1]']);
    expect(json(await call('PATCH', `/${code.id}/`, { applicable_products: [productId] })).applicable_products).toEqual(
      [productId],
    );
  });

  it('deletes a code', async () => {
    const code = await newCode();
    const url = `/${code.id}/`;
    expect((await call('DELETE', url)).statusCode).toBe(204);
    expectProblem(await call('GET', url), 404, 'promo_code_not_found');
    expectProblem(await call('PATCH', url, { value: '5' }), 404, 'promo_code_not_found');
    expectProblem(await call('DELETE', url), 404, 'promo_code_not_found');
  });
});

describe('listing promo codes', () => {
  it('pages through codes in creation order with a cursor', async () => {
    for (let i = 0; i < 5; i++) await newCode();
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page = json(await call('GET', `/?limit=2${cursor ? `&cursor=${cursor}` : ''}`));
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((c: { id: number }) => c.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen.length).toBeGreaterThanOrEqual(5);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    expectProblem(await call('GET', '/?limit=0'), 422, 'validation_error');
    expectProblem(await call('GET', '/?cursor=abc'), 422, 'validation_error');
  });
});

describe('promo codes in a JPY store', () => {
  it('takes fixed values and minimum purchases at yen precision', async () => {
    const store = await buildTestApp({ config: { storeCurrency: 'JPY' } });
    try {
      const boss = await signInAdmin(store);
      const created = await callAs({ token: boss.access, app: store })('POST', '/', {
        code: 'YEN500',
        code_type: 'fixed',
        value: '500',
        min_purchase_amount: '3000',
      });
      expect(json(created)).toMatchObject({ value: '500', min_purchase_amount: '3000' });
      const refused = await callAs({ token: boss.access, app: store })('POST', '/', {
        code: 'YEN_HALF',
        code_type: 'fixed',
        value: '500.5',
        min_purchase_amount: '1000.5',
      });
      expect(fields(expectProblem(refused, 422, 'validation_error'))).toEqual(['value', 'min_purchase_amount']);
    } finally {
      await store.close();
    }
  });
});

describe('promo codes with amounts in other currencies (decision 0037)', () => {
  it('takes, shows and keeps a fixed value and a minimum per currency, as the promotions API does', async () => {
    const created = await call('POST', '/', {
      code: uniqueCode('EURO'),
      code_type: 'fixed',
      value: '5.00',
      amounts: { eur: '4.00', JPY: '800' },
      min_purchase_amount: '30.00',
      min_purchase_amounts: { EUR: '25.00' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = json(created).id;
    expect(json(created)).toMatchObject({
      value: '5.00',
      amounts: { EUR: '4.00', JPY: '800' },
      min_purchase_amount: '30.00',
      min_purchase_amounts: { EUR: '25.00' },
    });
    const promotion = json(
      await t.app.inject({
        method: 'GET',
        url: `/discount/dashboard/api/promotions/${id}/`,
        headers: bearer(admin.access),
      }),
    );
    expect(promotion.action).toMatchObject({
      type: 'order_fixed',
      amount: '5.00',
      amounts: { EUR: '4.00', JPY: '800' },
    });
    expect(promotion.conditions).toEqual([{ type: 'min_subtotal', amount: '30.00', amounts: { EUR: '25.00' } }]);

    const renamed = json(await call('PATCH', `/${id}/`, { value: '6.00', redemption_limit: 5 }));
    expect(renamed).toMatchObject({ value: '6.00', amounts: { EUR: '4.00', JPY: '800' } });
    expect(renamed.min_purchase_amounts).toEqual({ EUR: '25.00' });
    const changed = json(await call('PATCH', `/${id}/`, { amounts: { KWD: '1.500' }, min_purchase_amounts: {} }));
    expect(changed).toMatchObject({ amounts: { KWD: '1.500' }, min_purchase_amounts: {} });
  });

  it('shows {} for a code without them, and a promotion’s amounts made through the promotions API', async () => {
    expect(json(await call('POST', '/', { code: uniqueCode(), code_type: 'percentage', value: '10' }))).toMatchObject({
      amounts: {},
      min_purchase_amounts: {},
    });
    const made = await adminApi(t, admin).promotion({
      name: 'Made elsewhere',
      code: uniqueCode('ELSEWHERE'),
      action: { type: 'order_fixed', amount: '5.00', amounts: { EUR: '4.50' } },
    });
    expect(json(await call('GET', `/${made.id}/`)).amounts).toEqual({ EUR: '4.50' });
    await call('PATCH', `/${made.id}/`, { is_active: false });
    expect(json(await call('GET', `/${made.id}/`)).amounts).toEqual({ EUR: '4.50' });
  });

  it('refuses amounts it could not keep, and currencies the promotions API refuses, naming each field', async () => {
    const percent = await call('POST', '/', {
      code: uniqueCode(),
      code_type: 'percentage',
      value: '10',
      amounts: { EUR: '4.00' },
      min_purchase_amounts: { EUR: '25.00' },
    });
    expect(fields(expectProblem(percent, 422, 'validation_error'))).toEqual(['amounts', 'min_purchase_amounts']);
    const bad = await call('POST', '/', {
      code: uniqueCode(),
      code_type: 'fixed',
      value: '5.00',
      amounts: { XYZ: '1.00', USD: '5.00', JPY: '800.5' },
    });
    expect(fields(expectProblem(bad, 422, 'validation_error'))).toEqual(['amounts.XYZ', 'amounts.USD', 'amounts.JPY']);
    const fixed = json(await call('POST', '/', { code: uniqueCode(), code_type: 'fixed', value: '5.00' }));
    const toPercent = await call('PATCH', `/${fixed.id}/`, {
      code_type: 'percentage',
      value: '5',
      amounts: { EUR: '1' },
    });
    expect(fields(expectProblem(toPercent, 422, 'validation_error'))).toEqual(['amounts']);
  });

  it('gives an order in EUR the code’s EUR amount', async () => {
    const store = await buildTestApp();
    try {
      const boss = await signInAdmin(store);
      const api = adminApi(store, boss);
      await api.product({ name: 'Tee', variants: [{ alias: 'pc-tee', name: 'M', price: '25.00', stock: 10 }] });
      await api.post('/market/dashboard/api/markets/', {
        code: 'eu',
        name: 'Europe',
        currency: 'EUR',
        prices_include_tax: false,
        exchange_rate: '0.92',
        countries: ['FR'],
      });
      await callAs({ token: boss.access, app: store })('POST', '/', {
        code: 'EURO4',
        code_type: 'fixed',
        value: '5.00',
        amounts: { EUR: '4.00' },
      });
      const estimate = (market: string) =>
        store.app.inject({
          method: 'POST',
          url: '/order/storefront/api/estimate/',
          headers: { 'x-market': market },
          payload: { variants: [{ alias: 'pc-tee' }], promocode: 'EURO4' },
        });
      // 25.00 USD × 0.92 = 23.00 EUR, less the code's own 4.00 EUR (converted, 5.00 USD would be 4.60).
      expect(json(await estimate('eu'))).toMatchObject({ currency: 'EUR', total: '19.00' });
      expect(json(await estimate('default'))).toMatchObject({ currency: 'USD', total: '20.00' });
    } finally {
      await store.close();
    }
  });
});

describe('promo code admin access', () => {
  it.each([
    ['GET', '/'],
    ['POST', '/'],
    ['GET', '/1/'],
    ['PATCH', '/1/'],
    ['DELETE', '/1/'],
  ] as const)('%s %s answers 401 without a token and 403 to a customer', async (method, url) => {
    expectProblem(await t.app.inject({ method, url: `${base}${url}`, payload: {} }), 401, 'unauthorized');
    expectProblem(await callAs({ token: customer.access })(method, url, {}), 403, 'forbidden');
  });

  it('validates path ids', async () => {
    expectProblem(await call('GET', '/abc/'), 422, 'validation_error');
    expectProblem(await call('PATCH', '/0/', {}), 422, 'validation_error');
  });
});
