import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.js';
import { type AdminApi, adminApi, guestAddress, placeGuestOrder } from './fixtures.js';
import { buildTestApp, json, onPostgres, secondProcess, signInAdmin, type TestApp } from './helpers.js';

// The storefront's list and product page are answered from memory (src/catalog/storefront-catalog.ts,
// docs/decisions/0023-catalog-pages-cached.md). These tests fill that memory first, then show that every change a
// shopper must see, price, stock, archive, a new variant, is in the very next list and product page.

const storefront = '/product/storefront/api/products';

let t: TestApp;
let api: AdminApi;
let productId: number;
let counted: number;
let untracked: number;

interface ShownVariant {
  id: number;
  alias: string;
  price: string;
  compare_at_price: string | null;
  available: boolean;
  quantity_available: number | null;
}
interface ShownProduct {
  id: number;
  description: string;
  variants: ShownVariant[];
}

async function get(app: TestApp['app'], url: string) {
  const res = await app.inject({ method: 'GET', url });
  if (res.statusCode !== 200 && res.statusCode !== 404) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  return res;
}

/** The product as the list and as its own page show it; undefined where it is not shown. */
async function seen(id = productId, app = t.app) {
  const list = json(await get(app, `${storefront}/?limit=100`)).items as ShownProduct[];
  const page = await get(app, `${storefront}/${id}/`);
  return {
    listed: list.find((p) => p.id === id),
    page: page.statusCode === 200 ? (json(page) as ShownProduct) : undefined,
  };
}

/** The variant in both views, which must agree. */
async function variantSeen(variantId: number, app = t.app) {
  const { listed, page } = await seen(productId, app);
  const inList = listed?.variants.find((v) => v.id === variantId);
  expect(page?.variants.find((v) => v.id === variantId)).toEqual(inList);
  return inList;
}

const exec = (query: string, database: Database = t.database) => database.db.execute(sql.raw(query));

/** Polls until `check` passes: another process hears of a change when PostgreSQL delivers its notification. */
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

/** Runs `work` with the catalog's change triggers off: what it writes is not announced. */
async function unannounced(work: () => Promise<void>, database: Database = t.database) {
  const triggers = ['product_variants_changed', 'product_variants_compare_at_price_changed'];
  for (const name of triggers) await exec(`alter table product_variants disable trigger ${name}`, database);
  try {
    await work();
  } finally {
    for (const name of triggers) await exec(`alter table product_variants enable trigger ${name}`, database);
  }
}

beforeAll(async () => {
  t = await buildTestApp();
  api = adminApi(t, await signInAdmin(t));
  const product = await api.product({
    name: 'Cached mug',
    description: 'Stoneware.',
    variants: [
      { alias: 'cached-mug-blue', name: 'Blue', price: '10.00', stock: 10 },
      { alias: 'cached-mug-red', name: 'Red', price: '11.00', track_inventory: false },
    ],
  });
  productId = product.id;
  [counted, untracked] = product.variants.map((v) => v.id) as [number, number];
});

afterAll(async () => {
  await t?.close();
});

