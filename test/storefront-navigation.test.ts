import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.js';
import { type AdminApi, adminApi } from './fixtures.js';
import { buildTestApp, json, onPostgres, secondProcess, signInAdmin, type TestApp } from './helpers.js';

// Categories, collections and handles are answered from the catalog kept in memory (src/catalog/storefront-catalog.ts,
// docs/decisions/0033-categories-and-collections.md). These tests read every view first, so that it is held, then
// show that each change a shopper must see is in the very next answer: from this process's admin API, from SQL (the
// change feed), and from another process (PostgreSQL).

const admin = '/product/dashboard/api';
const shop = '/product/storefront/api';

let t: TestApp;
let api: AdminApi;
let categoryId: number;
let collectionId: number;
let productId: number;

async function get(app: TestApp['app'], url: string) {
  const res = await app.inject({ method: 'GET', url });
  if (res.statusCode !== 200 && res.statusCode !== 404) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  return res;
}

interface Shown {
  id: number;
  handle: string;
  categories: { id: number; name: string; handle: string }[];
}

/** What the storefront shows of the product and the navigation, every view read (and so held in memory). */
async function seen(app = t.app) {
  const tree = json(await get(app, `${shop}/categories/`)) as { id: number; name: string; handle: string }[];
  const category = tree.find((c) => c.id === categoryId);
  const categoryPage = category ? json(await get(app, `${shop}/categories/${category.handle}/`)) : undefined;
  const collections = json(await get(app, `${shop}/collections/`)) as { id: number; handle: string }[];
  const collection = collections.find((c) => c.id === collectionId);
  const collectionPage = collection ? json(await get(app, `${shop}/collections/${collection.handle}/`)) : undefined;
  const listed = (json(await get(app, `${shop}/products/?limit=100`)).items as Shown[]).find((p) => p.id === productId);
  const pageRes = await get(app, `${shop}/products/${productId}/`);
  const page = pageRes.statusCode === 200 ? (json(pageRes) as Shown) : undefined;
  const byHandleRes = page ? await get(app, `${shop}/products/by-handle/${page.handle}/`) : undefined;
  return {
    category,
    inCategory: (categoryPage?.products.items as Shown[] | undefined)?.some((p) => p.id === productId) ?? false,
    inCollection: (collectionPage?.products.items as Shown[] | undefined)?.map((p) => p.id) ?? [],
    listed,
    page,
    byHandle: byHandleRes?.statusCode === 200 ? (json(byHandleRes) as Shown) : undefined,
  };
}

const exec = (query: string, database: Database = t.database) => database.db.execute(sql.raw(query));

/** Polls until `check` passes: a change made with SQL is heard when the database's notification arrives. */
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
  t = await buildTestApp();
  api = adminApi(t, await signInAdmin(t));
  categoryId = (await api.post(`${admin}/categories/`, { name: 'Cached shelf' })).id;
  collectionId = (await api.post(`${admin}/collections/`, { name: 'Cached picks' })).id;
  productId = (await api.product({ name: 'Cached lamp', variants: [{ name: 'One', price: '20.00' }] })).id;
});
afterAll(() => t?.close());

