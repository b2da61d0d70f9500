import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productVariants, promotions } from '../src/db/schema.js';
import { adminApi, apiAs, insertPromoCodes } from './fixtures.js';
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
let variant: { id: number; alias: string };
const address = {
  first_name: 'G',
  last_name: 'H',
  street_address: '1 A St',
  city: 'Reno',
  postal_code: '89501',
  state: 'NV',
  country: 'US',
  email: 'guest.orders@example.com',
};

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signInAdmin(t);
  [alice, bob] = [await signUp(t.app), await signUp(t.app)];
  const product = await adminApi(t, admin).product({
    name: 'Orders',
    variants: [{ alias: 'ord-1', name: 'One', price: '12.34', stock: 100 }],
  });
  variant = { id: product.variants[0]!.id, alias: 'ord-1' };
  await insertPromoCodes(t.database.db, [
    { code: 'ONEEACH', codeType: 'percentage', value: '10', usageLimitPerCustomer: 1, redemptionLimit: 100 },
  ]);
});
afterAll(() => t.close());

function placeAs(user: SignedIn | null, payload: object = {}) {
  return apiAs(t, user ?? undefined).post('/order/storefront/api/create/', {
    variants: [{ alias: variant.alias, quantity: 2 }],
    ...(user ? {} : { shipping_address: address }),
    ...payload,
  });
}
const stock = async () =>
  (await t.database.db.select().from(productVariants).where(eq(productVariants.id, variant.id)))[0]?.stock;
const detailUrl = (alias: string) => `/order/storefront/api/orders/${alias}/`;
const adminUrl = (alias: string) => `/order/dashboard/api/orders/${alias}/`;
const setStatus = (alias: string, status: string, who = admin) =>
  t.app.inject({ method: 'PATCH', url: adminUrl(alias), headers: bearer(who.access), payload: { status } });

describe('storefront orders', () => {
  it("lists the caller's own orders, newest first, page by page", async () => {
    const placed = [await placeAs(alice), await placeAs(alice), await placeAs(alice)];
    await placeAs(bob);
    const first = json(
      await t.app.inject({
        method: 'GET',
        url: '/order/storefront/api/orders/?limit=2',
        headers: bearer(alice.access),
      }),
    );
    expect(first.items.map((o: { order_id: number }) => o.order_id)).toEqual([placed[2].order_id, placed[1].order_id]);
    const second = json(
      await t.app.inject({
        method: 'GET',
        url: `/order/storefront/api/orders/?limit=2&cursor=${first.next_cursor}`,
        headers: bearer(alice.access),
      }),
    );
    expect(second.items.map((o: { order_id: number }) => o.order_id)).toEqual([placed[0].order_id]);
    expect(second.next_cursor).toBeNull();
    expect(first.items[0]).toMatchObject({
      status: 'pending',
      payment_status: 'unpaid',
      total: '24.68',
      currency: 'USD',
      customer_id: alice.id,
    });
    expectProblem(await t.app.inject({ method: 'GET', url: '/order/storefront/api/orders/' }), 401, 'unauthorized');
  });

  it('shows an order to its owner, an admin, and the holder of its token, and to nobody else', async () => {
    const own = await placeAs(alice);
    const ownDetail = json(
      await t.app.inject({ method: 'GET', url: detailUrl(own.order_alias), headers: bearer(alice.access) }),
    );
    expect(ownDetail).toMatchObject({
      order_alias: own.order_alias,
      total: own.total,
      lines: [{ alias: 'ord-1', quantity: 2, unit_price: '12.34', total: '24.68' }],
    });
    expect(
      (await t.app.inject({ method: 'GET', url: detailUrl(own.order_alias), headers: bearer(admin.access) }))
        .statusCode,
    ).toBe(200);
    expectProblem(
      await t.app.inject({ method: 'GET', url: detailUrl(own.order_alias), headers: bearer(bob.access) }),
      404,
      'order_not_found',
    );
    expectProblem(await t.app.inject({ method: 'GET', url: detailUrl(own.order_alias) }), 404, 'order_not_found');

    const guest = await placeAs(null);
    const viaToken = await t.app.inject({
      method: 'GET',
      url: detailUrl(guest.order_alias),
      headers: { 'x-order-token': guest.order_token },
    });
    expect(json(viaToken)).toMatchObject({
      email: 'guest.orders@example.com',
      shipping_address: { postal_code: '89501' },
      customer_id: null,
    });
    expectProblem(
      await t.app.inject({ method: 'GET', url: detailUrl(guest.order_alias), headers: { 'x-order-token': 'wrong' } }),
      404,
      'order_not_found',
    );
    expectProblem(
      await t.app.inject({
        method: 'GET',
        url: detailUrl(guest.order_alias),
        headers: { 'x-order-token': own.order_token ?? 'x' },
      }),
      404,
      'order_not_found',
    );
    expectProblem(
      await t.app.inject({ method: 'GET', url: detailUrl(guest.order_alias), headers: bearer(alice.access) }),
      404,
      'order_not_found',
    );
  });

  it('answers a malformed or unknown alias with 422 or 404', async () => {
    expectProblem(
      await t.app.inject({ method: 'GET', url: detailUrl('not-an-alias'), headers: bearer(admin.access) }),
      422,
      'validation_error',
    );
    expectProblem(
      await t.app.inject({
        method: 'GET',
        url: detailUrl('00000000-0000-0000-0000-000000000000'),
        headers: bearer(admin.access),
      }),
      404,
      'order_not_found',
    );
  });
});

