import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { promotions } from '../src/db/schema.js';
import { adminApi, type PromotionInput } from './fixtures.js';
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

// The promotions admin API (SPEC section 10): /discount/dashboard/api/promotions/.

let t: TestApp;
let admin: SignedIn;
let customer: SignedIn;
let productA: number;
let productB: number;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await signInAdmin(t);
  customer = await signUp(t.app);
  const api = adminApi(t, admin);
  const a = await api.product({
    name: 'Promo A',
    variants: [{ alias: 'promo-a', name: 'A', price: '20.00', stock: 1000 }],
  });
  const b = await api.product({
    name: 'Promo B',
    variants: [{ alias: 'promo-b', name: 'B', price: '5.00', stock: 1000 }],
  });
  productA = a.id;
  productB = b.id;
});
afterAll(() => t.close());

const base = '/discount/dashboard/api/promotions';
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
/** Requests to this admin API as `token` (the admin by default) on `app` (this file's store by default). */
const callAs =
  ({ token = admin.access, app = t }: { token?: string; app?: Pick<TestApp, 'app'> } = {}) =>
  (method: Method, url: string, payload?: object) =>
    app.app.inject({ method, url: `${base}${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });
const call = (method: Method, url: string, payload?: object) => callAs()(method, url, payload);

let counter = 0;
const unique = (prefix: string) => `${prefix}_${++counter}`;
const newPromotion = (payload: Partial<PromotionInput> = {}) =>
  adminApi(t, admin).promotion({
    name: unique('Sale'),
    action: { type: 'order_percentage', percent: '10' },
    ...payload,
  });
const fields = (body: { errors: { field: string }[] }) => body.errors.map((e) => e.field);
/** The 422 of a request, its errors by field. */
async function refusal(method: Method, url: string, payload: object): Promise<Record<string, string>> {
  const body = expectProblem(await call(method, url, payload), 422, 'validation_error');
  return Object.fromEntries(body.errors.map((e: { field: string; message: string }) => [e.field, e.message]));
}

describe('creating promotions', () => {
  it('creates an automatic promotion with the defaults', async () => {
    const res = await call('POST', '/', {
      name: '  Spring sale  ',
      action: { type: 'order_percentage', percent: '10' },
    });
    expect(res.statusCode).toBe(201);
    const promotion = json(res);
    expect(promotion).toEqual({
      id: expect.any(Number),
      name: 'Spring sale',
      code: null,
      is_active: true,
      starts_at: null,
      expires_at: null,
      priority: 0,
      combinable: true,
      redemption_limit: null,
      usage_limit_per_customer: null,
      new_customers_only: false,
      specific_customers: null,
      conditions: [],
      action: { type: 'order_percentage', percent: '10', products: null },
      times_used: 0,
      archived_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(json(await call('GET', `/${promotion.id}/`))).toEqual(promotion);
  });

  it('creates a code promotion with every field, upper-casing the code', async () => {
    const promotion = await newPromotion({
      name: 'VIP weekend',
      code: 'vip-Weekend_1',
      is_active: false,
      starts_at: '2030-06-01T00:00:00+02:00',
      expires_at: '2030-06-03T00:00:00Z',
      priority: -5,
      combinable: false,
      redemption_limit: 100,
      usage_limit_per_customer: 1,
      new_customers_only: true,
      specific_customers: [customer.id],
    });
    expect(promotion).toMatchObject({
      code: 'VIP-WEEKEND_1',
      is_active: false,
      starts_at: '2030-05-31T22:00:00.000Z',
      expires_at: '2030-06-03T00:00:00.000Z',
      priority: -5,
      combinable: false,
      redemption_limit: 100,
      usage_limit_per_customer: 1,
      new_customers_only: true,
      specific_customers: [customer.id],
    });
  });

  it('takes every kind of condition, in order, with money as money strings', async () => {
    const conditions: PromotionInput['conditions'] = [
      { type: 'min_subtotal', amount: '50' },
      { type: 'min_quantity', quantity: 3 },
      { type: 'min_quantity', quantity: 2, products: [productA, productB] },
      { type: 'contains_products', products: [productB] },
    ];
    const promotion = await newPromotion({ conditions });
    expect(promotion.conditions).toEqual([
      { type: 'min_subtotal', amount: '50.00', amounts: {} },
      { type: 'min_quantity', quantity: 3, products: null },
      { type: 'min_quantity', quantity: 2, products: [productA, productB] },
      { type: 'contains_products', products: [productB] },
    ]);
    const [row] = await t.database.db.select().from(promotions).where(eq(promotions.id, promotion.id));
    expect(row?.conditions[0]).toEqual({ type: 'min_subtotal', amount: 5000 });
  });

  it.each([
    [
      { type: 'order_percentage', percent: '12.50' },
      { type: 'order_percentage', percent: '12.5', products: null },
    ],
    [
      { type: 'order_fixed', amount: '5', products: [1] },
      { type: 'order_fixed', amount: '5.00', amounts: {}, products: [1] },
    ],
    [
      { type: 'item_percentage', percent: '20', products: [1], max_units: 2 },
      { type: 'item_percentage', percent: '20', products: [1], max_units: 2 },
    ],
    [
      { type: 'item_fixed', amount: '1.5' },
      { type: 'item_fixed', amount: '1.50', amounts: {}, products: null, max_units: null },
    ],
    [
      { type: 'buy_x_get_y', buy_quantity: 2, get_quantity: 1, percent: '100' },
      {
        type: 'buy_x_get_y',
        buy_quantity: 2,
        buy_products: null,
        get_quantity: 1,
        get_products: null,
        percent: '100',
        repeat: true,
      },
    ],
    [
      {
        type: 'buy_x_get_y',
        buy_quantity: 3,
        buy_products: [1],
        get_quantity: 1,
        get_products: [2],
        percent: '50',
        repeat: false,
      },
      {
        type: 'buy_x_get_y',
        buy_quantity: 3,
        buy_products: [1],
        get_quantity: 1,
        get_products: [2],
        percent: '50',
        repeat: false,
      },
    ],
    [
      { type: 'shipping_percentage', percent: '50' },
      { type: 'shipping_percentage', percent: '50' },
    ],
    [
      { type: 'shipping_fixed', amount: '3.00' },
      { type: 'shipping_fixed', amount: '3.00', amounts: {} },
    ],
    [{ type: 'free_shipping' }, { type: 'free_shipping' }],
  ])('creates a %o action, answering every field of its kind', async (sent, answered) => {
    // Product ids 1 and 2 in the table stand for this store's two products.
    const ids = (value: object) =>
      JSON.parse(JSON.stringify(value).replace(/\[1\]/g, `[${productA}]`).replace(/\[2\]/g, `[${productB}]`));
    const promotion = await newPromotion({ action: ids(sent) });
    expect(promotion.action).toEqual(ids(answered));
    expect(json(await call('GET', `/${promotion.id}/`)).action).toEqual(ids(answered));
  });

  it('refuses a code already taken in any case with 409 promo_code_taken, promo codes included', async () => {
    await newPromotion({ code: 'TAKEN1' });
    expectProblem(
      await call('POST', '/', { name: 'x', code: 'taken1', action: { type: 'free_shipping' } }),
      409,
      'promo_code_taken',
    );
    await adminApi(t, admin).promoCode({ code: 'TAKEN2', code_type: 'percentage', value: '5' });
    const body = expectProblem(
      await call('POST', '/', { name: 'x', code: 'Taken2', action: { type: 'free_shipping' } }),
      409,
      'promo_code_taken',
    );
    expect(fields(body)).toEqual(['code']);
    const other = await newPromotion({ code: 'TAKEN3' });
    expectProblem(await call('PATCH', `/${other.id}/`, { code: 'taken1' }), 409, 'promo_code_taken');
  });

  it('lets several automatic promotions be created (no code is no code twice)', async () => {
    const [a, b] = [await newPromotion(), await newPromotion()];
    expect(a.code).toBeNull();
    expect(b.code).toBeNull();
  });
});

describe('refusing promotions that are not valid', () => {
  const valid = () => ({ name: unique('Bad'), action: { type: 'order_percentage', percent: '10' } as object });

  const refusals: [string, object, string, RegExp][] = [
    [
      'a percent of 0',
      { action: { type: 'order_percentage', percent: '0' } },
      'action.percent',
      /above 0 and up to 100/,
    ],
    ['a percent over 100', { action: { type: 'item_percentage', percent: '100.0001' } }, 'action.percent', /up to 100/],
    [
      'a fifth decimal',
      { action: { type: 'shipping_percentage', percent: '12.34567' } },
      'action.percent',
      /4 decimals/,
    ],
    ['a negative percent', { action: { type: 'order_percentage', percent: '-5' } }, 'action.percent', /above 0/],
    ['a percent as a number', { action: { type: 'order_percentage', percent: 10 } }, 'action.percent', /string/],
    [
      'a buy_x_get_y percent of 0',
      { action: { type: 'buy_x_get_y', buy_quantity: 1, get_quantity: 1, percent: '0' } },
      'action.percent',
      /above 0/,
    ],
    ['an amount finer than cents', { action: { type: 'order_fixed', amount: '5.001' } }, 'action.amount', /2 decimal/],
    ['an amount of 0', { action: { type: 'item_fixed', amount: '0.00' } }, 'action.amount', /more than 0/],
    ['a negative amount', { action: { type: 'shipping_fixed', amount: '-1.00' } }, 'action.amount', /./],
    ['an amount as a number', { action: { type: 'order_fixed', amount: 5 } }, 'action.amount', /string/],
    [
      'a minimum subtotal finer than cents',
      { conditions: [{ type: 'min_subtotal', amount: '10.005' }] },
      'conditions[0].amount',
      /2 decimal/,
    ],
    [
      'a minimum subtotal of 0',
      { conditions: [{ type: 'min_subtotal', amount: '0' }] },
      'conditions[0].amount',
      /more than 0/,
    ],
    [
      'a buy quantity of 0',
      { action: { type: 'buy_x_get_y', buy_quantity: 0, get_quantity: 1, percent: '100' } },
      'action.buy_quantity',
      />= 1/,
    ],
    [
      'a get quantity of 0',
      { action: { type: 'buy_x_get_y', buy_quantity: 1, get_quantity: 0, percent: '100' } },
      'action.get_quantity',
      />= 1/,
    ],
    ['max_units of 0', { action: { type: 'item_percentage', percent: '5', max_units: 0 } }, 'action.max_units', />= 1/],
    [
      'a minimum quantity of 0',
      {
        conditions: [
          { type: 'contains_products', products: [1] },
          { type: 'min_quantity', quantity: 0 },
        ],
      },
      'conditions[1].quantity',
      />= 1/,
    ],
    [
      'an empty product list',
      { action: { type: 'order_percentage', percent: '5', products: [] } },
      'action.products',
      /fewer than 1/,
    ],
    [
      'a product listed twice',
      { conditions: [{ type: 'contains_products', products: [1, 1] }] },
      'conditions[0].products',
      /duplicate/,
    ],
    [
      'starts after it expires',
      { starts_at: '2030-01-02T00:00:00Z', expires_at: '2030-01-01T00:00:00Z' },
      'expires_at',
      /after starts_at/,
    ],
    [
      'starts when it expires',
      { starts_at: '2030-01-01T00:00:00Z', expires_at: '2030-01-01T00:00:00Z' },
      'expires_at',
      /after/,
    ],
    ['a date without a zone', { expires_at: '2030-01-01T00:00:00' }, 'expires_at', /date-time/],
    ['a code with a space', { code: 'has space' }, 'code', /pattern/],
    ['a code too long', { code: 'X'.repeat(51) }, 'code', /50/],
    ['a blank name', { name: '   ' }, 'name', /blank/],
    ['no name', { name: undefined }, 'name', /required/],
    ['no action', { action: undefined }, 'action', /required/],
    ['an action without a type', { action: { percent: '5' } }, 'action.type', /required/],
    ['an unknown kind of action', { action: { type: 'bogo' } }, 'action.type', /one of: "order_percentage"/],
    ['an unknown kind of condition', { conditions: [{ type: 'weekday' }] }, 'conditions[0].type', /"min_subtotal"/],
    [
      'a field of another kind',
      { action: { type: 'free_shipping', percent: '5' } },
      'action.percent',
      /not an allowed/,
    ],
    ['a required field of the kind missing', { action: { type: 'order_fixed' } }, 'action.amount', /required/],
    ['a priority past an integer column', { priority: 2147483648 }, 'priority', /<=/],
    ['a redemption limit of 0', { redemption_limit: 0 }, 'redemption_limit', />= 1/],
    [
      'a customer limit that is not a whole number',
      { usage_limit_per_customer: 1.5 },
      'usage_limit_per_customer',
      /integer/,
    ],
    ['an unknown user', { specific_customers: [999999] }, 'specific_customers[0]', /names no user/],
    ['an unknown field', { discount: '10' }, 'discount', /not an allowed/],
  ];
  it.each(refusals.map(([what, change, field, message]) => ({ what, change, field, message })))(
    'refuses $what with 422 naming $field',
    async ({ change, field, message }) => {
      const errors = await refusal('POST', '/', { ...valid(), ...change });
      expect(errors).toHaveProperty([field], expect.stringMatching(message));
    },
  );

  it('names each unknown product by its place: conditions, action, buy and get lists', async () => {
    const errors = await refusal('POST', '/', {
      name: 'Ghosts',
      conditions: [
        { type: 'min_subtotal', amount: '1.00' },
        { type: 'contains_products', products: [productA, 999991] },
      ],
      action: {
        type: 'buy_x_get_y',
        buy_quantity: 1,
        buy_products: [999992],
        get_quantity: 1,
        get_products: [productB, productA, 999993],
        percent: '100',
      },
    });
    expect(errors).toEqual({
      'conditions[1].products[1]': 'names no product',
      'action.buy_products[0]': 'names no product',
      'action.get_products[2]': 'names no product',
    });
    const onAction = await refusal('POST', '/', {
      name: 'Ghost',
      action: { type: 'item_fixed', amount: '1.00', products: [999994] },
    });
    expect(Object.keys(onAction)).toEqual(['action.products[0]']);
  });

  it('reports every mistake of a request at once', async () => {
    const errors = await refusal('POST', '/', {
      name: 'Many',
      starts_at: '2030-02-01T00:00:00Z',
      expires_at: '2030-01-01T00:00:00Z',
      conditions: [{ type: 'min_subtotal', amount: '0.001' }],
      action: { type: 'order_fixed', amount: '0' },
    });
    expect(Object.keys(errors).sort()).toEqual(['action.amount', 'conditions[0].amount', 'expires_at']);
  });

  it('keeps a percent canonical and lets 0.0001 and 100 through', async () => {
    expect((await newPromotion({ action: { type: 'order_percentage', percent: '0.0001' } })).action).toMatchObject({
      percent: '0.0001',
    });
    expect((await newPromotion({ action: { type: 'item_percentage', percent: '100.00' } })).action).toMatchObject({
      percent: '100',
    });
  });
});

describe('promotions in a JPY store', () => {
  // A second store on a database of its own: slow to open on a busy machine.
  it('takes amounts at yen precision and refuses decimals', { timeout: 120_000 }, async () => {
    const store = await buildTestApp({ config: { storeCurrency: 'JPY' } });
    try {
      const boss = await signInAdmin(store);
      const send = callAs({ token: boss.access, app: store });
      const created = await send('POST', '/', {
        name: 'Yen off',
        conditions: [{ type: 'min_subtotal', amount: '3000' }],
        action: { type: 'order_fixed', amount: '500' },
      });
      expect(json(created)).toMatchObject({
        conditions: [{ type: 'min_subtotal', amount: '3000' }],
        action: { type: 'order_fixed', amount: '500' },
      });
      const refused = await send('POST', '/', {
        name: 'Half yen',
        conditions: [{ type: 'min_subtotal', amount: '1000.5' }],
        action: { type: 'shipping_fixed', amount: '500.5' },
      });
      expect(fields(expectProblem(refused, 422, 'validation_error')).sort()).toEqual([
        'action.amount',
        'conditions[0].amount',
      ]);
    } finally {
      await store.close();
    }
  });
});

describe('changing promotions', () => {
  it('changes any field and clears nullable ones with null', async () => {
    const promotion = await newPromotion({
      code: unique('CHANGE'),
      redemption_limit: 5,
      specific_customers: [customer.id],
      expires_at: '2031-01-01T00:00:00Z',
      conditions: [{ type: 'min_subtotal', amount: '10.00' }],
    });
    const url = `/${promotion.id}/`;
    const patched = json(
      await call('PATCH', url, {
        name: 'Renamed',
        code: null,
        redemption_limit: null,
        specific_customers: null,
        expires_at: null,
        is_active: false,
        priority: 10,
        combinable: false,
        new_customers_only: true,
      }),
    );
    expect(patched).toMatchObject({
      name: 'Renamed',
      code: null,
      redemption_limit: null,
      specific_customers: null,
      expires_at: null,
      is_active: false,
      priority: 10,
      combinable: false,
      new_customers_only: true,
      conditions: [{ type: 'min_subtotal', amount: '10.00' }],
    });
    expect(json(await call('PATCH', url, {}))).toMatchObject({ name: 'Renamed', priority: 10 });
  });

  it('changes the kind of the action and replaces the conditions whole', async () => {
    const promotion = await newPromotion({
      conditions: [
        { type: 'min_subtotal', amount: '10.00' },
        { type: 'min_quantity', quantity: 2 },
      ],
    });
    const patched = json(
      await call('PATCH', `/${promotion.id}/`, {
        conditions: [{ type: 'contains_products', products: [productA] }],
        action: { type: 'buy_x_get_y', buy_quantity: 2, get_quantity: 1, get_products: [productA], percent: '100' },
      }),
    );
    expect(patched.conditions).toEqual([{ type: 'contains_products', products: [productA] }]);
    expect(patched.action).toMatchObject({ type: 'buy_x_get_y', get_products: [productA], repeat: true });
    expect(json(await call('PATCH', `/${promotion.id}/`, { conditions: [] })).conditions).toEqual([]);
  });

  it('keeps starts_at before expires_at, counting the stored dates', async () => {
    const promotion = await newPromotion({ starts_at: '2030-01-01T00:00:00Z', expires_at: '2030-02-01T00:00:00Z' });
    const url = `/${promotion.id}/`;
    expect(Object.keys(await refusal('PATCH', url, { expires_at: '2029-12-31T00:00:00Z' }))).toEqual(['expires_at']);
    expect(Object.keys(await refusal('PATCH', url, { starts_at: '2030-03-01T00:00:00Z' }))).toEqual(['expires_at']);
    expect(json(await call('PATCH', url, { starts_at: '2030-03-01T00:00:00Z', expires_at: null }))).toMatchObject({
      starts_at: '2030-03-01T00:00:00.000Z',
      expires_at: null,
    });
  });

  it('checks a change as it checks a new promotion, and a refused change changes nothing', async () => {
    const promotion = await newPromotion();
    const url = `/${promotion.id}/`;
    expect(
      await refusal('PATCH', url, { action: { type: 'order_fixed', amount: '1.001', products: [productA, 999999] } }),
    ).toEqual({
      'action.amount': expect.stringMatching(/2 decimal/),
    });
    expect(
      await refusal('PATCH', url, { action: { type: 'order_fixed', amount: '1.00', products: [999999] } }),
    ).toEqual({
      'action.products[0]': 'names no product',
    });
    expect(await refusal('PATCH', url, { name: '' })).toHaveProperty(['name']);
    expect(json(await call('GET', url))).toEqual(promotion);
  });

  it('answers 404 for an unknown promotion and 422 for a bad id', async () => {
    expectProblem(await call('PATCH', '/999999/', { name: 'x' }), 404, 'promotion_not_found');
    expectProblem(await call('GET', '/999999/'), 404, 'promotion_not_found');
    expectProblem(await call('DELETE', '/999999/'), 404, 'promotion_not_found');
    expectProblem(await call('GET', '/abc/'), 422, 'validation_error');
    expectProblem(await call('PATCH', '/0/', {}), 422, 'validation_error');
  });
});

describe('archiving promotions', () => {
  it('archives with DELETE: switched off, kept for history, unchangeable, its code free again', async () => {
    const code = unique('ARCHIVE');
    const promotion = await newPromotion({ code });
    const url = `/${promotion.id}/`;
    expect((await call('DELETE', url)).statusCode).toBe(204);
    const archived = json(await call('GET', url));
    expect(archived).toMatchObject({ is_active: false, code: code.toUpperCase(), archived_at: expect.any(String) });
    expectProblem(await call('PATCH', url, { is_active: true }), 409, 'promotion_archived');
    expect((await call('DELETE', url)).statusCode).toBe(204);
    expect(json(await call('GET', url)).archived_at).toBe(archived.archived_at);
    const again = await newPromotion({ code });
    expect(again.code).toBe(code.toUpperCase());
  });
});

describe('listing promotions', () => {
  /** Every item of every page of `query`, following next_cursor. */
  async function all(query: string, limit = 2) {
    const items: { id: number; name: string }[] = [];
    let cursor: string | null = null;
    do {
      const page = json(await call('GET', `/?limit=${limit}&${query}${cursor ? `&cursor=${cursor}` : ''}`));
      expect(page.items.length).toBeLessThanOrEqual(limit);
      items.push(...page.items);
      cursor = page.next_cursor;
    } while (cursor);
    return items;
  }

  it('filters by switch, code, automatic, name and archived, paging in id order', async () => {
    const tag = unique('listtag');
    const autoOn = await newPromotion({ name: `${tag} automatic on` });
    const autoOff = await newPromotion({ name: `${tag} automatic off`, is_active: false });
    const codeOn = await newPromotion({ name: `${tag} code on`, code: `${tag}_code` });
    const codeOff = await newPromotion({ name: `${tag} code off 100%`, code: `${tag}_off`, is_active: false });
    const gone = await newPromotion({ name: `${tag} archived` });
    await call('DELETE', `/${gone.id}/`);
    const names = async (query: string) => (await all(`q=${tag}&${query}`)).map((p) => p.id);

    expect(await names('')).toEqual([autoOn.id, autoOff.id, codeOn.id, codeOff.id]);
    expect(await names('is_active=true')).toEqual([autoOn.id, codeOn.id]);
    expect(await names('is_active=false')).toEqual([autoOff.id, codeOff.id]);
    expect(await names('automatic=true')).toEqual([autoOn.id, autoOff.id]);
    expect(await names('automatic=false&is_active=false')).toEqual([codeOff.id]);
    expect(await names('archived=true')).toEqual([gone.id]);
    expect(await names(`code=${tag.toLowerCase()}_CODE`)).toEqual([codeOn.id]);
    expect((await all(`q=${encodeURIComponent(`${tag.toUpperCase()} CODE OFF 100%`)}`)).map((p) => p.id)).toEqual([
      codeOff.id,
    ]);
    // % and _ in q are the characters themselves, not wildcards.
    expect(await all(`q=${encodeURIComponent(`${tag} code o_f`)}`)).toEqual([]);
    const everything = await all('', 3);
    expect(everything.map((p) => p.id)).toEqual([...everything.map((p) => p.id)].sort((a, b) => a - b));
    expect(everything.map((p) => p.id)).not.toContain(gone.id);
  });

  it.each(['limit=0', 'limit=101', 'cursor=abc', 'automatic=maybe', 'is_active=2', 'archived=yes'])(
    'refuses ?%s with 422',
    async (query) => {
      expectProblem(await call('GET', `/?${query}`), 422, 'validation_error');
    },
  );
});

describe('promotion admin access', () => {
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

  it('keeps the reference cache when a write is refused, and clears it when one succeeds', async () => {
    const estimate = async () =>
      json(
        await t.app.inject({
          method: 'POST',
          url: '/order/storefront/api/estimate/',
          payload: { variants: [{ alias: 'promo-b', quantity: 1 }] },
        }),
      ).subtotal;
    const exec = (query: string) => t.database.db.execute(sql.raw(query));
    await estimate();
    await exec('alter table product_variants disable trigger product_variants_changed');
    try {
      // Read once more after the trigger is off, so whatever an earlier notification cleared is cached again.
      expect(await estimate()).toBe('5.00');
      await exec(`update product_variants set price = 700 where alias = 'promo-b'`);
      const body = { name: 'Cache', action: { type: 'free_shipping' } };
      const refused = [
        await t.app.inject({ method: 'POST', url: `${base}/`, payload: body }),
        await callAs({ token: customer.access })('POST', '/', body),
        await call('POST', '/', { ...body, action: { type: 'order_fixed', amount: '0' } }),
        await call('PATCH', '/999999/', { name: 'x' }),
        await call('DELETE', '/999999/'),
      ];
      expect(refused.map((r) => r.statusCode)).toEqual([401, 403, 422, 404, 404]);
      expect(await estimate()).toBe('5.00');
      expect((await call('POST', '/', body)).statusCode).toBe(201);
      expect(await estimate()).toBe('7.00');
    } finally {
      await exec('alter table product_variants enable trigger product_variants_changed');
      await exec(`update product_variants set price = 500 where alias = 'promo-b'`);
    }
  });
});

describe('promo codes and promotions', () => {
  it('stores a promo code made through the promo-codes API as a promotion', async () => {
    const code = await adminApi(t, admin).promoCode({
      code: unique('bridge'),
      code_type: 'fixed',
      value: '5',
      min_purchase_amount: '30',
      applicable_products: [productA],
    });
    expect(json(await call('GET', `/${code.id}/`))).toMatchObject({
      name: `Promo code ${code.code}`,
      code: code.code,
      priority: 0,
      combinable: true,
      conditions: [
        { type: 'min_subtotal', amount: '30.00' },
        { type: 'contains_products', products: [productA] },
      ],
      action: { type: 'order_fixed', amount: '5.00', products: [productA] },
    });
  });

  it('shows a code promotion with a promo code shape through the promo-codes API, and no other', async () => {
    const codes = '/discount/dashboard/api/promo-codes';
    const shaped = await newPromotion({ code: unique('SHAPED'), action: { type: 'free_shipping' } });
    const other = await newPromotion({ code: unique('ITEMS'), action: { type: 'item_percentage', percent: '5' } });
    const automatic = await newPromotion();
    const api = adminApi(t, admin);
    expect(await api.get(`${codes}/${shaped.id}/`)).toMatchObject({ code: shaped.code, code_type: 'free_shipping' });
    for (const promotion of [other, automatic]) {
      expectProblem(
        await t.app.inject({ method: 'GET', url: `${codes}/${promotion.id}/`, headers: bearer(admin.access) }),
        404,
        'promo_code_not_found',
      );
    }
    const listed: number[] = [];
    let cursor: string | null = null;
    do {
      const page = await api.get(`${codes}/?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      listed.push(...page.items.map((c: { id: number }) => c.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(listed).toContain(shaped.id);
    expect(listed).not.toContain(other.id);
    expect(listed).not.toContain(automatic.id);
  });

  it('archives the promotion when a promo code is deleted', async () => {
    const code = await adminApi(t, admin).promoCode({ code: unique('GONE'), code_type: 'percentage', value: '5' });
    await adminApi(t, admin).delete(`/discount/dashboard/api/promo-codes/${code.id}/`);
    expect(json(await call('GET', `/${code.id}/`))).toMatchObject({
      archived_at: expect.any(String),
      is_active: false,
    });
  });
});