describe('storefront catalog kept in memory', () => {
  it('answers repeated pages from memory: a price change the database does not announce is not seen', async () => {
    expect((await variantSeen(counted))?.price).toBe('10.00');
    await unannounced(async () => {
      await exec(`update product_variants set price = 2500 where id = ${counted}`);
      expect((await variantSeen(counted))?.price).toBe('10.00');
    });
    // An announced change to the table makes it read again.
    await exec(`update product_variants set name = name where id = ${counted}`);
    await eventually(async () => expect((await variantSeen(counted))?.price).toBe('25.00'));
  });

  it('shows an admin price change in the very next list and product page', async () => {
    await variantSeen(counted);
    await api.patch(`/product/dashboard/api/variants/${counted}/`, { price: '12.50', compare_at_price: '15.00' });
    expect(await variantSeen(counted)).toMatchObject({ price: '12.50', compare_at_price: '15.00' });
  });

  it('shows stock as it is now: an admin change, SQL that announces nothing, and an order taking stock', async () => {
    expect(await variantSeen(counted)).toMatchObject({ available: true, quantity_available: 10 });
    await api.patch(`/product/dashboard/api/variants/${counted}/`, { stock: 4 });
    expect((await variantSeen(counted))?.quantity_available).toBe(4);
    // Stock is never announced (placements write it constantly), and never kept.
    await exec(`update product_variants set stock = 3 where id = ${counted}`);
    expect((await variantSeen(counted))?.quantity_available).toBe(3);
    await placeGuestOrder(t, { variants: [{ alias: 'cached-mug-blue', quantity: 2 }], shipping_address: guestAddress });
    expect((await variantSeen(counted))?.quantity_available).toBe(1);
    await placeGuestOrder(t, { variants: [{ alias: 'cached-mug-blue', quantity: 1 }], shipping_address: guestAddress });
    expect(await variantSeen(counted)).toMatchObject({ available: false, quantity_available: 0 });
    expect(await variantSeen(untracked)).toMatchObject({ available: true, quantity_available: null });
    await api.patch(`/product/dashboard/api/variants/${counted}/`, { stock: 10 });
  });

  it('hides an archived variant at once and shows it again when restored', async () => {
    expect(await variantSeen(untracked)).toBeDefined();
    await api.delete(`/product/dashboard/api/variants/${untracked}/`);
    const { listed, page } = await seen();
    expect(listed?.variants.map((v) => v.id)).toEqual([counted]);
    expect(page?.variants.map((v) => v.id)).toEqual([counted]);
    await api.patch(`/product/dashboard/api/variants/${untracked}/`, { archived: false });
    expect(await variantSeen(untracked)).toBeDefined();
  });

  it('hides an archived product at once from the list and its page (404), shows it again when restored', async () => {
    expect((await seen()).listed).toBeDefined();
    await api.delete(`/product/dashboard/api/products/${productId}/`);
    expect(await seen()).toEqual({ listed: undefined, page: undefined });
    expect((await t.app.inject({ method: 'GET', url: `${storefront}/${productId}/` })).statusCode).toBe(404);
    await api.patch(`/product/dashboard/api/products/${productId}/`, { archived: false });
    const { listed, page } = await seen();
    expect(listed?.variants).toHaveLength(2);
    expect(page?.variants).toHaveLength(2);
  });

  it('shows a new variant, and a new product, in the very next list and product page', async () => {
    await seen();
    const added = await api.post(`/product/dashboard/api/products/${productId}/variants/`, {
      alias: 'cached-mug-green',
      name: 'Green',
      price: '13.00',
      stock: 2,
    });
    expect(await variantSeen(added.id)).toMatchObject({ alias: 'cached-mug-green', price: '13.00' });
    const other = await api.product({ name: 'Cached plate', variants: [{ name: 'White', price: '8.00' }] });
    const { listed, page } = await seen(other.id);
    expect(listed?.variants[0]?.price).toBe('8.00');
    expect(page?.variants[0]?.price).toBe('8.00');
  });

  it('hears of description and compare-at price changes made with SQL (migration 0023)', async () => {
    await seen();
    await exec(`update products set description = 'Glazed stoneware.' where id = ${productId}`);
    await exec(`update product_variants set compare_at_price = 1900 where id = ${counted}`);
    await eventually(async () => {
      const { listed, page } = await seen();
      expect(listed?.description).toBe('Glazed stoneware.');
      expect(page?.description).toBe('Glazed stoneware.');
      expect((await variantSeen(counted))?.compare_at_price).toBe('19.00');
    });
  });

  it('reads every time with REFERENCE_CACHE_TTL_SECONDS=0', async () => {
    const uncached = await buildTestApp({ config: { referenceCacheTtlSeconds: 0 } });
    try {
      const product = await adminApi(uncached, await signInAdmin(uncached)).product({
        name: 'Uncached mug',
        variants: [{ name: 'A', price: '1.00' }],
      });
      const price = async () => json(await get(uncached.app, `${storefront}/${product.id}/`)).variants[0].price;
      expect(await price()).toBe('1.00');
      await unannounced(async () => {
        await exec(`update product_variants set price = 300 where product_id = ${product.id}`, uncached.database);
        expect(await price()).toBe('3.00');
      }, uncached.database);
    } finally {
      await uncached.close();
    }
  });
});

describe.runIf(onPostgres)('storefront catalog across processes (PostgreSQL)', () => {
  let other: Awaited<ReturnType<typeof secondProcess>> | undefined;

  beforeAll(async () => {
    other = await secondProcess(t);
  });

  afterAll(async () => {
    await other?.close();
  });

  it("shows another process's order taking stock at once, and its price change once announced", async () => {
    const b = other!;
    await api.patch(`/product/dashboard/api/variants/${counted}/`, { stock: 6, price: '12.00' });
    await eventually(async () => expect(await variantSeen(counted, b.app)).toMatchObject({ quantity_available: 6 }));
    await eventually(async () => expect((await variantSeen(counted, b.app))?.price).toBe('12.00'));
    await placeGuestOrder(t, { variants: [{ alias: 'cached-mug-blue', quantity: 2 }], shipping_address: guestAddress });
    expect((await variantSeen(counted, b.app))?.quantity_available).toBe(4);
    await api.patch(`/product/dashboard/api/variants/${counted}/`, { price: '14.00' });
    await eventually(async () => expect((await variantSeen(counted, b.app))?.price).toBe('14.00'));
  });
});
