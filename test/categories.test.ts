import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminApi, adminApi } from './fixtures.js';
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

// Categories (a tree) and what products carry of them, handles and SEO fields: the admin API with every refusal, and
// the storefront's tree, category pages by handle and products by handle (docs/catalog.md).

const admin = '/product/dashboard/api';
const shop = '/product/storefront/api';

let t: TestApp;
let api: AdminApi;
let adminUser: SignedIn;
let customer: SignedIn;

beforeAll(async () => {
  t = await buildTestApp();
  adminUser = await signInAdmin(t);
  api = adminApi(t, adminUser);
  customer = await signUp(t.app);
});
afterAll(() => t?.close());

interface Category {
  id: number;
  parent_id: number | null;
  position: number;
  name: string;
  handle: string;
}

const category = (input: object): Promise<Category> => api.post(`${admin}/categories/`, input);
/** A request as the admin, answered as it comes (for refusals). */
const send = (method: 'POST' | 'PATCH' | 'DELETE' | 'GET', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(adminUser.access), ...(payload ? { payload } : {}) });

let counter = 0;
const product = (input: object = {}) => {
  counter += 1;
  return api.product({ name: `Thing ${counter}`, variants: [{ name: 'One', price: '5.00' }], ...input });
};

describe('categories (admin)', () => {
  it('creates a category with a handle made from its name, last among its siblings', async () => {
    const first = await category({ name: 'Café & Tea' });
    expect(first).toMatchObject({
      parent_id: null,
      name: 'Café & Tea',
      handle: 'cafe-tea',
      description: '',
      seo_title: null,
      seo_description: null,
    });
    const again = await category({ name: 'Café  Tea!' });
    expect(again.handle).toBe('cafe-tea-2');
    expect(again.position).toBe(first.position + 1);
  });

  it('creates a subcategory under a parent, at the position asked, the siblings moving along', async () => {
    const parent = await category({ name: 'Kitchen' });
    const a = await category({ name: 'Pans', parent_id: parent.id });
    const b = await category({ name: 'Pots', parent_id: parent.id });
    const c = await category({ name: 'Knives', parent_id: parent.id, position: 0, handle: 'sharp-knives' });
    expect(c).toMatchObject({ handle: 'sharp-knives', position: 0, parent_id: parent.id });
    const all = (await api.get(`${admin}/categories/`)) as Category[];
    const children = all.filter((x) => x.parent_id === parent.id);
    expect(children.map((x) => [x.id, x.position])).toEqual([
      [c.id, 0],
      [a.id, 1],
      [b.id, 2],
    ]);
    // Tree order: the parent, then its children.
    const at = all.findIndex((x) => x.id === parent.id);
    expect(all.slice(at, at + 4).map((x) => x.id)).toEqual([parent.id, c.id, a.id, b.id]);
  });

  it('moves a category under another parent and reorders siblings, both lists numbered again', async () => {
    const left = await category({ name: 'Left' });
    const right = await category({ name: 'Right' });
    const x = await category({ name: 'X', parent_id: left.id });
    const y = await category({ name: 'Y', parent_id: left.id });
    const z = await category({ name: 'Z', parent_id: right.id });
    const moved = await api.patch(`${admin}/categories/${x.id}/`, { parent_id: right.id, position: 0 });
    expect(moved).toMatchObject({ parent_id: right.id, position: 0 });
    expect(await api.get(`${admin}/categories/${y.id}/`)).toMatchObject({ position: 0 });
    expect(await api.get(`${admin}/categories/${z.id}/`)).toMatchObject({ position: 1 });
    await api.patch(`${admin}/categories/${z.id}/`, { position: 0 });
    expect(await api.get(`${admin}/categories/${x.id}/`)).toMatchObject({ position: 1 });
    const top = await api.patch(`${admin}/categories/${z.id}/`, { parent_id: null, name: ' Zed ', seo_title: ' ' });
    expect(top).toMatchObject({ parent_id: null, name: 'Zed', handle: 'z', seo_title: null });
  });

  it('refuses a move that would put a category under itself or its subcategory (422 category_cycle)', async () => {
    const a = await category({ name: 'Cycle A' });
    const b = await category({ name: 'Cycle B', parent_id: a.id });
    const c = await category({ name: 'Cycle C', parent_id: b.id });
    for (const parent of [a.id, c.id]) {
      const res = await send('PATCH', `${admin}/categories/${a.id}/`, { parent_id: parent });
      expectProblem(res, 422, 'category_cycle');
      expect(json(res).errors).toEqual([{ field: 'parent_id', message: expect.any(String) }]);
    }
    expect(await api.get(`${admin}/categories/${a.id}/`)).toMatchObject({ parent_id: null });
  });

  it('refuses a handle in use (409 handle_taken), a malformed one, a blank name, an unknown parent (422)', async () => {
    const taken = await category({ name: 'Taken' });
    expectProblem(await send('POST', `${admin}/categories/`, { name: 'Other', handle: 'taken' }), 409, 'handle_taken');
    const other = await category({ name: 'Other' });
    const clash = await send('PATCH', `${admin}/categories/${other.id}/`, { handle: taken.handle });
    expectProblem(clash, 409, 'handle_taken');
    expect(json(clash).errors).toEqual([{ field: 'handle', message: 'is already in use' }]);
    for (const handle of ['Upper', 'two--hyphens', '-edge', 'space d', 'x'.repeat(101), 'ünï']) {
      expectProblem(await send('POST', `${admin}/categories/`, { name: 'Bad', handle }), 422, 'validation_error');
    }
    expectProblem(await send('POST', `${admin}/categories/`, { name: '  ' }), 422, 'validation_error');
    const orphan = await send('POST', `${admin}/categories/`, { name: 'Orphan', parent_id: 999_999 });
    expectProblem(orphan, 422, 'validation_error');
    expect(json(orphan).errors).toEqual([{ field: 'parent_id', message: 'names no category' }]);
    expectProblem(await send('POST', `${admin}/categories/`, { name: 'N', colour: 'red' }), 422, 'validation_error');
  });

  it('answers 404 for an unknown category, and refuses customers and guests', async () => {
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      expectProblem(
        await send(method, `${admin}/categories/999999/`, method === 'PATCH' ? {} : undefined),
        404,
        'category_not_found',
      );
    }
    const asCustomer = await t.app.inject({
      method: 'GET',
      url: `${admin}/categories/`,
      headers: bearer(customer.access),
    });
    expectProblem(asCustomer, 403, 'forbidden');
    expectProblem(
      await t.app.inject({ method: 'POST', url: `${admin}/categories/`, payload: { name: 'X' } }),
      401,
      'unauthorized',
    );
  });

  it('refuses to delete a category with subcategories (409), deletes one without, its products staying', async () => {
    const parent = await category({ name: 'Doomed' });
    const child = await category({ name: 'Doomed child', parent_id: parent.id });
    const item = await product({ category_ids: [child.id] });
    const refused = await send('DELETE', `${admin}/categories/${parent.id}/`);
    expectProblem(refused, 409, 'category_has_children');
    expect(json(refused).children).toEqual([child.id]);
    await api.delete(`${admin}/categories/${child.id}/`);
    await api.delete(`${admin}/categories/${parent.id}/`);
    expect(await api.get(`${admin}/products/${item.id}/`)).toMatchObject({ category_ids: [] });
  });
});