describe('code promotions in the estimate', () => {
  // A store of its own: the automatic promotions the tests above made would apply to its orders too.
  let store: TestApp;
  let boss: SignedIn;
  beforeAll(async () => {
    store = await buildTestApp();
    boss = await signInAdmin(store);
    await adminApi(store, boss).product({
      name: 'Code A',
      variants: [{ alias: 'code-a', name: 'A', price: '20.00', stock: 10 }],
    });
  });
  afterAll(() => store?.close());

  it('a code promotion applies as it is now, whatever its shape, until its rules fail or it is archived', async () => {
    const send = callAs({ token: boss.access, app: store });
    const estimateWith = (promocode: string) =>
      store.app.inject({
        method: 'POST',
        url: '/order/storefront/api/estimate/',
        payload: { variants: [{ alias: 'code-a', quantity: 1 }], promocode },
      });
    const code = 'STEP';
    const promotion = json(
      await send('POST', '/', { name: 'Step', code, action: { type: 'order_fixed', amount: '2.00' } }),
    );
    expect(json(await estimateWith(code)).discount).toBe('2.00');
    // 25 % of 20.00.
    await send('PATCH', `/${promotion.id}/`, { action: { type: 'order_percentage', percent: '25' } });
    expect(json(await estimateWith(code)).discount).toBe('5.00');
    // A condition no promo code had: the code works while it holds (1 unit ordered)...
    await send('PATCH', `/${promotion.id}/`, { conditions: [{ type: 'min_quantity', quantity: 1 }] });
    expect(json(await estimateWith(code)).discount).toBe('5.00');
    // ...and is refused, naming the rule, when it does not.
    await send('PATCH', `/${promotion.id}/`, { conditions: [{ type: 'min_quantity', quantity: 2 }] });
    expect(expectProblem(await estimateWith(code), 422, 'promo_code_invalid').rule).toBe('min_quantity');
    await send('PATCH', `/${promotion.id}/`, { conditions: [] });
    expect(json(await estimateWith(code)).discount).toBe('5.00');
    await send('DELETE', `/${promotion.id}/`);
    expectProblem(await estimateWith(code), 422, 'promo_code_invalid');
  });
});
