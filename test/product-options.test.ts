import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi, apiAs, guestAddress, placeGuestOrder } from './fixtures.js';
import { bearer, buildTestApp, expectProblem, json, type SignedIn, signInAdmin, type TestApp } from './helpers.js';

// Issue #29 item 3: options (Size × Colour), variants as their combinations (docs/catalog.md#options).

let t: TestApp;
let admin: SignedIn;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await signInAdmin(t);
});
afterAll(() => t.close());

const base = '/product/dashboard/api';
const hoodieOptions = [
  { name: 'Size', values: ['S', 'M', 'L'] },
  { name: 'Colour', values: ['Black', 'Grey'] },
];
let counter = 0;
const unique = (text: string) => `${text}-${++counter}`;

const setOptions = (productId: number, options: object) =>
  t.app.inject({
    method: 'PUT',
    url: `${base}/products/${productId}/options/`,
    headers: bearer(admin.access),
    payload: { options },
  });
const generate = (productId: number, payload: object) =>
  t.app.inject({
    method: 'POST',
    url: `${base}/products/${productId}/variants/generate/`,
    headers: bearer(admin.access),
    payload,
  });
const storefront = (productId: number) => apiAs(t).get(`/product/storefront/api/products/${productId}/`);

interface Variant {
  id: number;
  alias: string;
  name: string;
  sku: string | null;
  archived: boolean;
  options: Record<string, string>;
}

/** A hoodie with Size × Colour and every combination made, SKUs from a pattern. */
async function hoodie() {
  const sku = unique('HD');
  const product = await adminApi(t, admin).product({
    name: unique('Hoodie'),
    variants: [{ name: 'Hoodie', price: '49.00', stock: 3 }],
  });
  expect(json(await setOptions(product.id, hoodieOptions)).options).toEqual(hoodieOptions);
  const res = await generate(product.id, { price: '45.00', stock: 4, sku_pattern: `${sku}-{Size}-{Colour}` });
  expect(res.statusCode).toBe(200);
  return { ...json(res), sku } as { id: number; sku: string; variants: Variant[]; options: typeof hoodieOptions };
}

describe('a product made without options', () => {
  it('has the option "Title": "Default" for one variant, and the variants’ names for several', async () => {
    const api = adminApi(t, admin);
    const one = await api.product({ name: 'Mug', variants: [{ name: 'Mug', price: '9.00' }] });
    expect(one.options).toEqual([{ name: 'Title', values: ['Default'] }]);
    expect(one.variants[0]?.options).toEqual({ Title: 'Default' });
    const several = await api.product({
      name: 'Tee',
      variants: [
        { name: 'Black', price: '9.00' },
        { name: 'White', price: '9.00' },
        { name: 'Black', price: '9.00' },
      ],
    });
    const [first, second, third] = several.variants;
    expect(several.options).toEqual([
      { name: 'Title', values: ['Black #' + first?.id, 'White', 'Black #' + third?.id] },
    ]);
    expect(second?.options).toEqual({ Title: 'White' });
    expect(several.variants.map((v) => v.name)).toEqual(['Black', 'White', 'Black']);
    // Adding a variant by name, as before options: its name becomes a value of the only option.
    const added = await api.post(`${base}/products/${several.id}/variants/`, { name: 'Red', price: '9.00' });
    expect(added.options).toEqual({ Title: 'Red' });
    expectProblem(
      await t.app.inject({
        method: 'POST',
        url: `${base}/products/${several.id}/variants/`,
        headers: bearer(admin.access),
        payload: { name: 'Red', price: '9.00' },
      }),
      409,
      'variant_combination_taken',
    );
  });
});