describe('admin orders', () => {
  it('filters by status, payment status, customer and date', async () => {
    const a = await placeAs(bob);
    await setStatus(a.order_alias, 'approved');
    const approved = json(
      await t.app.inject({
        method: 'GET',
        url: `/order/dashboard/api/orders/?status=approved&customer_id=${bob.id}`,
        headers: bearer(admin.access),
      }),
    );
    expect(approved.items.map((o: { order_alias: string }) => o.order_alias)).toEqual([a.order_alias]);
    const unpaid = json(
      await t.app.inject({
        method: 'GET',
        url: '/order/dashboard/api/orders/?payment_status=unpaid&limit=100',
        headers: bearer(admin.access),
      }),
    );
    expect(unpaid.items.length).toBeGreaterThan(1);
    const future = encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString());
    expect(
      json(
        await t.app.inject({
          method: 'GET',
          url: `/order/dashboard/api/orders/?created_from=${future}`,
          headers: bearer(admin.access),
        }),
      ).items,
    ).toEqual([]);
    expectProblem(
      await t.app.inject({
        method: 'GET',
        url: '/order/dashboard/api/orders/?status=lost',
        headers: bearer(admin.access),
      }),
      422,
      'validation_error',
    );
    expectProblem(
      await t.app.inject({
        method: 'GET',
        url: '/order/dashboard/api/orders/?created_from=yesterday',
        headers: bearer(admin.access),
      }),
      422,
      'validation_error',
    );
    expectProblem(
      await t.app.inject({ method: 'GET', url: '/order/dashboard/api/orders/', headers: bearer(alice.access) }),
      403,
      'forbidden',
    );
  });

  it('moves an order along pending → approved → processing → shipped → delivered, no skips or steps back', async () => {
    const order = await placeAs(alice);
    expectProblem(await setStatus(order.order_alias, 'shipped'), 409, 'invalid_transition');
    for (const status of ['approved', 'processing', 'shipped', 'delivered']) {
      const res = await setStatus(order.order_alias, status);
      expect(json(res).status).toBe(status);
    }
    const body = expectProblem(await setStatus(order.order_alias, 'cancelled'), 409, 'invalid_transition');
    expect(body.allowed).toEqual([]);
    expectProblem(await setStatus(order.order_alias, 'refunded'), 422, 'validation_error');
    expectProblem(await setStatus(order.order_alias, 'approved', alice), 403, 'forbidden');
  });

  it('tells admins where an order may go next at each step, as its state machine says; customers nothing', async () => {
    const order = await placeAs(alice);
    const adminView = async () =>
      json(
        await t.app.inject({
          method: 'GET',
          url: `/order/dashboard/api/orders/${order.order_alias}/`,
          headers: bearer(admin.access),
        }),
      );
    expect((await adminView()).next_statuses).toEqual(['approved', 'cancelled']);
    const expected: Record<string, string[]> = {
      approved: ['processing', 'cancelled'],
      // Cancelled while nothing of it has shipped (the order state machine's `nothingShipped`).
      processing: ['shipped', 'cancelled'],
      shipped: ['delivered'],
      delivered: [],
    };
    for (const [status, next] of Object.entries(expected)) {
      const changed = json(await setStatus(order.order_alias, status));
      expect(changed.next_statuses).toEqual(next);
      expect((await adminView()).next_statuses).toEqual(next);
    }
    const own = json(
      await t.app.inject({
        method: 'GET',
        url: `/order/storefront/api/orders/${order.order_alias}/`,
        headers: bearer(alice.access),
      }),
    );
    expect(own).not.toHaveProperty('next_statuses');
  });

  it('cancelling gives back the stock and the promo-code use', async () => {
    const before = await stock();
    const order = await placeAs(alice, { promocode: 'ONEEACH' });
    expect(await stock()).toBe((before ?? 0) - 2);
    await expect(placeAs(alice, { promocode: 'ONEEACH' })).rejects.toThrow(/promo_code_invalid/);
    const res = await setStatus(order.order_alias, 'cancelled');
    expect(json(res).status).toBe('cancelled');
    expect(await stock()).toBe(before);
    const [promo] = await t.database.db.select().from(promotions).where(eq(promotions.code, 'ONEEACH'));
    expect(promo?.timesUsed).toBe(0);
    expect((await placeAs(alice, { promocode: 'ONEEACH' })).discount).toBe('2.47');
  });

  it('keeps stock and promo-code counts exact when cancellations race placements of one code and variant', async () => {
    await insertPromoCodes(t.database.db, [{ code: 'RACEMIX', codeType: 'percentage', value: '5' }]);
    await t.database.db.update(productVariants).set({ stock: 1000 }).where(eq(productVariants.id, variant.id));
    const [stockBefore, placedFirst] = [
      await stock(),
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          placeAs(null, {
            promocode: 'RACEMIX',
            shipping_address: { ...address, email: `mix-first-${i}@example.com` },
          }),
        ),
      ),
    ];
    const usage = async () =>
      (await t.database.db.select().from(promotions).where(eq(promotions.code, 'RACEMIX')))[0]?.timesUsed;
    expect(await usage()).toBe(10);
    const [cancels, placements] = await Promise.all([
      Promise.all(placedFirst.map((o) => setStatus(o.order_alias, 'cancelled'))),
      Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          t.app.inject({
            method: 'POST',
            url: '/order/storefront/api/create/',
            payload: {
              variants: [{ alias: variant.alias, quantity: 2 }],
              promocode: 'RACEMIX',
              shipping_address: { ...address, email: `mix-then-${i}@example.com` },
            },
          }),
        ),
      ),
    ]);
    expect(cancels.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect(placements.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    // Ten placed and cancelled, ten placed: ten orders' stock taken and ten uses counted.
    expect(await stock()).toBe((stockBefore ?? 0) - 20);
    expect(await usage()).toBe(10);
  });

  it('cancels an order once when two cancellations race', async () => {
    const before = await stock();
    const order = await placeAs(bob);
    const results = await Promise.all([1, 2, 3].map(() => setStatus(order.order_alias, 'cancelled')));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    expect(await stock()).toBe(before);
  });
});

