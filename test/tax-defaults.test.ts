import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '../src/db/schema.js';
import { bearer, buildTestApp, json, type SignedIn, signInAdmin, type TestApp } from './helpers.js';

// Default tax rates (tax_class_id null) and a shipping method's tax class, end to end: admin API,
// estimate and placement (which must agree), and the reference cache hearing changes made with SQL.
// The store taxes shipping (SHIPPING_TAXABLE) and rounds half up; figures are worked out by hand.

const estimateUrl = '/order/storefront/api/estimate/';
const guestCreate = '/order/storefront/api/guest-user-order-create/';
const address = (state: string) => ({
  first_name: 'Ada',
  last_name: 'L',
  street_address: '1 Main St',
  city: 'Somewhere',
  postal_code: '90001',
  state,
  country: 'US',
  email: 'defaults@example.com',
});

let t: TestApp;
let admin: SignedIn;
let freight: number;
let ground: number;
let plain: number;

async function post(path: string, payload: object) {
  const res = await t.app.inject({ method: 'POST', url: path, headers: bearer(admin.access), payload });
  if (res.statusCode !== 201) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
  return json(res);
}

const order = (state: string, shippingMethodId: number) => ({
  variants: [
    { alias: 'td-tee', quantity: 2 },
    { alias: 'td-mug', quantity: 1 },
    { alias: 'td-card', quantity: 1 },
  ],
  shipping_address: address(state),
  shipping_method_id: shippingMethodId,
});

async function estimate(payload: object) {
  const res = await t.app.inject({ method: 'POST', url: estimateUrl, payload });
  if (res.statusCode !== 200) throw new Error(`estimate: ${res.statusCode} ${res.body}`);
  return json(res);
}

/** Polls until `check` passes: on PostgreSQL a change reaches the cache when its notification arrives. */
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

beforeAll(async () => {
  t = await buildTestApp({ config: { shippingTaxable: true, roundingMode: 'half_up' } });
  admin = await signInAdmin(t);
  const standard = (await post('/tax/dashboard/api/tax-classes/', { name: 'Standard' })).id;
  const reduced = (await post('/tax/dashboard/api/tax-classes/', { name: 'Reduced' })).id;
  freight = (await post('/tax/dashboard/api/tax-classes/', { name: 'Freight' })).id;
  // Standard: California only. Reduced: no rate of its own. Freight: the whole US.
  await post('/tax/dashboard/api/tax-rates/', { tax_class_id: standard, country: 'US', state: 'CA', rate: '7.25' });
  await post('/tax/dashboard/api/tax-rates/', { tax_class_id: freight, country: 'US', rate: '5' });
  await post('/tax/dashboard/api/tax-rates/', { tax_class_id: null, country: 'US', state: 'CA', rate: '8' });
  await post('/tax/dashboard/api/tax-rates/', { tax_class_id: null, country: 'US', rate: '6' });
  const product = ({
    name,
    taxClassId,
    alias,
    price,
  }: {
    name: string;
    taxClassId: number | null;
    alias: string;
    price: string;
  }) =>
    post('/product/dashboard/api/products/', {
      name,
      tax_class_id: taxClassId,
      variants: [{ alias, name, price, stock: 100 }],
    });
  await product({ name: 'Tee', taxClassId: standard, alias: 'td-tee', price: '25.00' });
  await product({ name: 'Mug', taxClassId: reduced, alias: 'td-mug', price: '14.50' });
  await product({ name: 'Gift card', taxClassId: null, alias: 'td-card', price: '10.00' });
  ground = (await post('/shipping/dashboard/api/shipping-methods/', { name: 'Ground', tax_class_id: freight })).id;
  plain = (await post('/shipping/dashboard/api/shipping-methods/', { name: 'Plain' })).id;
  for (const method of [ground, plain]) {
    const rate = { shipping_method_id: method, country: 'US', weight_min_kg: '0', base_rate: '5.00' };
    await post('/shipping/dashboard/api/shipping-rates/', rate);
  }
});

afterAll(async () => {
  await t?.close();
});

