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
  uniqueEmail,
} from './helpers.js';

let t: TestApp;
let admin: SignedIn;
beforeAll(async () => {
  t = await buildTestApp({ config: { maxCartLines: 5, maxLineQuantity: 999 } });
  admin = await signInAdmin(t);
});
afterAll(() => t.close());

const cartUrl = '/cart/storefront/api/carts/';
const addUrl = '/cart/storefront/api/carts/add/';
const updateUrl = '/cart/storefront/api/carts/update/';
const removeUrl = (id: number) => `/cart/storefront/api/carts/remove/${id}/`;

interface VariantSpec {
  price?: string;
  stock?: number;
  track_inventory?: boolean;
  allow_backorder?: boolean;
  purchase_limit_per_order?: number;
}

/** Creates a product with one variant per spec and returns the variant ids. */
async function variants(...specs: VariantSpec[]): Promise<number[]> {
  const product = await adminApi(t, admin).product({
    name: 'Cart test product',
    variants: specs.map((s, i) => ({ name: `V${i}`, price: '10.00', stock: 100, ...s })),
  });
  return product.variants.map((v) => v.id);
}

function headersFor(who: { token?: string; user?: SignedIn }): Record<string, string> {
  return { ...(who.token ? { 'x-cart-token': who.token } : {}), ...(who.user ? bearer(who.user.access) : {}) };
}
const add = (who: { token?: string; user?: SignedIn }, product_variant_id: number, quantity?: number) =>
  t.app.inject({
    method: 'POST',
    url: addUrl,
    headers: headersFor(who),
    payload: quantity === undefined ? { product_variant_id } : { product_variant_id, quantity },
  });
const update = (who: { token?: string; user?: SignedIn }, product_variant_id: number, quantity: number) =>
  t.app.inject({ method: 'PUT', url: updateUrl, headers: headersFor(who), payload: { product_variant_id, quantity } });
const list = (who: { token?: string; user?: SignedIn }) =>
  t.app.inject({ method: 'GET', url: cartUrl, headers: headersFor(who) });
const remove = (who: { token?: string; user?: SignedIn }, id: number) =>
  t.app.inject({ method: 'DELETE', url: removeUrl(id), headers: headersFor(who) });

describe('guest carts', () => {
  it('issues a token on first add, in the header and the body, and keeps the cart behind it', async () => {
    const [a, b] = await variants({ price: '50.29' }, { price: '1.10' });
    const first = await add({}, a ?? 0, 40);
    expect(first.statusCode).toBe(200);
    const token = first.headers['x-cart-token'] as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(json(first).cart_token).toBe(token);

    await add({ token }, b ?? 0); // quantity defaults to 1
    const cart = json(await list({ token }));
    expect(cart).toEqual({
      items: [
        {
          product_variant_id: a,
          alias: expect.any(String),
          name: 'V0',
          product_name: 'Cart test product',
          sku: null,
          options: [],
          image: null,
          unit_price: '50.29',
          quantity: 40,
          subtotal: '2011.60',
          available: true,
        },
        {
          product_variant_id: b,
          alias: expect.any(String),
          name: 'V1',
          product_name: 'Cart test product',
          sku: null,
          options: [],
          image: null,
          unit_price: '1.10',
          quantity: 1,
          subtotal: '1.10',
          available: true,
        },
      ],
      total_items: 41,
      subtotal: '2012.70',
      currency: 'USD',
      cart_token: token,
    });
  });

  it('gives a guest without a token an empty cart and a new token on listing', async () => {
    const res = await list({});
    expect(json(res)).toEqual({
      items: [],
      total_items: 0,
      subtotal: '0.00',
      currency: 'USD',
      cart_token: res.headers['x-cart-token'],
    });
  });

  it('adds to the line, updates to a set quantity, removes at 0 and on delete', async () => {
    const [a, b] = await variants({}, {});
    const token = json(await add({}, a ?? 0, 2)).cart_token;
    expect(json(await add({ token }, a ?? 0, 3)).items[0].quantity).toBe(5);
    expect(json(await update({ token }, a ?? 0, 9)).items[0].quantity).toBe(9);
    await add({ token }, b ?? 0, 1);
    expect(
      json(await update({ token }, a ?? 0, 0)).items.map((i: { product_variant_id: number }) => i.product_variant_id),
    ).toEqual([b]);
    const removed = await remove({ token }, b ?? 0);
    expect(json(removed).items).toEqual([]);
    expectProblem(await remove({ token }, b ?? 0), 404, 'cart_item_not_found');
    expectProblem(await update({ token }, b ?? 0, 3), 404, 'cart_item_not_found');
  });

  it('answers a malformed token with 400 and an unknown (forged) one with 404', async () => {
    const [a] = await variants({});
    expectProblem(await add({ token: 'short' }, a ?? 0), 400, 'invalid_cart_token');
    expectProblem(await list({ token: 'x'.repeat(43) }), 404, 'cart_not_found');
    expectProblem(await add({ token: 'A'.repeat(43) }, a ?? 0), 404, 'cart_not_found');
  });

  it('answers update and remove without any cart with 404', async () => {
    expectProblem(await update({}, 1, 1), 404, 'cart_item_not_found');
    expectProblem(await remove({}, 1), 404, 'cart_item_not_found');
  });
});