describe('order lines', () => {
  it('keep the product, variant, SKU, options and tax class they were sold as, whatever the catalog does', async () => {
    const api = adminApi(t, admin);
    const taxClass = await api.taxClass({ name: 'Apparel' });
    const product = await api.product({
      name: 'Organic Cotton T-Shirt',
      tax_class_id: taxClass.id,
      variants: [{ alias: 'lines-shirt-s', name: 'Small', sku: 'LINES-S', price: '25.00', stock: 10 }],
    });
    const sold = {
      name: 'Organic Cotton T-Shirt - Small',
      product_name: 'Organic Cotton T-Shirt',
      variant_name: 'Small',
      sku: 'LINES-S',
      options: [],
      tax_class: 'Apparel',
      unit_price: '25.00',
    };
    const placed = await apiAs(t).post('/order/storefront/api/create/', {
      variants: [{ alias: 'lines-shirt-s', quantity: 1 }],
      shipping_address: address,
    });
    expect(placed.lines).toEqual([expect.objectContaining(sold)]);

    const asCustomer = () =>
      t.app.inject({
        method: 'GET',
        url: detailUrl(placed.order_alias),
        headers: { 'x-order-token': placed.order_token },
      });
    const asAdmin = () => apiAs(t, admin).get(adminUrl(placed.order_alias));
    expect(json(await asCustomer()).lines).toEqual([expect.objectContaining(sold)]);
    expect((await asAdmin()).lines).toEqual([expect.objectContaining(sold)]);

    const variantId = product.variants[0]?.id;
    await api.patch(`/product/dashboard/api/products/${product.id}/`, { name: 'Recycled T-Shirt', tax_class_id: null });
    await api.patch(`/product/dashboard/api/variants/${variantId}/`, { name: 'S', sku: 'LINES-S2' });
    expect(json(await asCustomer()).lines).toEqual([expect.objectContaining(sold)]);
    expect((await asAdmin()).lines).toEqual([expect.objectContaining(sold)]);

    const next = await apiAs(t).post('/order/storefront/api/create/', {
      variants: [{ alias: 'lines-shirt-s', quantity: 1 }],
      shipping_address: address,
    });
    expect(next.lines).toEqual([
      expect.objectContaining({ name: 'Recycled T-Shirt - S', sku: 'LINES-S2', tax_class: null }),
    ]);
  });
});