describe('product handles, SEO fields and categories (admin)', () => {
  it('gives a new product a handle from its name, -2 when taken, and keeps it when the name changes', async () => {
    const first = await api.product({ name: 'Linen Shirt', variants: [{ name: 'S', price: '9.00' }] });
    const second = await api.product({ name: 'Linen shirt', variants: [{ name: 'S', price: '9.00' }] });
    expect([first.handle, second.handle]).toEqual(['linen-shirt', 'linen-shirt-2']);
    expect(first).toMatchObject({ seo_title: null, seo_description: null, category_ids: [] });
    const renamed = await api.patch(`${admin}/products/${first.id}/`, { name: 'Flax Shirt' });
    expect(renamed.handle).toBe('linen-shirt');
  });

  it('sets a handle, SEO fields and categories, on creation and by PATCH (the list replacing the old)', async () => {
    const a = await category({ name: 'Set A' });
    const b = await category({ name: 'Set B' });
    const made = await product({ handle: 'chosen-one', seo_title: 'Chosen', category_ids: [b.id, a.id] });
    expect(made).toMatchObject({ handle: 'chosen-one', seo_title: 'Chosen', category_ids: [a.id, b.id] });
    const changed = await api.patch(`${admin}/products/${made.id}/`, {
      handle: 'chosen-two',
      seo_description: 'Picked.',
      category_ids: [b.id],
    });
    expect(changed).toMatchObject({ handle: 'chosen-two', seo_title: 'Chosen', seo_description: 'Picked.' });
    expect(changed.category_ids).toEqual([b.id]);
    const listed = await api.get(`${admin}/products/?q=Thing&limit=100`);
    expect(listed.items.find((p: { id: number }) => p.id === made.id).category_ids).toEqual([b.id]);
    const cleared = await api.patch(`${admin}/products/${made.id}/`, { category_ids: [], seo_title: null });
    expect(cleared).toMatchObject({ category_ids: [], seo_title: null, seo_description: 'Picked.' });
  });

  it('refuses a product handle in use (409), a malformed one, and an unknown or repeated category (422)', async () => {
    const taken = await product();
    const payload = { name: 'Dup', handle: taken.handle, variants: [{ name: 'A', price: '1.00' }] };
    expectProblem(await send('POST', `${admin}/products/`, payload), 409, 'handle_taken');
    const other = await product();
    expectProblem(await send('PATCH', `${admin}/products/${other.id}/`, { handle: taken.handle }), 409, 'handle_taken');
    expectProblem(await send('PATCH', `${admin}/products/${other.id}/`, { handle: 'Not OK' }), 422, 'validation_error');
    const unknown = await send('PATCH', `${admin}/products/${other.id}/`, { category_ids: [999_999] });
    expectProblem(unknown, 422, 'validation_error');
    expect(json(unknown).errors).toEqual([{ field: 'category_ids', message: expect.any(String) }]);
    const c = await category({ name: 'Twice' });
    expectProblem(
      await send('PATCH', `${admin}/products/${other.id}/`, { category_ids: [c.id, c.id] }),
      422,
      'validation_error',
    );
    const creating = { name: 'New', category_ids: [999_999], variants: [{ name: 'A', price: '1.00' }] };
    expectProblem(await send('POST', `${admin}/products/`, creating), 422, 'validation_error');
    expect(await api.get(`${admin}/products/${other.id}/`)).toMatchObject({ handle: other.handle, category_ids: [] });
  });
});

