import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoCatalog } from '../src/demo/demo-seed.js';
import { taxClasses } from '../src/db/schema.js';
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

const adminBase = '/product/dashboard/api';
const shirt = {
  name: 'Linen Shirt',
  description: 'Breathable.',
  variants: [
    {
      alias: 'linen-s',
      name: 'S',
      sku: 'LIN-S',
      price: '49.90',
      compare_at_price: '59.00',
      cost_price: '12.00',
      weight_grams: '210.5',
      stock: 5,
    },
    { name: 'M', price: '49.90', track_inventory: false },
  ],
};

function createProduct(payload: object, token = admin.access) {
  return t.app.inject({ method: 'POST', url: `${adminBase}/products/`, headers: bearer(token), payload });
}

let aliasCounter = 0;
const uniqueShirt = () => {
  aliasCounter += 1;
  return {
    ...shirt,
    variants: [{ ...shirt.variants[0], alias: `linen-${aliasCounter}`, sku: `LIN-${aliasCounter}` }, shirt.variants[1]],
  };
};

describe('catalog admin API', () => {
  it('creates a product with variants, generating missing aliases and defaults', async () => {
    const res = await createProduct(shirt);
    expect(res.statusCode).toBe(201);
    const product = json(res);
    expect(product).toMatchObject({
      name: 'Linen Shirt',
      description: 'Breathable.',
      tax_class_id: null,
      archived: false,
    });
    expect(product.variants[0]).toMatchObject({
      alias: 'linen-s',
      sku: 'LIN-S',
      price: '49.90',
      compare_at_price: '59.00',
      cost_price: '12.00',
      weight_grams: '210.5',
      track_inventory: true,
      stock: 5,
      allow_backorder: false,
      purchase_limit_per_order: null,
      archived: false,
    });
    expect(product.variants[1]).toMatchObject({
      name: 'M',
      sku: null,
      track_inventory: false,
      stock: 0,
      weight_grams: null,
    });
    expect(product.variants[1].alias).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers customers with 403 and callers without a token with 401', async () => {
    expectProblem(await createProduct(uniqueShirt(), customer.access), 403, 'forbidden');
    expectProblem(
      await t.app.inject({ method: 'POST', url: `${adminBase}/products/`, payload: uniqueShirt() }),
      401,
      'unauthorized',
    );
    expectProblem(
      await t.app.inject({ method: 'GET', url: `${adminBase}/products/`, headers: bearer(customer.access) }),
      403,
      'forbidden',
    );
    expectProblem(await t.app.inject({ method: 'GET', url: `${adminBase}/variants/1/` }), 401, 'unauthorized');
  });

  it.each([
    ['1.005', 'more decimals than USD has'],
    ['12.3.4', 'not a decimal'],
    ['-5', 'negative'],
    ['1e3', 'exponent notation'],
    ['', 'empty'],
  ])('refuses the price "%s" (%s) with 422 naming the field', async (price) => {
    const body = expectProblem(
      await createProduct({ name: 'X', variants: [{ name: 'A', price }] }),
      422,
      'validation_error',
    );
    expect(body.errors.map((e: { field: string }) => e.field)).toContain('variants[0].price');
  });

  it('refuses a price sent as a number', async () => {
    const body = expectProblem(
      await createProduct({ name: 'X', variants: [{ name: 'A', price: 12.5 }] }),
      422,
      'validation_error',
    );
    expect(body.errors[0].field).toBe('variants[0].price');
  });

  it.each([
    [{ name: 'X', variants: [] }, 'variants'],
    [{ name: 'X' }, 'variants'],
    [{ name: '', variants: [{ name: 'A', price: '1.00' }] }, 'name'],
    [{ name: '   ', variants: [{ name: 'A', price: '1.00' }] }, 'name'],
    [{ name: 'X', variants: [{ name: ' ', price: '1.00' }] }, 'variants[0].name'],
    [{ name: 'X', variants: [{ name: 'A', price: '1.00', stock: -1 }] }, 'variants[0].stock'],
    [{ name: 'X', variants: [{ name: 'A', price: '1.00', stock: '3' }] }, 'variants[0].stock'],
    [{ name: 'X', variants: [{ name: 'A', price: '1.00', weight_grams: '1.2345' }] }, 'variants[0].weight_grams'],
    [
      { name: 'X', variants: [{ name: 'A', price: '1.00', purchase_limit_per_order: 0 }] },
      'variants[0].purchase_limit_per_order',
    ],
    [{ name: 'X', variants: [{ name: 'A', price: '1.00', alias: 'has space' }] }, 'variants[0].alias'],
    [{ name: 'X', variants: [{ name: 'A', price: '1.00', colour: 'red' }] }, 'variants[0].colour'],
    [{ name: 'X', tax_class_id: 999999, variants: [{ name: 'A', price: '1.00' }] }, 'tax_class_id'],
  ])('refuses %o with 422 naming %s', async (payload, field) => {
    const body = expectProblem(await createProduct(payload), 422, 'validation_error');
    expect(body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('refuses a duplicate alias or SKU with 409 and writes nothing', async () => {
    const first = json(await createProduct(uniqueShirt()));
    const alias = first.variants[0].alias;
    expectProblem(
      await createProduct({ name: 'Dup', variants: [{ name: 'A', price: '1.00', alias }] }),
      409,
      'alias_taken',
    );
    expectProblem(
      await createProduct({ name: 'Dup', variants: [{ name: 'A', price: '1.00', sku: first.variants[0].sku }] }),
      409,
      'sku_taken',
    );
    expectProblem(
      await createProduct({
        name: 'Dup',
        variants: [
          { name: 'A', price: '1.00', alias: 'twice' },
          { name: 'B', price: '1.00', alias: 'twice' },
        ],
      }),
      409,
      'alias_taken',
    );
    const list = json(
      await t.app.inject({ method: 'GET', url: `${adminBase}/products/?q=Dup`, headers: bearer(admin.access) }),
    );
    expect(list.items).toEqual([]);
  });

  it('reads, changes, archives and restores a product', async () => {
    const [standard] = await t.database.db
      .insert(taxClasses)
      .values({ name: `Std ${Date.now()}` })
      .returning();
    const product = json(await createProduct(uniqueShirt()));
    const url = `${adminBase}/products/${product.id}/`;
    expect(json(await t.app.inject({ method: 'GET', url, headers: bearer(admin.access) }))).toEqual(product);

    const patched = json(
      await t.app.inject({
        method: 'PATCH',
        url,
        headers: bearer(admin.access),
        payload: { name: 'Linen Shirt II', tax_class_id: standard?.id },
      }),
    );
    expect(patched).toMatchObject({ name: 'Linen Shirt II', tax_class_id: standard?.id });

    expect((await t.app.inject({ method: 'DELETE', url, headers: bearer(admin.access) })).statusCode).toBe(204);
    expect(json(await t.app.inject({ method: 'GET', url, headers: bearer(admin.access) })).archived).toBe(true);
    expectProblem(
      await t.app.inject({ method: 'GET', url: `/product/storefront/api/products/${product.id}/` }),
      404,
      'product_not_found',
    );

    const restored = json(
      await t.app.inject({ method: 'PATCH', url, headers: bearer(admin.access), payload: { archived: false } }),
    );
    expect(restored.archived).toBe(false);
  });

  it('adds, changes and archives variants', async () => {
    const product = json(await createProduct(uniqueShirt()));
    const added = await t.app.inject({
      method: 'POST',
      url: `${adminBase}/products/${product.id}/variants/`,
      headers: bearer(admin.access),
      payload: { name: 'XL', price: '54.90', stock: 2 },
    });
    expect(added.statusCode).toBe(201);
    const variant = json(added);
    const url = `${adminBase}/variants/${variant.id}/`;
    const patched = json(
      await t.app.inject({
        method: 'PATCH',
        url,
        headers: bearer(admin.access),
        payload: { price: '52.00', stock: 7, compare_at_price: null },
      }),
    );
    expect(patched).toMatchObject({ price: '52.00', stock: 7, compare_at_price: null });
    expectProblem(
      await t.app.inject({ method: 'PATCH', url, headers: bearer(admin.access), payload: { price: '52.001' } }),
      422,
      'validation_error',
    );
    expect((await t.app.inject({ method: 'DELETE', url, headers: bearer(admin.access) })).statusCode).toBe(204);
    expect(json(await t.app.inject({ method: 'GET', url, headers: bearer(admin.access) })).archived).toBe(true);
    expectProblem(
      await t.app.inject({
        method: 'POST',
        url: `${adminBase}/products/999999/variants/`,
        headers: bearer(admin.access),
        payload: { name: 'A', price: '1.00' },
      }),
      404,
      'product_not_found',
    );
    expectProblem(
      await t.app.inject({ method: 'GET', url: `${adminBase}/variants/999999/`, headers: bearer(admin.access) }),
      404,
      'variant_not_found',
    );
  });

  it('pages through products in a stable order with a cursor', async () => {
    for (let i = 0; i < 5; i++) await createProduct({ ...uniqueShirt(), name: `Paged ${i}` });
    const seen: number[] = [];
    let cursor: string | null = '';
    do {
      const page = json(
        await t.app.inject({
          method: 'GET',
          url: `${adminBase}/products/?limit=2&q=Paged${cursor ? `&cursor=${cursor}` : ''}`,
          headers: bearer(admin.access),
        }),
      );
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((p: { id: number }) => p.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(5);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    expectProblem(
      await t.app.inject({ method: 'GET', url: `${adminBase}/products/?limit=0`, headers: bearer(admin.access) }),
      422,
      'validation_error',
    );
    expectProblem(
      await t.app.inject({ method: 'GET', url: `${adminBase}/products/?cursor=abc`, headers: bearer(admin.access) }),
      422,
      'validation_error',
    );
  });
});

describe('storefront catalog', () => {
  it('lists active products with active variants, price strings and availability, and nothing internal', async () => {
    const product = json(await createProduct(uniqueShirt()));
    const archived = json(
      await t.app.inject({
        method: 'POST',
        url: `${adminBase}/products/${product.id}/variants/`,
        headers: bearer(admin.access),
        payload: { name: 'Gone', price: '1.00' },
      }),
    );
    await t.app.inject({
      method: 'DELETE',
      url: `${adminBase}/variants/${archived.id}/`,
      headers: bearer(admin.access),
    });

    const res = await t.app.inject({ method: 'GET', url: `/product/storefront/api/products/${product.id}/` });
    expect(res.statusCode).toBe(200);
    const shown = json(res);
    expect(shown.variants.map((v: { id: number }) => v.id)).toEqual([product.variants[0].id, product.variants[1].id]);
    expect(shown.variants[0]).toEqual({
      id: product.variants[0].id,
      alias: product.variants[0].alias,
      name: 'S',
      sku: product.variants[0].sku,
      price: '49.90',
      compare_at_price: '59.00',
      weight_grams: '210.5',
      available: true,
      quantity_available: 5,
      purchase_limit_per_order: null,
      image_ids: [],
      // Made without options: the "Title" option, whose values are the variants' names (docs/catalog.md#options).
      options: { Title: 'S' },
    });
    expect(shown.variants[1]).toMatchObject({ available: true, quantity_available: null });
    expect(res.body).not.toContain('cost');
    expect(res.body).not.toContain('12.00');
    expect(res.body).not.toContain('archived');
  });

  it('shows the same weights in the list as in the detail, whole grams included', async () => {
    const product = json(
      await createProduct({
        name: 'Weighed',
        variants: [
          { name: 'A', price: '1.00', weight_grams: '180' },
          { name: 'B', price: '1.00', weight_grams: '100.250' },
        ],
      }),
    );
    const detail = json(await t.app.inject({ method: 'GET', url: `/product/storefront/api/products/${product.id}/` }));
    const page = json(
      await t.app.inject({ method: 'GET', url: `/product/storefront/api/products/?limit=1&cursor=${product.id - 1}` }),
    );
    expect(detail.variants.map((v: { weight_grams: string }) => v.weight_grams)).toEqual(['180', '100.25']);
    expect(page.items[0].variants.map((v: { weight_grams: string }) => v.weight_grams)).toEqual(['180', '100.25']);
  });

  it('lists pages of active products only', async () => {
    const archivedProduct = json(await createProduct(uniqueShirt()));
    await t.app.inject({
      method: 'DELETE',
      url: `${adminBase}/products/${archivedProduct.id}/`,
      headers: bearer(admin.access),
    });
    const ids: number[] = [];
    let cursor: string | null = null;
    do {
      const page = json(
        await t.app.inject({
          method: 'GET',
          url: `/product/storefront/api/products/?limit=3${cursor ? `&cursor=${cursor}` : ''}`,
        }),
      );
      ids.push(...page.items.map((p: { id: number }) => p.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(ids).not.toContain(archivedProduct.id);
    expect(ids.length).toBeGreaterThan(3);
  });

  it('shows an out-of-stock tracked variant as unavailable', async () => {
    const product = json(
      await createProduct({
        name: 'Sold out',
        variants: [
          { name: 'A', price: '5.00', stock: 0 },
          { name: 'B', price: '5.00', stock: 0, allow_backorder: true },
        ],
      }),
    );
    const shown = json(await t.app.inject({ method: 'GET', url: `/product/storefront/api/products/${product.id}/` }));
    expect(
      shown.variants.map((v: { available: boolean; quantity_available: number | null }) => [
        v.available,
        v.quantity_available,
      ]),
    ).toEqual([
      [false, 0],
      [true, null],
    ]);
  });
});

describe('currency precision', () => {
  it.each([
    ['JPY', '2335', '2335.5'],
    ['KWD', '2348.600', '2348.6001'],
  ])('takes %s prices at its precision (%s) and refuses more decimals (%s)', async (currency, good, bad) => {
    const store = await buildTestApp({ config: { storeCurrency: currency } });
    try {
      const boss = await signInAdmin(store);
      const ok = await store.app.inject({
        method: 'POST',
        url: `${adminBase}/products/`,
        headers: bearer(boss.access),
        payload: { name: 'P', variants: [{ name: 'A', price: good }] },
      });
      expect(json(ok).variants[0].price).toBe(good);
      const refused = await store.app.inject({
        method: 'POST',
        url: `${adminBase}/products/`,
        headers: bearer(boss.access),
        payload: { name: 'P', variants: [{ name: 'A', price: bad }] },
      });
      expectProblem(refused, 422, 'validation_error');
    } finally {
      await store.close();
    }
  });
});

describe('demo catalog', () => {
  it('loads once, idempotently, with an untracked variant', async () => {
    const store = await buildTestApp();
    try {
      expect(await seedDemoCatalog(store.database.db, 2)).toBe(6);
      expect(await seedDemoCatalog(store.database.db, 2)).toBe(0);
      const page = json(await store.app.inject({ method: 'GET', url: '/product/storefront/api/products/?limit=100' }));
      expect(page.items).toHaveLength(6);
      const variants = page.items.flatMap((p: { variants: unknown[] }) => p.variants);
      expect(variants.some((v: { quantity_available: number | null }) => v.quantity_available === null)).toBe(true);
      expect(variants.find((v: { alias: string }) => v.alias === 'demo-mug').price).toBe('14.50');
    } finally {
      await store.close();
    }
  });
});