describe('storefront navigation kept in memory', () => {
  it('shows a product put in a category, and taken out, in the very next answers', async () => {
    expect((await seen()).inCategory).toBe(false);
    await api.patch(`${admin}/products/${productId}/`, { category_ids: [categoryId] });
    const after = await seen();
    expect(after.inCategory).toBe(true);
    const ref = { id: categoryId, name: 'Cached shelf', handle: 'cached-shelf' };
    for (const view of [after.listed, after.page, after.byHandle]) expect(view?.categories).toEqual([ref]);
    await api.patch(`${admin}/products/${productId}/`, { category_ids: [] });
    const out = await seen();
    expect(out.inCategory).toBe(false);
    expect(out.page?.categories).toEqual([]);
  });

  it('shows a category renamed and given a new handle at once, in the tree and on its products', async () => {
    await api.patch(`${admin}/products/${productId}/`, { category_ids: [categoryId] });
    await seen();
    await api.patch(`${admin}/categories/${categoryId}/`, { name: 'Lamp shelf', handle: 'lamp-shelf' });
    const after = await seen();
    expect(after.category).toMatchObject({ name: 'Lamp shelf', handle: 'lamp-shelf' });
    expect(after.inCategory).toBe(true);
    expect(after.listed?.categories).toEqual([{ id: categoryId, name: 'Lamp shelf', handle: 'lamp-shelf' }]);
    expect((await get(t.app, `${shop}/categories/cached-shelf/`)).statusCode).toBe(404);
  });

  it('shows a product added to a collection and reordered at once', async () => {
    const other = await api.product({ name: 'Cached shade', variants: [{ name: 'One', price: '5.00' }] });
    expect((await seen()).inCollection).toEqual([]);
    await api.patch(`${admin}/collections/${collectionId}/`, { product_ids: [productId, other.id] });
    expect((await seen()).inCollection).toEqual([productId, other.id]);
    await api.post(`${admin}/collections/${collectionId}/products/`, { product_id: other.id, position: 0 }, 200);
    expect((await seen()).inCollection).toEqual([other.id, productId]);
  });

  it('hides an archived product at once everywhere, by handle too, and shows it again when restored', async () => {
    await api.patch(`${admin}/collections/${collectionId}/`, { product_ids: [productId] });
    const before = await seen();
    expect(before).toMatchObject({ inCategory: true, inCollection: [productId] });
    expect(before.byHandle).toBeDefined();
    const handle = before.page?.handle;
    await api.delete(`${admin}/products/${productId}/`);
    const gone = await seen();
    expect(gone).toMatchObject({ inCategory: false, inCollection: [], listed: undefined, page: undefined });
    expect((await get(t.app, `${shop}/products/by-handle/${handle}/`)).statusCode).toBe(404);
    await api.patch(`${admin}/products/${productId}/`, { archived: false });
    const back = await seen();
    expect(back).toMatchObject({ inCategory: true, inCollection: [productId] });
    expect(back.byHandle?.id).toBe(productId);
  });

  it('shows a new product handle at once: the old one answers 404', async () => {
    await seen();
    await api.patch(`${admin}/products/${productId}/`, { handle: 'lamp-2000', seo_title: 'The lamp' });
    const after = await seen();
    expect(after.byHandle).toMatchObject({ id: productId, handle: 'lamp-2000', seo: { title: 'The lamp' } });
    expect((await get(t.app, `${shop}/products/by-handle/cached-lamp/`)).statusCode).toBe(404);
  });

  it('hears of changes made with SQL: memberships, a category’s name, an SEO title (migration 0029)', async () => {
    await api.patch(`${admin}/products/${productId}/`, { category_ids: [] });
    await seen();
    await exec(`insert into product_categories (product_id, category_id) values (${productId}, ${categoryId})`);
    await eventually(async () => expect((await seen()).inCategory).toBe(true));
    await exec(`update categories set name = 'Shelf by SQL' where id = ${categoryId}`);
    await eventually(async () => expect((await seen()).page?.categories[0]?.name).toBe('Shelf by SQL'));
    await exec(`update products set seo_title = 'By SQL' where id = ${productId}`);
    await eventually(async () =>
      expect(json(await get(t.app, `${shop}/products/${productId}/`)).seo.title).toBe('By SQL'),
    );
    await exec(`delete from collection_products where collection_id = ${collectionId}`);
    await eventually(async () => expect((await seen()).inCollection).toEqual([]));
  });
});

describe.runIf(onPostgres)('storefront navigation across processes (PostgreSQL)', () => {
  it('shows another process’s category and collection changes once announced', async () => {
    const other = await secondProcess(t);
    try {
      await seen(other.app);
      await api.patch(`${admin}/categories/${categoryId}/`, { name: 'Far shelf' });
      await api.patch(`${admin}/collections/${collectionId}/`, { product_ids: [productId] });
      await eventually(async () => {
        const far = await seen(other.app);
        expect(far.category?.name).toBe('Far shelf');
        expect(far.inCollection).toEqual([productId]);
      });
    } finally {
      await other.close();
    }
  });
});
