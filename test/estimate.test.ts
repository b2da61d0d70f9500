import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addresses,
  orders,
  productVariants,
  promotionRedemptions,
  promotions,
  shippingMethods,
  shippingRates,
  taxClasses,
  taxRates,
} from '../src/db/schema.js';
import { adminApi, insertPromoCodes } from './fixtures.js';
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
let alice: SignedIn;
let bob: SignedIn;
let vip: SignedIn;
let returning: SignedIn;
let standardShipping: number;
let gbOnlyShipping: number;
let inactiveShipping: number;
let productB: number;
let bobAddressId: number;
const url = '/order/storefront/api/estimate/';
const CA = {
  first_name: 'Ada',
  last_name: 'L',
  street_address: '1 Main St',
  city: 'Los Angeles',
  postal_code: '90001',
  state: 'CA',
  country: 'US',
  email: 'Guest@Example.com',
};

async function product(
  name: string,
  taxClassId: number | null,
  variants: { alias: string; price: string; weight_grams?: string }[],
) {
  return adminApi(t, admin).product({
    name,
    tax_class_id: taxClassId,
    variants: variants.map((v) => ({ name: v.alias, stock: 100, ...v })),
  });
}

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.database.db;
  admin = await signInAdmin(t);
  [alice, bob, vip, returning] = [await signUp(t.app), await signUp(t.app), await signUp(t.app), await signUp(t.app)];
  const [standard, reduced] = await db
    .insert(taxClasses)
    .values([{ name: 'Standard' }, { name: 'Reduced' }])
    .returning();
  await db.insert(taxRates).values([
    { taxClassId: standard!.id, country: 'US', state: 'CA', rate: '7.25' },
    { taxClassId: standard!.id, country: 'US', state: '', rate: '5' },
    { taxClassId: reduced!.id, country: 'US', state: '', rate: '2' },
    { taxClassId: standard!.id, country: 'US', state: 'NY', rate: '8', isActive: false },
  ]);
  await product('Est A', standard!.id, [{ alias: 'est-a', price: '100.00', weight_grams: '500' }]);
  productB = (await product('Est B', reduced!.id, [{ alias: 'est-b', price: '20.00', weight_grams: '250' }])).id;
  await product('Est C', null, [{ alias: 'est-c', price: '10.00' }]);
  const gone = await product('Est Gone', null, [{ alias: 'est-gone', price: '1.00' }]);
  await adminApi(t, admin).delete(`/product/dashboard/api/products/${gone.id}/`);

  const [std, gb, off] = await db
    .insert(shippingMethods)
    .values([{ name: 'Standard' }, { name: 'Royal Mail' }, { name: 'Old', isActive: false }])
    .returning();
  [standardShipping, gbOnlyShipping, inactiveShipping] = [std!.id, gb!.id, off!.id];
  await db.insert(shippingRates).values([
    { shippingMethodId: std!.id, country: 'US', weightMinKg: '0', weightMaxKg: '10', baseRate: 500, perKgRate: 100 },
    {
      shippingMethodId: std!.id,
      country: 'US',
      state: 'CA',
      weightMinKg: '0',
      weightMaxKg: '10',
      baseRate: 400,
      perKgRate: 50,
    },
    { shippingMethodId: gb!.id, country: 'GB', baseRate: 300 },
    { shippingMethodId: off!.id, baseRate: 100 },
  ]);

  const tomorrow = new Date(Date.now() + 86_400_000);
  const yesterday = new Date(Date.now() - 86_400_000);
  const promos = await insertPromoCodes(db, [
    { code: 'SAVE10', codeType: 'percentage', value: '10' },
    { code: 'FIVE', codeType: 'fixed', value: '500' },
    { code: 'HUGE', codeType: 'fixed', value: '100000' },
    { code: 'FREESHIP', codeType: 'free_shipping', value: '0' },
    { code: 'INACTIVE', codeType: 'percentage', value: '10', isActive: false },
    { code: 'FUTURE', codeType: 'percentage', value: '10', startsAt: tomorrow },
    { code: 'EXPIRED', codeType: 'percentage', value: '10', expiresAt: yesterday },
    { code: 'MIN1000', codeType: 'percentage', value: '10', minPurchaseAmount: 100_000 },
    { code: 'LIMITED', codeType: 'percentage', value: '10', redemptionLimit: 3, timesUsed: 3 },
    { code: 'ONCEEACH', codeType: 'percentage', value: '10', usageLimitPerCustomer: 1 },
    { code: 'VIPONLY', codeType: 'percentage', value: '10', specificCustomers: [vip.id] },
    { code: 'BONLY', codeType: 'percentage', value: '50', applicableProducts: [productB] },
    { code: 'WELCOME', codeType: 'percentage', value: '10', newCustomersOnly: true },
  ]);
  const onceEach = promos.find((p) => p.code === 'ONCEEACH')!;
  const money = {
    currency: 'USD',
    pricesIncludeTax: false,
    subtotal: 100,
    discount: 0,
    shippingFee: 0,
    shippingTax: 0,
    estimatedTax: 0,
    totalWithoutTax: 100,
    total: 100,
    totalItems: 1,
  };
  const [past] = await db
    .insert(orders)
    .values([
      { alias: 'past-1', userId: alice.id, email: alice.email, ...money },
      { alias: 'past-2', userId: returning.id, email: returning.email, ...money },
    ])
    .returning();
  await db.insert(promotionRedemptions).values({ promotionId: onceEach.id, orderId: past!.id, userId: alice.id });
  const [stored] = await db
    .insert(addresses)
    .values({
      userId: bob.id,
      firstName: 'Bob',
      lastName: 'B',
      streetAddress: '2 Side St',
      city: 'San Diego',
      state: 'CA',
      country: 'US',
      isDefault: true,
    })
    .returning();
  bobAddressId = stored!.id;
});
afterAll(() => t.close());