describe('options and generated variants', () => {
  it('makes the existing variant the first combination and generates the rest, named and priced as given', async () => {
    const product = await hoodie();
    expect(product.variants.map((v) => v.name)).toEqual([
      'S / Black',
      'S / Grey',
      'M / Black',
      'M / Grey',
      'L / Black',
      'L / Grey',
    ]);
    expect(product.variants[0]).toMatchObject({ price: '49.00', stock: 3, options: { Size: 'S', Colour: 'Black' } });
    expect(product.variants[5]).toMatchObject({
      price: '45.00',
      stock: 4,
      sku: `${product.sku}-L-GREY`,
      options: { Size: 'L', Colour: 'Grey' },
    });
    // Generating again makes nothing: every combination has its variant.
    expect(json(await generate(product.id, { price: '1.00' })).variants).toHaveLength(6);
  });

  it('shows the storefront every option and each variant’s values, not archived or missing ones', async () => {
    const product = await hoodie();
    const byName = (name: string) => product.variants.find((v) => v.name === name) as Variant;
    await apiAs(t, admin).delete(`${base}/variants/${byName('L / Grey').id}/`);
    await apiAs(t, admin).patch(`${base}/variants/${byName('M / Grey').id}/`, { stock: 0 });
    const shown = await storefront(product.id);
    expect(shown.options).toEqual(hoodieOptions);
    expect(shown.variants).toHaveLength(5);
    expect(shown.variants.find((v: Variant) => v.name === 'M / Grey')).toMatchObject({
      options: { Size: 'M', Colour: 'Grey' },
      available: false,
      quantity_available: 0,
    });
    expect(shown.variants.some((v: Variant) => v.options.Size === 'L' && v.options.Colour === 'Grey')).toBe(false);
    // Generating again does not make the archived combination: restoring it does.
    expect(json(await generate(product.id, { price: '1.00' })).variants).toHaveLength(6);
    await apiAs(t, admin).patch(`${base}/variants/${byName('L / Grey').id}/`, { archived: false });
    expect((await storefront(product.id)).variants).toHaveLength(6);
  });

  it('archives the variants of a removed value, keeps them in orders, and refuses to restore them', async () => {
    const product = await hoodie();
    const large = product.variants.filter((v) => v.options.Size === 'L');
    const order = await placeGuestOrder(t, {
      variants: [{ alias: large[0]?.alias ?? '', quantity: 1 }],
      shipping_address: guestAddress,
    });
    const after = json(await setOptions(product.id, [{ name: 'Size', values: ['S', 'M'] }, hoodieOptions[1]]));
    expect(after.variants.filter((v: Variant) => v.archived).map((v: Variant) => v.id)).toEqual(large.map((v) => v.id));
    expect((await storefront(product.id)).variants).toHaveLength(4);
    const placed = await apiAs(t, admin).get(`/order/dashboard/api/orders/${order.order_alias}/`);
    expect(JSON.stringify(placed)).toContain('L / Black');
    expectProblem(
      await t.app.inject({
        method: 'PATCH',
        url: `${base}/variants/${large[0]?.id}/`,
        headers: bearer(admin.access),
        payload: { archived: false },
      }),
      409,
      'variant_combination_taken',
    );
  });

  it('gives every variant a new option’s first value; refuses to leave two with one combination', async () => {
    const product = await hoodie();
    const withFit = json(
      await setOptions(product.id, [...hoodieOptions, { name: 'Fit', values: ['Regular', 'Slim'] }]),
    );
    expect(withFit.variants[0]).toMatchObject({
      name: 'S / Black / Regular',
      options: { Size: 'S', Colour: 'Black', Fit: 'Regular' },
    });
    const refused = expectProblem(await setOptions(product.id, [hoodieOptions[0]]), 409, 'variant_combination_taken');
    expect(refused.variants).toHaveLength(2);
    expect(
      json(await t.app.inject({ method: 'GET', url: `${base}/products/${product.id}/`, headers: bearer(admin.access) }))
        .options,
    ).toHaveLength(3);
  });

  it('adds a variant for a combination given, refusing one taken, unknown or incomplete', async () => {
    const product = await hoodie();
    await apiAs(t, admin).delete(`${base}/variants/${product.variants[0]?.id}/`);
    const add = (options: object) =>
      t.app.inject({
        method: 'POST',
        url: `${base}/products/${product.id}/variants/`,
        headers: bearer(admin.access),
        payload: { name: 'Another', price: '40.00', options },
      });
    expectProblem(await add({ Size: 'M', Colour: 'Black' }), 409, 'variant_combination_taken');
    const unknown = expectProblem(await add({ Size: 'XL', Colour: 'Black' }), 422, 'validation_error');
    expect(unknown.errors.map((e: { field: string }) => e.field)).toEqual(['options.Size']);
    const missing = expectProblem(await add({ Size: 'M' }), 422, 'validation_error');
    expect(missing.errors.map((e: { field: string }) => e.field)).toEqual(['options.Colour']);
    // The archived variant's combination is free for a new one.
    const res = await add({ Size: 'S', Colour: 'Black' });
    expect(res.statusCode).toBe(201);
    expect(json(res).options).toEqual({ Size: 'S', Colour: 'Black' });
  });

  it('answers 422 naming the field for duplicate, blank or too many options and values', async () => {
    const product = await hoodie();
    const fields = async (options: object) =>
      expectProblem(await setOptions(product.id, options), 422, 'validation_error').errors.map(
        (e: { field: string }) => e.field,
      );
    expect(
      await fields([
        { name: 'Size', values: ['S'] },
        { name: 'size', values: ['M'] },
      ]),
    ).toEqual(['options[1].name']);
    expect(await fields([{ name: 'Size', values: ['S', 's', ''] }])).toEqual([
      'options[0].values[1]',
      'options[0].values[2]',
    ]);
    expect(await fields([{ name: 'Size', values: [] }])).toEqual(['options[0].values']);
    expect(await fields(['A', 'B', 'C', 'D'].map((name) => ({ name, values: ['x'] })))).toEqual(['options']);
    const many = Array.from({ length: 11 }, (_, i) => `v${i}`);
    expect(
      await fields([
        { name: 'A', values: many },
        { name: 'B', values: many.slice(0, 10) },
      ]),
    ).toEqual(['options']);
    const badSku = expectProblem(
      await generate(product.id, { price: '1.00', sku_pattern: 'X-{Fit}' }),
      422,
      'validation_error',
    );
    expect(badSku.errors.map((e: { field: string }) => e.field)).toEqual(['sku_pattern']);
    const badPrice = expectProblem(await generate(product.id, { price: '1.001' }), 422, 'validation_error');
    expect(badPrice.errors.map((e: { field: string }) => e.field)).toEqual(['price']);
    expectProblem(await setOptions(999_999, hoodieOptions), 404, 'product_not_found');
  });

  it('renames an option and a value: every variant keeps its combination, the search finds the new names', async () => {
    const product = await hoodie();
    // A new name alone is another option: every variant would take its first value, so all would collide.
    expectProblem(
      await setOptions(product.id, [{ name: 'Taille', values: ['S', 'M', 'L'] }, hoodieOptions[1]]),
      409,
      'variant_combination_taken',
    );
    const res = await setOptions(product.id, [
      { name: 'Taille', renamed_from: 'Size', values: ['S', 'Medium', 'L'], values_renamed_from: { Medium: 'M' } },
      hoodieOptions[1],
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const after = json(res) as { options: unknown; variants: Variant[] };
    expect(after.options).toEqual([{ name: 'Taille', values: ['S', 'Medium', 'L'] }, hoodieOptions[1]]);
    const byId = new Map(after.variants.map((v) => [v.id, v]));
    for (const before of product.variants) {
      const size = before.options.Size === 'M' ? 'Medium' : before.options.Size;
      expect(byId.get(before.id)).toMatchObject({
        archived: false,
        sku: before.sku,
        options: { Taille: size, Colour: before.options.Colour },
        name: `${size} / ${before.options.Colour}`,
      });
    }
    expect((await storefront(product.id)).options[0]).toEqual({ name: 'Taille', values: ['S', 'Medium', 'L'] });
    const found = await apiAs(t).get(
      `/product/storefront/api/search/?q=${encodeURIComponent(product.variants[0]?.sku ?? '')}&option=Taille:Medium`,
    );
    expect(found.items.map((p: { id: number }) => p.id)).toEqual([product.id]);
    expect(found.facets.options.map((o: { name: string }) => o.name)).toContain('Taille');
  });

  it('swaps two values’ names in one change (the unique index never sees both at once)', async () => {
    const product = await hoodie();
    const res = await setOptions(product.id, [
      hoodieOptions[0],
      { name: 'Colour', values: ['Black', 'Grey'], values_renamed_from: { Black: 'Grey', Grey: 'Black' } },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const after = json(res) as { variants: Variant[] };
    const swapped = { Black: 'Grey', Grey: 'Black' } as Record<string, string>;
    for (const before of product.variants) {
      const variant = after.variants.find((v) => v.id === before.id);
      expect(variant?.options).toEqual({ Size: before.options.Size, Colour: swapped[before.options.Colour ?? ''] });
    }
  });

  it('refuses a rename of what the product has not, or to a name another option has, naming the field', async () => {
    const product = await hoodie();
    const fields = async (options: object) =>
      expectProblem(await setOptions(product.id, options), 422, 'validation_error').errors.map(
        (e: { field: string }) => e.field,
      );
    expect(await fields([{ name: 'Taille', renamed_from: 'Fit', values: ['S'] }, hoodieOptions[1]])).toEqual([
      'options[0].renamed_from',
    ]);
    expect(await fields([{ name: 'Colour', renamed_from: 'Size', values: ['S', 'M', 'L'] }, hoodieOptions[1]])).toEqual(
      ['options[1].name'],
    );
    expect(
      await fields([
        { name: 'Size', values: ['S', 'Medium', 'L'], values_renamed_from: { Medium: 'XL', L: 'S' } },
        hoodieOptions[1],
      ]),
    ).toEqual(['options[0].values_renamed_from.Medium', 'options[0].values_renamed_from.L']);
    const unchanged = json(
      await t.app.inject({ method: 'GET', url: `${base}/products/${product.id}/`, headers: bearer(admin.access) }),
    );
    expect(unchanged.options).toEqual(hoodieOptions);
  });

  it('refuses SKUs the pattern gives twice with 409 sku_taken, making nothing', async () => {
    const product = await adminApi(t, admin).product({
      name: unique('Cap'),
      variants: [{ name: 'Cap', price: '10.00' }],
    });
    await setOptions(product.id, hoodieOptions);
    expectProblem(
      await generate(product.id, { price: '1.00', sku_pattern: unique('CAP') + '-{Size}' }),
      409,
      'sku_taken',
    );
    expect(
      json(await t.app.inject({ method: 'GET', url: `${base}/products/${product.id}/`, headers: bearer(admin.access) }))
        .variants,
    ).toHaveLength(1);
  });

  it('sells a generated variant through the cart and the order APIs unchanged', async () => {
    const product = await hoodie();
    const variant = product.variants.find((v) => v.name === 'M / Grey') as Variant;
    const cart = await t.app.inject({
      method: 'POST',
      url: '/cart/storefront/api/carts/add/',
      payload: { product_variant_id: variant.id, quantity: 2 },
    });
    expect(cart.statusCode).toBeLessThan(300);
    expect(cart.body).toContain('M / Grey');
    const order = await placeGuestOrder(t, {
      variants: [{ alias: variant.alias, quantity: 2 }],
      shipping_address: guestAddress,
    });
    expect(order.total).toBeDefined();
    const shown = await storefront(product.id);
    expect(shown.variants.find((v: Variant) => v.id === variant.id).quantity_available).toBe(2);
  });
});