describe('estimate and placement with default tax rates and a shipping tax class', () => {
  it("taxes a class without a rate at the default, a classless line at 0, shipping at its class's rate", async () => {
    const body = await estimate(order('CA', ground));
    // tee 50.00 × 7.25% = 3.625 → 3.63 (its own rate); mug 14.50 × 8% = 1.16 (the Californian default);
    // gift card: no class, untaxed; shipping 5.00 × 5% = 0.25 (Freight's own US rate)
    const taxes = body.lines.map((l: { alias: string; tax_rate: string; tax: string }) => [l.alias, l.tax_rate, l.tax]);
    expect(taxes).toEqual([
      ['td-tee', '7.25', '3.63'],
      ['td-mug', '8.00', '1.16'],
      ['td-card', '0.00', '0.00'],
    ]);
    expect(body).toMatchObject({ subtotal: '74.50', shipping_fee: '5.00', estimated_tax: '5.04', total: '84.54' });
    expect(body.tax_details).toEqual([
      { tax_class: 'Standard', tax_percentage: '7.25', tax_amount: '3.63' },
      { tax_class: 'Reduced', tax_percentage: '8.00', tax_amount: '1.16' },
      { tax_class: 'Shipping', tax_percentage: '5.00', tax_amount: '0.25' },
    ]);
  });

  it('takes the country-wide default where no state rate applies', async () => {
    // tee and mug at the US default 6%: 3.00 + 0.87; shipping 0.25 → 74.50 + 5.00 + 4.12
    expect(await estimate(order('TX', ground))).toMatchObject({ estimated_tax: '4.12', total: '83.62' });
  });

  it('taxes shipping of a method without a class at the highest line rate, as before', async () => {
    // 5.00 × 8% (the mug's default rate, above the tee's 7.25) = 0.40 → 3.63 + 1.16 + 0.40
    expect(await estimate(order('CA', plain))).toMatchObject({ estimated_tax: '5.19', total: '84.69' });
  });

  it('places the order at exactly the estimated figures', async () => {
    const estimated = await estimate(order('CA', ground));
    const res = await t.app.inject({ method: 'POST', url: guestCreate, payload: order('CA', ground) });
    expect(res.statusCode, res.body).toBe(201);
    const placed = json(res);
    for (const key of Object.keys(estimated)) expect([key, placed[key]]).toEqual([key, estimated[key]]);
    const [stored] = await t.database.db
      .select({ rate: orders.shippingTaxRate, tax: orders.shippingTax })
      .from(orders)
      .where(eq(orders.id, placed.order_id));
    expect([Number(stored?.rate), stored?.tax]).toEqual([5, 25]);
  });
});

describe('changes to default rates and shipping tax classes made with SQL', () => {
  const exec = (query: string) => t.database.db.execute(sql.raw(query));

  it('reach the estimate once the database announces them', async () => {
    expect(await estimate(order('CA', ground))).toMatchObject({ estimated_tax: '5.04' });
    // Without its class, Ground ships at the highest line rate (8%): 3.63 + 1.16 + 0.40.
    await exec(`update shipping_methods set tax_class_id = null where id = ${ground}`);
    await eventually(async () => expect(await estimate(order('CA', ground))).toMatchObject({ estimated_tax: '5.19' }));
    // Back to Freight, then deleting Freight (ON DELETE SET NULL) does the same.
    await exec(`update shipping_methods set tax_class_id = ${freight} where id = ${ground}`);
    await eventually(async () => expect(await estimate(order('CA', ground))).toMatchObject({ estimated_tax: '5.04' }));
    await exec(`delete from tax_classes where id = ${freight}`);
    await eventually(async () => expect(await estimate(order('CA', ground))).toMatchObject({ estimated_tax: '5.19' }));
    // Without the Californian default the mug takes the US one (0.87), and shipping, classless now, the
    // highest line rate: 5.00 × 7.25% = 0.3625 → 0.36; 3.63 + 0.87 + 0.36.
    await exec(`delete from tax_rates where tax_class_id is null and state = 'CA'`);
    await eventually(async () => expect(await estimate(order('CA', ground))).toMatchObject({ estimated_tax: '4.86' }));
  });
});