describe('categories and products on the storefront', () => {
  let root: Category;
  let child: Category;
  let grandchild: Category;
  let ids: number[];

  beforeAll(async () => {
    root = await category({ name: 'Shop root', description: 'Everything.', seo_description: 'All of it.' });
    child = await category({ name: 'Shop child', parent_id: root.id });
    grandchild = await category({ name: 'Shop grandchild', parent_id: child.id });
    const inRoot = await product({ category_ids: [root.id] });
    const inBoth = await product({ category_ids: [root.id, grandchild.id] });
    const inChild = await product({ category_ids: [child.id], description: 'Child thing.' });
    const archived = await product({ category_ids: [child.id] });
    await api.delete(`${admin}/products/${archived.id}/`);
    await product();
    ids = [inRoot.id, inBoth.id, inChild.id];
  });

  it('lists every category in tree order with its parent and depth', async () => {
    const tree = json(await t.app.inject({ method: 'GET', url: `${shop}/categories/` }));
    const at = tree.findIndex((c: Category) => c.id === root.id);
    expect(tree.slice(at, at + 3)).toEqual([
      { id: root.id, parent_id: null, depth: 0, name: 'Shop root', handle: 'shop-root' },
      { id: child.id, parent_id: root.id, depth: 1, name: 'Shop child', handle: 'shop-child' },
      { id: grandchild.id, parent_id: child.id, depth: 2, name: 'Shop grandchild', handle: 'shop-grandchild' },
    ]);
  });

  it('answers a category by handle with its breadcrumb, subcategories and its subtree’s products', async () => {
    const page = json(await t.app.inject({ method: 'GET', url: `${shop}/categories/shop-root/` }));
    expect(page).toMatchObject({
      id: root.id,
      parent_id: null,
      name: 'Shop root',
      description: 'Everything.',
      seo: { title: 'Shop root', description: 'All of it.' },
      breadcrumb: [],
      children: [{ id: child.id, name: 'Shop child', handle: 'shop-child' }],
      products: { next_cursor: null },
    });
    // Each product once, in id order; the archived one and the one in no category left out.
    expect(page.products.items.map((p: { id: number }) => p.id)).toEqual(ids);
    const deep = json(await t.app.inject({ method: 'GET', url: `${shop}/categories/shop-grandchild/` }));
    expect(deep.breadcrumb).toEqual([
      { id: root.id, name: 'Shop root', handle: 'shop-root' },
      { id: child.id, name: 'Shop child', handle: 'shop-child' },
    ]);
    expect(deep.products.items.map((p: { id: number }) => p.id)).toEqual([ids[1]]);
    expect(deep.seo).toEqual({ title: 'Shop grandchild', description: '' });
  });

  it('pages a category’s products like the product list', async () => {
    const first = json(await t.app.inject({ method: 'GET', url: `${shop}/categories/shop-root/?limit=2` }));
    expect(first.products.items.map((p: { id: number }) => p.id)).toEqual(ids.slice(0, 2));
    expect(first.products.next_cursor).toBe(String(ids[1]));
    const url = `${shop}/categories/shop-root/?limit=2&cursor=${first.products.next_cursor}`;
    const second = json(await t.app.inject({ method: 'GET', url }));
    expect(second.products).toMatchObject({ next_cursor: null });
    expect(second.products.items.map((p: { id: number }) => p.id)).toEqual(ids.slice(2));
  });

  it('shows a product’s handle, SEO fields and categories in the list, its page, and by handle', async () => {
    const id = ids[1] as number;
    const byId = json(await t.app.inject({ method: 'GET', url: `${shop}/products/${id}/` }));
    expect(byId).toMatchObject({ id, seo: { title: byId.name, description: '' } });
    expect(byId.categories).toEqual([
      { id: root.id, name: 'Shop root', handle: 'shop-root' },
      { id: grandchild.id, name: 'Shop grandchild', handle: 'shop-grandchild' },
    ]);
    const byHandle = json(await t.app.inject({ method: 'GET', url: `${shop}/products/by-handle/${byId.handle}/` }));
    expect(byHandle).toEqual(byId);
    const list = json(await t.app.inject({ method: 'GET', url: `${shop}/products/?limit=100` }));
    expect(list.items.find((p: { id: number }) => p.id === id)).toEqual(byId);
    const child = json(await t.app.inject({ method: 'GET', url: `${shop}/products/${ids[2]}/` }));
    expect(child.seo).toEqual({ title: child.name, description: 'Child thing.' });
  });

  it('answers 404 for an unknown handle and an archived product’s, 422 for a malformed one', async () => {
    const get = (url: string) => t.app.inject({ method: 'GET', url });
    expectProblem(await get(`${shop}/categories/no-such-category/`), 404, 'category_not_found');
    expectProblem(await get(`${shop}/products/by-handle/no-such-product/`), 404, 'product_not_found');
    const archived = await product({ handle: 'archived-thing' });
    await api.delete(`${admin}/products/${archived.id}/`);
    expectProblem(await get(`${shop}/products/by-handle/archived-thing/`), 404, 'product_not_found');
    expectProblem(await get(`${shop}/categories/Not_A_Handle/`), 422, 'validation_error');
    expectProblem(await get(`${shop}/products/by-handle/UPPER/`), 422, 'validation_error');
    expectProblem(await get(`${shop}/categories/shop-root/?limit=0`), 422, 'validation_error');
  });
});