describe('cart rules', () => {
  it('refuses more than the stock of a tracked variant with 409 and the available quantity', async () => {
    const [limited] = await variants({ stock: 3 });
    const token = json(await add({}, limited ?? 0, 2)).cart_token;
    const body = expectProblem(await add({ token }, limited ?? 0, 2), 409, 'insufficient_stock');
    expect(body.available).toBe(3);
    expect(body.product_variant_id).toBe(limited);
    expectProblem(await update({ token }, limited ?? 0, 4), 409, 'insufficient_stock');
    expect(json(await list({ token })).items[0].quantity).toBe(2);
  });

  it('does not limit untracked or backorderable variants by stock', async () => {
    const [untracked, backorder] = await variants(
      { stock: 0, track_inventory: false },
      { stock: 0, allow_backorder: true },
    );
    const token = json(await add({}, untracked ?? 0, 50)).cart_token;
    expect((await add({ token }, backorder ?? 0, 50)).statusCode).toBe(200);
  });

  it('holds the purchase limit per order', async () => {
    const [limited] = await variants({ purchase_limit_per_order: 2 });
    const token = json(await add({}, limited ?? 0, 2)).cart_token;
    const body = expectProblem(await add({ token }, limited ?? 0, 1), 422, 'purchase_limit_exceeded');
    expect(body.limit).toBe(2);
  });

  it.each([
    [{ product_variant_id: 1, quantity: 0 }, 'quantity'],
    [{ product_variant_id: 1, quantity: 1000 }, 'quantity'],
    [{ product_variant_id: 1, quantity: -1 }, 'quantity'],
    [{ product_variant_id: 1, quantity: 1.5 }, 'quantity'],
    [{ product_variant_id: 1, quantity: '2' }, 'quantity'],
    [{ product_variant_id: '1', quantity: 1 }, 'product_variant_id'],
    [{ product_variant_id: true }, 'product_variant_id'],
    [{ quantity: 1 }, 'product_variant_id'],
    [{ product_variant_id: 1, quantity: 1, price: '0.01' }, 'price'],
  ])('refuses %o with 422 naming %s', async (payload, field) => {
    const res = await t.app.inject({ method: 'POST', url: addUrl, payload });
    const body = expectProblem(res, 422, 'validation_error');
    expect(body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(res.headers['x-cart-token']).toBeUndefined();
  });

  it('refuses a line that would pass the maximum line quantity', async () => {
    const [a] = await variants({ stock: 5000 });
    const token = json(await add({}, a ?? 0, 999)).cart_token;
    expectProblem(await add({ token }, a ?? 0, 1), 422, 'validation_error');
  });

  it('answers an unknown or archived variant with 404 and creates no cart', async () => {
    const [a] = await variants({});
    await t.app.inject({
      method: 'DELETE',
      url: `/product/dashboard/api/variants/${a}/`,
      headers: bearer(admin.access),
    });
    const archived = await add({}, a ?? 0);
    expectProblem(archived, 404, 'variant_not_found');
    expect(archived.headers['x-cart-token']).toBeUndefined();
    expectProblem(await add({}, 2_000_000_000), 404, 'variant_not_found');
  });

  it('marks a line unavailable once its variant is archived, and still lets it be removed', async () => {
    const [a] = await variants({});
    const token = json(await add({}, a ?? 0, 1)).cart_token;
    await t.app.inject({
      method: 'DELETE',
      url: `/product/dashboard/api/variants/${a}/`,
      headers: bearer(admin.access),
    });
    expect(json(await list({ token })).items[0].available).toBe(false);
    expectProblem(await update({ token }, a ?? 0, 2), 404, 'variant_not_found');
    expect(json(await remove({ token }, a ?? 0)).items).toEqual([]);
  });

  it('caps the number of lines in a cart', async () => {
    const ids = await variants({}, {}, {}, {}, {}, {});
    const token = json(await add({}, ids[0] ?? 0)).cart_token;
    for (const id of ids.slice(1, 5)) expect((await add({ token }, id)).statusCode).toBe(200);
    expectProblem(await add({ token }, ids[5] ?? 0), 422, 'cart_full');
    expect((await add({ token }, ids[0] ?? 0)).statusCode).toBe(200); // an existing line may still grow
  });

  it('shows prices as they are now', async () => {
    const [a] = await variants({ price: '10.00' });
    const token = json(await add({}, a ?? 0, 3)).cart_token;
    await t.app.inject({
      method: 'PATCH',
      url: `/product/dashboard/api/variants/${a}/`,
      headers: bearer(admin.access),
      payload: { price: '12.50' },
    });
    expect(json(await list({ token }))).toMatchObject({
      subtotal: '37.50',
      items: [{ unit_price: '12.50', subtotal: '37.50' }],
    });
  });
});

describe('customer carts', () => {
  it('keeps one cart per user, addressed only by the access token', async () => {
    const [a, b] = await variants({}, {});
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    await add({ user: alice }, a ?? 0, 2);
    await add({ user: bob }, b ?? 0, 7);
    const aliceCart = json(await list({ user: alice }));
    expect(
      aliceCart.items.map((i: { product_variant_id: number; quantity: number }) => [i.product_variant_id, i.quantity]),
    ).toEqual([[a, 2]]);
    expect(aliceCart.cart_token).toBeUndefined();
    expect(
      json(await list({ user: bob })).items.map((i: { product_variant_id: number }) => i.product_variant_id),
    ).toEqual([b]);
    // Bob cannot touch Alice's line: his own cart has no such line.
    expectProblem(await remove({ user: bob }, a ?? 0), 404, 'cart_item_not_found');
    expect(json(await list({ user: alice })).items).toHaveLength(1);
  });

  it('ignores a guest token sent along with an access token', async () => {
    const [a] = await variants({});
    const guestToken = json(await add({}, a ?? 0, 4)).cart_token;
    const carol = await signUp(t.app);
    expect(json(await list({ user: carol, token: guestToken })).items).toEqual([]);
    expect(json(await list({ token: guestToken })).items).toHaveLength(1);
  });

  it('answers an invalid access token with 401 instead of falling back to a guest cart', async () => {
    expectProblem(await t.app.inject({ method: 'GET', url: cartUrl, headers: bearer('nope') }), 401, 'invalid_token');
  });
});

describe('merging a guest cart at sign-in', () => {
  it('adds the guest quantities into the user cart on login, capped at stock, and closes the guest cart', async () => {
    const [shared, onlyGuest, scarce] = await variants({ stock: 100 }, { stock: 100 }, { stock: 5 });
    const user = await signUp(t.app, uniqueEmail(), 'password123');
    await add({ user }, shared ?? 0, 2);
    await add({ user }, scarce ?? 0, 3);
    const token = json(await add({}, shared ?? 0, 5)).cart_token;
    await add({ token }, onlyGuest ?? 0, 1);
    await add({ token }, scarce ?? 0, 4);

    const login = await t.app.inject({
      method: 'POST',
      url: '/user/storefront/api/login/',
      headers: { 'x-cart-token': token },
      payload: { email: user.email, password: 'password123' },
    });
    expect(login.statusCode).toBe(200);
    const cart = json(await list({ user: { ...user, access: json(login).access } }));
    const quantities = Object.fromEntries(
      cart.items.map((i: { product_variant_id: number; quantity: number }) => [i.product_variant_id, i.quantity]),
    );
    expect(quantities).toEqual({ [shared ?? 0]: 7, [onlyGuest ?? 0]: 1, [scarce ?? 0]: 5 });

    expectProblem(await list({ token }), 404, 'cart_not_found');
    expectProblem(await add({ token }, shared ?? 0), 404, 'cart_not_found');
  });

  it('brings the guest cart into a new account on signup', async () => {
    const [a] = await variants({});
    const token = json(await add({}, a ?? 0, 3)).cart_token;
    const res = await t.app.inject({
      method: 'POST',
      url: '/user/storefront/api/signup/',
      headers: { 'x-cart-token': token },
      payload: { email: uniqueEmail(), password: 'password123' },
    });
    expect(res.statusCode).toBe(201);
    const cart = json(await t.app.inject({ method: 'GET', url: cartUrl, headers: bearer(json(res).access) }));
    expect(cart.items.map((i: { quantity: number }) => i.quantity)).toEqual([3]);
  });

  it('signs in normally with a forged, malformed or already merged token', async () => {
    for (const token of ['A'.repeat(43), 'garbage']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/user/storefront/api/signup/',
        headers: { 'x-cart-token': token },
        payload: { email: uniqueEmail(), password: 'password123' },
      });
      expect(res.statusCode).toBe(201);
    }
  });

  it('merges a guest cart only once when two sign-ins race with its token', async () => {
    const [a] = await variants({ stock: 1000 });
    const user = await signUp(t.app, uniqueEmail(), 'password123');
    const token = json(await add({}, a ?? 0, 4)).cart_token;
    const logins = await Promise.all(
      [1, 2, 3].map(() =>
        t.app.inject({
          method: 'POST',
          url: '/user/storefront/api/login/',
          headers: { 'x-cart-token': token },
          payload: { email: user.email, password: 'password123' },
        }),
      ),
    );
    expect(logins.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(json(await list({ user })).items[0].quantity).toBe(4);
  });
});