const estimate = (payload: unknown, who?: SignedIn) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers: who ? bearer(who.access) : {} });
const order = {
  variants: [
    { alias: 'est-a', quantity: 2 },
    { alias: 'est-b', quantity: 1 },
  ],
  shipping_address: CA,
  shipping_method_id: 0,
  promocode: 'SAVE10',
};

describe('estimate', () => {
  it('prices an order with promo, tax by state and country, and per-kg shipping, to the minor unit', async () => {
    const res = await estimate({ ...order, shipping_method_id: standardShipping });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toEqual({
      currency: 'USD',
      subtotal: '220.00',
      discount: '22.00',
      discount_name: 'Promo code SAVE10',
      promotions: [
        {
          id: expect.any(Number),
          name: 'Promo code SAVE10',
          code: 'SAVE10',
          kind: 'order_percentage',
          amount: '22.00',
        },
      ],
      shipping_fee: '4.63',
      shipping_discount: '0.00',
      shipping_name: 'Standard',
      estimated_tax: '13.41',
      total_without_tax: '202.63',
      total: '216.04',
      total_items: 3,
      lines: [
        {
          alias: 'est-a',
          product_variant_id: expect.any(Number),
          name: 'Est A - est-a',
          product_name: 'Est A',
          variant_name: 'est-a',
          sku: null,
          options: [],
          image: null,
          tax_class: 'Standard',
          quantity: 2,
          unit_price: '100.00',
          subtotal: '200.00',
          discount: '20.00',
          tax_rate: '7.25',
          tax: '13.05',
          total: '193.05',
          adjustments: [{ promotion_id: expect.any(Number), amount: '20.00' }],
        },
        {
          alias: 'est-b',
          product_variant_id: expect.any(Number),
          name: 'Est B - est-b',
          product_name: 'Est B',
          variant_name: 'est-b',
          sku: null,
          options: [],
          image: null,
          tax_class: 'Reduced',
          quantity: 1,
          unit_price: '20.00',
          subtotal: '20.00',
          discount: '2.00',
          tax_rate: '2.00',
          tax: '0.36',
          total: '18.36',
          adjustments: [{ promotion_id: expect.any(Number), amount: '2.00' }],
        },
      ],
      tax_details: [
        { tax_class: 'Standard', tax_percentage: '7.25', tax_amount: '13.05' },
        { tax_class: 'Reduced', tax_percentage: '2.00', tax_amount: '0.36' },
      ],
    });
  });

  it('gives identical answers for a GET body, GET ?payload= and POST', async () => {
    const payload = { ...order, shipping_method_id: standardShipping };
    const post = await estimate(payload);
    const getBody = await t.app.inject({ method: 'GET', url, payload });
    const getQuery = await t.app.inject({
      method: 'GET',
      url: `${url}?payload=${encodeURIComponent(JSON.stringify(payload))}`,
    });
    expect(getBody.statusCode).toBe(200);
    expect(getBody.body).toBe(post.body);
    expect(getQuery.body).toBe(post.body);
  });

  it('falls back to the country rate outside a state with its own rate; taxes nothing without a class', async () => {
    const res = json(
      await estimate({ variants: [{ alias: 'est-a' }, { alias: 'est-c' }], shipping_address: { ...CA, state: 'TX' } }),
    );
    expect(res.lines.map((l: { tax_rate: string; tax: string }) => [l.tax_rate, l.tax])).toEqual([
      ['5.00', '5.00'],
      ['0.00', '0.00'],
    ]);
    expect(res.total).toBe('115.00');
  });

  it('ignores an inactive tax rate', async () => {
    const res = json(await estimate({ variants: [{ alias: 'est-a' }], shipping_address: { ...CA, state: 'NY' } }));
    expect(res.lines[0].tax_rate).toBe('5.00');
  });

  it('charges no tax and no shipping without an address', async () => {
    expect(json(await estimate({ variants: [{ alias: 'est-a' }] }))).toMatchObject({
      subtotal: '100.00',
      estimated_tax: '0.00',
      shipping_fee: '0.00',
      total: '100.00',
    });
  });

  it('sums lines with the same alias', async () => {
    const res = json(
      await estimate({
        variants: [
          { alias: 'est-c', quantity: 2 },
          { alias: 'est-c', quantity: 3 },
        ],
      }),
    );
    expect(res.lines).toHaveLength(1);
    expect(res.lines[0]).toMatchObject({ quantity: 5, subtotal: '50.00' });
  });

  it("uses a stored address of the caller by id, and treats another user's id as not found", async () => {
    const own = json(await estimate({ variants: [{ alias: 'est-a' }], shipping_address_id: bobAddressId }, bob));
    expect(own.lines[0].tax_rate).toBe('7.25');
    expectProblem(
      await estimate({ variants: [{ alias: 'est-a' }], shipping_address_id: bobAddressId }, alice),
      404,
      'not_found',
    );
    expectProblem(
      await estimate({ variants: [{ alias: 'est-a' }], shipping_address_id: bobAddressId }),
      404,
      'not_found',
    );
    expectProblem(
      await estimate({ variants: [{ alias: 'est-a' }], billing_address_id: bobAddressId }, alice),
      404,
      'not_found',
    );
  });

  it('refuses an address given both inline and by id', async () => {
    expectProblem(
      await estimate({ variants: [{ alias: 'est-a' }], shipping_address: CA, shipping_address_id: bobAddressId }, bob),
      422,
      'validation_error',
    );
    expectProblem(
      await estimate({ variants: [{ alias: 'est-a' }], billing_address: CA, billing_address_id: bobAddressId }, bob),
      422,
      'validation_error',
    );
  });

  it.each(['customer_id', 'custom_shipping_amount', 'custom_discount_amount'])(
    'answers %s from a customer or a guest with 403',
    async (field) => {
      const value = field === 'customer_id' ? 1 : { name: 'Special', price: '1.00' };
      expectProblem(await estimate({ variants: [{ alias: 'est-a' }], [field]: value }, alice), 403, 'forbidden');
      expectProblem(await estimate({ variants: [{ alias: 'est-a' }], [field]: value }), 403, 'forbidden');
    },
  );

  it('lets an admin estimate for a customer at their default address, with custom shipping and discount', async () => {
    const res = json(
      await estimate(
        {
          variants: [{ alias: 'est-a' }],
          customer_id: bob.id,
          custom_shipping_amount: { name: 'Courier', price: '12.00' },
          custom_discount_amount: { name: 'Goodwill', price: '10.00' },
        },
        admin,
      ),
    );
    expect(res).toMatchObject({
      discount: '10.00',
      discount_name: 'Goodwill',
      shipping_fee: '12.00',
      shipping_name: 'Courier',
      estimated_tax: '6.53',
      total: '108.53',
    });
  });

  it('refuses customer_id together with an address, and a custom price with too many decimals', async () => {
    expectProblem(
      await estimate({ variants: [{ alias: 'est-a' }], customer_id: bob.id, shipping_address: CA }, admin),
      422,
      'validation_error',
    );
    expectProblem(
      await estimate({ variants: [{ alias: 'est-a' }], customer_id: 999_999 }, admin),
      422,
      'validation_error',
    );
    const body = expectProblem(
      await estimate({ variants: [{ alias: 'est-a' }], custom_shipping_amount: { name: 'X', price: '1.001' } }, admin),
      422,
      'validation_error',
    );
    expect(body.errors[0].field).toBe('custom_shipping_amount.price');
  });

  it('refuses a custom discount together with a promo code', async () => {
    expectProblem(
      await estimate(
        { variants: [{ alias: 'est-a' }], promocode: 'SAVE10', custom_discount_amount: { name: 'X', price: '1.00' } },
        admin,
      ),
      422,
      'validation_error',
    );
  });

  it('needs an address for a shipping method', async () => {
    expectProblem(
      await estimate({ variants: [{ alias: 'est-a' }], shipping_method_id: standardShipping }),
      422,
      'address_required',
    );
  });

  it('answers a method without a rate for the address with shipping_unavailable', async () => {
    expectProblem(
      await estimate({ variants: [{ alias: 'est-a' }], shipping_address: CA, shipping_method_id: gbOnlyShipping }),
      422,
      'shipping_unavailable',
    );
    // Over the heaviest bracket: 30 × 500 g = 15 kg.
    expectProblem(
      await estimate({
        variants: [{ alias: 'est-a', quantity: 30 }],
        shipping_address: CA,
        shipping_method_id: standardShipping,
      }),
      422,
      'shipping_unavailable',
    );
  });

  it('refuses an unknown or inactive shipping method', async () => {
    for (const id of [inactiveShipping, 999_999]) {
      const body = expectProblem(
        await estimate({ variants: [{ alias: 'est-a' }], shipping_address: CA, shipping_method_id: id }),
        422,
        'validation_error',
      );
      expect(body.errors[0].field).toBe('shipping_method_id');
    }
  });

  it('names the line of an unknown alias and of an archived product', async () => {
    const unknown = expectProblem(
      await estimate({ variants: [{ alias: 'est-a' }, { alias: 'nope' }] }),
      422,
      'unknown_variant',
    );
    expect(unknown.errors).toEqual([{ field: 'variants[1].alias', message: expect.stringContaining('nope') }]);
    const gone = expectProblem(await estimate({ variants: [{ alias: 'est-gone' }] }), 422, 'variant_unavailable');
    expect(gone.errors[0].field).toBe('variants[0].alias');
  });

  it.each([
    [{}, 'variants'],
    [{ variants: [] }, 'variants'],
    [{ variants: [{ alias: 'est-a', quantity: '2' }] }, 'variants[0].quantity'],
    [{ variants: [{ alias: 'est-a', quantity: 0 }] }, 'variants[0].quantity'],
    [{ variants: [{ alias: 'est-a' }], shipping_address: { city: 'X' } }, 'shipping_address.country'],
    [{ variants: [{ alias: 'est-a' }], shipping_address: { ...CA, country: 'ZZ' } }, 'shipping_address.country'],
    [{ variants: [{ alias: 'est-a' }], shipping_address: { ...CA, email: 'nope' } }, 'shipping_address.email'],
    [{ variants: [{ alias: 'est-a' }], coupon: 'SAVE10' }, 'coupon'],
    [{ variants: [{ alias: 'est-a', price: '0.01' }] }, 'variants[0].price'],
  ])('refuses %o with 422 naming %s', async (payload, field) => {
    const body = expectProblem(await estimate(payload), 422, 'validation_error');
    expect(body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('answers GET problems as problem+json: no payload, malformed ?payload=, both, wrong content type', async () => {
    expectProblem(await t.app.inject({ method: 'GET', url }), 422, 'validation_error');
    expectProblem(await t.app.inject({ method: 'GET', url: `${url}?payload=%7Bnot-json` }), 400, 'malformed_json');
    expectProblem(
      await t.app.inject({ method: 'GET', url: `${url}?payload=%7B%7D`, payload: { variants: [] } }),
      400,
      'bad_request',
    );
    expectProblem(
      await t.app.inject({ method: 'GET', url, headers: { 'content-type': 'text/plain' }, payload: 'variants' }),
      415,
      'unsupported_media_type',
    );
    expectProblem(
      await t.app.inject({
        method: 'GET',
        url,
        headers: { 'content-type': 'application/json' },
        payload: '{"variants": [',
      }),
      400,
      'malformed_json',
    );
  });

  it('changes nothing: stock and promo usage stay as they were', async () => {
    const before = await t.database.db.select().from(productVariants).where(eq(productVariants.alias, 'est-a'));
    await estimate({ ...order, shipping_method_id: standardShipping });
    const after = await t.database.db.select().from(productVariants).where(eq(productVariants.alias, 'est-a'));
    expect(after[0]?.stock).toBe(before[0]?.stock);
    const [save10] = await t.database.db.select().from(promotions).where(eq(promotions.code, 'SAVE10'));
    expect(save10?.timesUsed).toBe(0);
  });
});

describe('promo codes in the estimate', () => {
  const withCode = (promocode: string, extra: object = {}) => ({
    variants: [{ alias: 'est-a' }, { alias: 'est-b' }],
    promocode,
    ...extra,
  });

  it('matches codes case-insensitively', async () => {
    expect(json(await estimate(withCode('save10'))).discount).toBe('12.00');
  });

  it('applies fixed codes capped at the subtotal, and free shipping', async () => {
    expect(json(await estimate(withCode('FIVE'))).discount).toBe('5.00');
    expect(json(await estimate(withCode('HUGE'))).discount).toBe('120.00');
    const free = json(
      await estimate(withCode('FREESHIP', { shipping_address: CA, shipping_method_id: standardShipping })),
    );
    // The fee shows before its discount, and the discount includes it (SPEC section 10): the total is as if shipping
    // were free.
    expect(free).toMatchObject({ shipping_fee: '4.38', shipping_discount: '4.38', discount: '4.38' });
    expect(free.total).toBe(json(await estimate(withCode('FREESHIP', { shipping_address: CA }))).total);
  });

  it('discounts only the products a scoped code names', async () => {
    const res = json(await estimate(withCode('BONLY')));
    expect(res.discount).toBe('10.00');
    expect(res.lines.map((l: { discount: string }) => l.discount)).toEqual(['0.00', '10.00']);
  });

  it.each([
    ['NOSUCH', undefined, /no promo code NOSUCH/],
    ['INACTIVE', undefined, /not active/],
    ['FUTURE', undefined, /valid from/],
    ['EXPIRED', undefined, /expired/],
    ['MIN1000', undefined, /at least 1000\.00 USD/],
    ['LIMITED', undefined, /maximum number of times/],
    ['ONCEEACH', 'alice', /per customer/],
    ['VIPONLY', 'bob', /specific customers/],
    ['VIPONLY', undefined, /specific customers; sign in/],
    ['WELCOME', 'returning', /first order/],
  ])('refuses %s (as %s) with 422 promo_code_invalid saying why', async (code, who, detail) => {
    const caller = who === 'alice' ? alice : who === 'bob' ? bob : who === 'returning' ? returning : undefined;
    const body = expectProblem(await estimate(withCode(code), caller), 422, 'promo_code_invalid');
    expect(body.detail).toMatch(detail);
  });

  it('lets the named customer use a reserved code and a new customer use a welcome code', async () => {
    expect(json(await estimate(withCode('VIPONLY'), vip)).discount).toBe('12.00');
    expect(json(await estimate(withCode('WELCOME'), bob)).discount).toBe('12.00');
    expect(json(await estimate(withCode('ONCEEACH'), bob)).discount).toBe('12.00');
  });

  it("counts a guest's previous orders by email for a welcome code", async () => {
    const body = expectProblem(
      await estimate(withCode('WELCOME', { shipping_address: { ...CA, email: returning.email.toUpperCase() } })),
      422,
      'promo_code_invalid',
    );
    expect(body.detail).toMatch(/first order/);
  });
});

describe('currency precision in the estimate', () => {
  it('prices a KWD store with three decimals', async () => {
    const store = await buildTestApp({ config: { storeCurrency: 'KWD' } });
    try {
      const boss = await signInAdmin(store);
      await store.app.inject({
        method: 'POST',
        url: '/product/dashboard/api/products/',
        headers: bearer(boss.access),
        payload: { name: 'K', variants: [{ alias: 'kwd-1', name: 'K', price: '1.255' }] },
      });
      const res = json(
        await store.app.inject({ method: 'POST', url, payload: { variants: [{ alias: 'kwd-1', quantity: 3 }] } }),
      );
      expect(res).toMatchObject({ currency: 'KWD', subtotal: '3.765', total: '3.765' });
    } finally {
      await store.close();
    }
  });
});

describe('promo-code guessing', () => {
  it('limits requests that carry a promo code per client, and leaves the others alone', async () => {
    const store = await buildTestApp({ config: { promoRateLimitPerMinute: 3 } });
    try {
      const boss = await signInAdmin(store);
      await store.app.inject({
        method: 'POST',
        url: '/product/dashboard/api/products/',
        headers: bearer(boss.access),
        payload: { name: 'P', variants: [{ alias: 'rl-1', name: 'P', price: '1.00' }] },
      });
      await store.app.inject({
        method: 'POST',
        url: '/discount/dashboard/api/promo-codes/',
        headers: bearer(boss.access),
        payload: { code: 'REAL10', code_type: 'percentage', value: '10' },
      });
      const guess = (code: string) =>
        store.app.inject({ method: 'POST', url, payload: { variants: [{ alias: 'rl-1' }], promocode: code } });
      for (const code of ['A1', 'B2', 'C3']) expectProblem(await guess(code), 422, 'promo_code_invalid');
      const limited = await guess('D4');
      expectProblem(limited, 429, 'rate_limited');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // Past the limit a good code is refused alike: the answer tells nothing about the code.
      expectProblem(await guess('REAL10'), 429, 'rate_limited');
      const viaGet = await store.app.inject({
        method: 'GET',
        url,
        payload: { variants: [{ alias: 'rl-1' }], promocode: 'E5' },
      });
      expectProblem(viaGet, 429, 'rate_limited');
      expect(
        (await store.app.inject({ method: 'POST', url, payload: { variants: [{ alias: 'rl-1' }] } })).statusCode,
      ).toBe(200);
    } finally {
      await store.close();
    }
  });
});
