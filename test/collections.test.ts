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

// Manual collections: the admin API (products added, removed, reordered) with every refusal, and the storefront's
// collection pages by handle, products in the collection's order (docs/catalog.md).

const admin = '/product/dashboard/api';
const shop = '/product/storefront/api';

let t: TestApp;
let api: AdminApi;
let adminUser: SignedIn;
let customer: SignedIn;
const products: number[] = [];

beforeAll(async () => {
  t = await buildTestApp();
  adminUser = await signInAdmin(t);
  api = adminApi(t, adminUser);
  customer = await signUp(t.app);
  for (let i = 1; i <= 4; i += 1) {
    products.push((await api.product({ name: `Picked ${i}`, variants: [{ name: 'One', price: '3.00' }] })).id);
  }
});
afterAll(() => t?.close());

const nth = (i: number) => () => products[i] as number;
const [p1, p2, p3, p4] = [nth(0), nth(1), nth(2), nth(3)];
const send = (method: 'POST' | 'PATCH' | 'DELETE' | 'GET', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(adminUser.access), ...(payload ? { payload } : {}) });
const shown = async (handle: string, query = '') =>
  json(await t.app.inject({ method: 'GET', url: `${shop}/collections/${handle}/${query}` }));
const shownIds = async (handle: string) => (await shown(handle)).products.items.map((p: { id: number }) => p.id);

describe('collections (admin)', () => {
  it('creates a collection with its products in the order given and a handle from its name', async () => {
    const made = await api.post(`${admin}/collections/`, { name: 'Summer Sale!', product_ids: [p3(), p1()] });
    expect(made).toMatchObject({ name: 'Summer Sale!', handle: 'summer-sale', product_ids: [p3(), p1()] });
    expect(await api.get(`${admin}/collections/${made.id}/`)).toEqual(made);
    const again = await api.post(`${admin}/collections/`, { name: 'Summer sale' });
    expect(again).toMatchObject({ handle: 'summer-sale-2', product_ids: [] });
    const all = await api.get(`${admin}/collections/`);
    expect(all.map((c: { id: number }) => c.id)).toEqual(expect.arrayContaining([made.id, again.id]));
  });

  it('adds a product at a position, moves one already in, removes one, and replaces the whole order', async () => {
    const c = await api.post(`${admin}/collections/`, { name: 'Order', product_ids: [p1(), p2()] });
    const path = `${admin}/collections/${c.id}/products/`;
    expect((await api.post(path, { product_id: p3(), position: 0 }, 200)).product_ids).toEqual([p3(), p1(), p2()]);
    expect((await api.post(path, { product_id: p4() }, 200)).product_ids).toEqual([p3(), p1(), p2(), p4()]);
    expect((await api.post(path, { product_id: p3(), position: 2 }, 200)).product_ids).toEqual([
      p1(),
      p2(),
      p3(),
      p4(),
    ]);
    expect((await api.delete(`${path}${p2()}/`, 200)).product_ids).toEqual([p1(), p3(), p4()]);
    const patched = await api.patch(`${admin}/collections/${c.id}/`, {
      product_ids: [p4(), p1()],
      handle: 'the-order',
      seo_title: 'Ordered',
    });
    expect(patched).toMatchObject({ product_ids: [p4(), p1()], handle: 'the-order', seo_title: 'Ordered' });
  });

  it('refuses a handle in use (409), an unknown product, a repeated one, a malformed handle (422)', async () => {
    const taken = await api.post(`${admin}/collections/`, { name: 'Taken collection' });
    const clash = await send('POST', `${admin}/collections/`, { name: 'Other', handle: taken.handle });
    expectProblem(clash, 409, 'handle_taken');
    const other = await api.post(`${admin}/collections/`, { name: 'Other' });
    expectProblem(
      await send('PATCH', `${admin}/collections/${other.id}/`, { handle: taken.handle }),
      409,
      'handle_taken',
    );
    const unknown = await send('PATCH', `${admin}/collections/${other.id}/`, { product_ids: [p1(), 999_999] });
    expectProblem(unknown, 422, 'validation_error');
    expect(json(unknown).errors).toEqual([{ field: 'product_ids', message: expect.any(String) }]);
    const twice = await send('PATCH', `${admin}/collections/${other.id}/`, { product_ids: [p1(), p1()] });
    expectProblem(twice, 422, 'validation_error');
    const unknownAdded = await send('POST', `${admin}/collections/${other.id}/products/`, { product_id: 999_999 });
    expectProblem(unknownAdded, 422, 'validation_error');
    expect(json(unknownAdded).errors).toEqual([{ field: 'product_id', message: expect.any(String) }]);
    const creating = await send('POST', `${admin}/collections/`, { name: 'Bad', product_ids: [999_999] });
    expectProblem(creating, 422, 'validation_error');
    expectProblem(
      await send('POST', `${admin}/collections/`, { name: 'Bad', handle: 'Bad Handle' }),
      422,
      'validation_error',
    );
    expectProblem(await send('POST', `${admin}/collections/`, { name: ' ' }), 422, 'validation_error');
    expect(await api.get(`${admin}/collections/${other.id}/`)).toMatchObject({ handle: 'other', product_ids: [] });
  });

  it('answers 404 for an unknown collection or a product not in it, and refuses customers and guests', async () => {
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const res = await send(method, `${admin}/collections/999999/`, method === 'PATCH' ? {} : undefined);
      expectProblem(res, 404, 'collection_not_found');
    }
    expectProblem(
      await send('POST', `${admin}/collections/999999/products/`, { product_id: p1() }),
      404,
      'collection_not_found',
    );
    const c = await api.post(`${admin}/collections/`, { name: 'Lonely', product_ids: [p1()] });
    expectProblem(await send('DELETE', `${admin}/collections/${c.id}/products/${p2()}/`), 404, 'product_not_found');
    const asCustomer = await t.app.inject({
      method: 'GET',
      url: `${admin}/collections/`,
      headers: bearer(customer.access),
    });
    expectProblem(asCustomer, 403, 'forbidden');
    expectProblem(await t.app.inject({ method: 'GET', url: `${admin}/collections/` }), 401, 'unauthorized');
  });

  it('deletes a collection, its products staying', async () => {
    const c = await api.post(`${admin}/collections/`, { name: 'Short-lived', product_ids: [p1()] });
    await api.delete(`${admin}/collections/${c.id}/`);
    expectProblem(await send('GET', `${admin}/collections/${c.id}/`), 404, 'collection_not_found');
    expect(await api.get(`${admin}/products/${p1()}/`)).toMatchObject({ id: p1() });
  });
});