describe('concurrency', () => {
  it('ends 50 concurrent adds of one unit to the same line at exactly 50', async () => {
    const [a] = await variants({ stock: 1000 });
    const token = json(await list({})).cart_token;
    const results = await Promise.all(Array.from({ length: 50 }, () => add({ token }, a ?? 0, 1)));
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    expect(json(await list({ token })).items[0].quantity).toBe(50);
  });

  it('loses none of many concurrent adds of different variants to a user cart', async () => {
    const store = await buildTestApp({ config: { maxCartLines: 200 } });
    try {
      const boss = await signInAdmin(store);
      const created = json(
        await store.app.inject({
          method: 'POST',
          url: '/product/dashboard/api/products/',
          headers: bearer(boss.access),
          payload: {
            name: 'Many',
            variants: Array.from({ length: 30 }, (_, i) => ({ name: `V${i}`, price: '1.00', stock: 10 })),
          },
        }),
      );
      const user = await signUp(store.app);
      const ids: number[] = created.variants.map((v: { id: number }) => v.id);
      const results = await Promise.all(
        ids.map((id) =>
          store.app.inject({
            method: 'POST',
            url: addUrl,
            headers: bearer(user.access),
            payload: { product_variant_id: id, quantity: 2 },
          }),
        ),
      );
      expect(results.map((r) => r.statusCode).every((s) => s === 200)).toBe(true);
      const cart = json(await store.app.inject({ method: 'GET', url: cartUrl, headers: bearer(user.access) }));
      expect(cart.items).toHaveLength(30);
      expect(cart.total_items).toBe(60);
    } finally {
      await store.close();
    }
  });

  it('answers each of concurrent adds with the cart as it stood right after it, lines in the order added', async () => {
    const ids = await variants({}, {}, {}, {}, {});
    const token = json(await list({})).cart_token;
    const results = await Promise.all(ids.map((id) => add({ token }, id, 1)));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const final: number[] = json(await list({ token })).items.map(
      (i: { product_variant_id: number }) => i.product_variant_id,
    );
    expect([...final].sort()).toEqual([...ids].sort());
    const seen = results.map((r) => json(r).items.map((i: { product_variant_id: number }) => i.product_variant_id));
    // Each answer is the cart right after its add: a different length, and the start of the final order.
    expect(new Set(seen.map((lines) => lines.length)).size).toBe(5);
    for (const lines of seen) expect(final.slice(0, lines.length)).toEqual(lines);
  });

  it("lands a guest's adds that race their sign-in in the user's cart, or refuses them; none is lost", async () => {
    const [a] = await variants({ stock: 1000 });
    const user = await signUp(t.app, uniqueEmail(), 'password123');
    const token = json(await add({}, a ?? 0, 1)).cart_token;
    const [login, ...adds] = await Promise.all([
      t.app.inject({
        method: 'POST',
        url: '/user/storefront/api/login/',
        headers: { 'x-cart-token': token },
        payload: { email: user.email, password: 'password123' },
      }),
      ...Array.from({ length: 20 }, () => add({ token }, a ?? 0, 1)),
    ]);
    expect(login.statusCode).toBe(200);
    for (const refused of adds.filter((r) => r.statusCode !== 200)) expectProblem(refused, 404, 'cart_not_found');
    const landed = adds.filter((r) => r.statusCode === 200).length;
    expect(json(await list({ user })).items[0].quantity).toBe(1 + landed);
    expectProblem(await add({ token }, a ?? 0, 1), 404, 'cart_not_found');
  });

  it('never lets concurrent adds push a line past the stock', async () => {
    const [a] = await variants({ stock: 10 });
    const token = json(await list({})).cart_token;
    const results = await Promise.all(Array.from({ length: 25 }, () => add({ token }, a ?? 0, 1)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(10);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(15);
    expect(json(await list({ token })).items[0].quantity).toBe(10);
  });
});

describe('reading many carts at once', () => {
  it("answers concurrent readers, customers and guests, each with their own cart and nobody else's", async () => {
    const ids = await variants({}, {}, {}, {});
    const customers = await Promise.all(Array.from({ length: 8 }, () => signUp(t.app, uniqueEmail('many'))));
    // Customer i holds i + 1 units of variant i % 4; customers 6 and 7 hold nothing.
    for (const [i, user] of customers.slice(0, 6).entries())
      expect((await add({ user }, ids[i % 4] ?? 0, i + 1)).statusCode).toBe(200);
    const guestTokens: string[] = [];
    for (let g = 0; g < 4; g++) guestTokens.push(json(await add({}, ids[g] ?? 0, 10 + g)).cart_token);
    const emptyGuest = json(await list({})).cart_token as string;
    const forged = 'A'.repeat(43);

    const readers = [
      ...customers.map((user) => () => list({ user })),
      ...guestTokens.map((token) => () => list({ token })),
      () => list({ token: emptyGuest }),
      () => list({ token: forged }),
    ];
    // Several rounds at once, so reads arrive while others are under way and are read together.
    const rounds = await Promise.all(Array.from({ length: 3 }, () => Promise.all(readers.map((read) => read()))));
    for (const answers of rounds) {
      customers.forEach((_, i) => {
        const cart = json(answers[i]!);
        expect(answers[i]!.statusCode).toBe(200);
        expect(
          cart.items.map((l: { product_variant_id: number; quantity: number }) => [l.product_variant_id, l.quantity]),
        ).toEqual(i < 6 ? [[ids[i % 4], i + 1]] : []);
        expect(cart.cart_token).toBeUndefined();
      });
      guestTokens.forEach((token, g) => {
        const cart = json(answers[customers.length + g]!);
        expect(
          cart.items.map((l: { product_variant_id: number; quantity: number }) => [l.product_variant_id, l.quantity]),
        ).toEqual([[ids[g], 10 + g]]);
        expect(cart.cart_token).toBe(token);
      });
      const empty = answers[customers.length + guestTokens.length]!;
      expect([empty.statusCode, json(empty).items]).toEqual([200, []]);
      expectProblem(answers[customers.length + guestTokens.length + 1]!, 404, 'cart_not_found');
    }
  });
});

describe('very large amounts', () => {
  it('shows a cart whose sum is past the safe-integer range exactly', async () => {
    const [a, b] = await variants({ price: '9999999999999.99', stock: 999 }, { price: '9999999999999.99', stock: 999 });
    const token = json(await add({}, a ?? 0, 999)).cart_token;
    const cart = json(await add({ token }, b ?? 0, 999));
    expect(cart.items[0].subtotal).toBe('9989999999999990.01');
    expect(cart.subtotal).toBe('19979999999999980.02');
  });

  it('answers an estimate past the safe-integer range with 422 amount_too_large', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/product/dashboard/api/products/',
      headers: bearer(admin.access),
      payload: { name: 'Huge', variants: [{ alias: 'huge-1', name: 'H', price: '9999999999999.99' }] },
    });
    expect(res.statusCode).toBe(201);
    expectProblem(
      await t.app.inject({
        method: 'POST',
        url: '/order/storefront/api/estimate/',
        payload: { variants: [{ alias: 'huge-1', quantity: 999 }] },
      }),
      422,
      'amount_too_large',
    );
  });
});