describe('collections on the storefront', () => {
  it('shows a collection by handle with its products in the collection’s order, paged by position', async () => {
    await api.post(`${admin}/collections/`, {
      name: 'Front',
      description: 'Our picks.',
      seo_description: 'Picks.',
      product_ids: [p4(), p2(), p3()],
    });
    const page = await shown('front');
    expect(page).toMatchObject({
      name: 'Front',
      description: 'Our picks.',
      seo: { title: 'Front', description: 'Picks.' },
    });
    expect(page.products.items.map((p: { id: number }) => p.id)).toEqual([p4(), p2(), p3()]);
    const first = await shown('front', '?limit=2');
    expect(first.products.items.map((p: { id: number }) => p.id)).toEqual([p4(), p2()]);
    expect(first.products.next_cursor).toBe('1');
    const second = await shown('front', `?limit=2&cursor=${first.products.next_cursor}`);
    expect(second.products).toMatchObject({ next_cursor: null });
    expect(second.products.items.map((p: { id: number }) => p.id)).toEqual([p3()]);
    const list = json(await t.app.inject({ method: 'GET', url: `${shop}/collections/` }));
    expect(list).toContainEqual({ id: page.id, name: 'Front', handle: 'front' });
  });

  it('leaves archived products out, and answers 404 for an unknown handle', async () => {
    const gone = await api.product({ name: 'Gone soon', variants: [{ name: 'One', price: '3.00' }] });
    await api.post(`${admin}/collections/`, { name: 'With gone', product_ids: [gone.id, p1()] });
    expect(await shownIds('with-gone')).toEqual([gone.id, p1()]);
    await api.delete(`${admin}/products/${gone.id}/`);
    expect(await shownIds('with-gone')).toEqual([p1()]);
    expectProblem(
      await t.app.inject({ method: 'GET', url: `${shop}/collections/nothing-here/` }),
      404,
      'collection_not_found',
    );
  });
});
