import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminApi, buildAdminTestApp, marketInputs } from './fixtures.js';
import { bearer, expectProblem, json, type TestApp } from './helpers.js';

// The storefront's search (src/search/, docs/catalog.md#search, decision 0034) on the real app and database: ranking,
// typos, facets and their counts, cursor paging, prices in the request's market, the index current after each write.

const admin = '/product/dashboard/api';
const searchUrl = '/product/storefront/api/search/';

let t: TestApp;
let api: AdminApi;
let adminToken: string;
const id: Record<string, number> = {};

interface Hit {
  id: number;
  name: string;
  currency: string;
  variants: { price: string }[];
}
interface Answer {
  items: Hit[];
  next_cursor: string | null;
  total: number;
  currency: string;
  facets: {
    categories: { id: number; handle: string; depth: number; count: number }[];
    price: { min: string; max: string | null; count: number }[];
    options: { name: string; values: { value: string; count: number }[] }[];
    availability: { in_stock: number; all: number };
  };
}

type Params = Record<string, string | number | boolean | string[] | undefined>;

async function search(params: Params, headers: Record<string, string> = {}) {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    for (const one of Array.isArray(v) ? v : [v]) if (one !== undefined) query.append(k, String(one));
  }
  const res = await t.app.inject({ method: 'GET', url: `${searchUrl}?${query}`, headers });
  expect(res.statusCode, res.body).toBe(200);
  return json(res) as Answer;
}
const names = (answer: Answer) => answer.items.map((p) => p.name);

async function product(name: string, fields: Record<string, unknown>) {
  const created = await api.product({ name, variants: [{ name: 'One', price: '10.00', stock: 5 }], ...fields });
  id[name] = created.id;
  return created;
}

beforeAll(async () => {
  const store = await buildAdminTestApp();
  ({ t, api } = store);
  adminToken = store.admin.access;
  const clothing = await api.post(`${admin}/categories/`, { name: 'Clothing' });
  const shirts = await api.post(`${admin}/categories/`, { name: 'Shirts', parent_id: clothing.id });
  const kitchen = await api.post(`${admin}/categories/`, { name: 'Kitchen' });
  const mugs = await api.post(`${admin}/categories/`, { name: 'Mugs', parent_id: kitchen.id });
  Object.assign(id, { clothing: clothing.id, shirts: shirts.id, kitchen: kitchen.id, mugs: mugs.id });
  const tee = await product('Organic T-Shirt', {
    description: 'Soft organic cotton.',
    category_ids: [shirts.id],
    variants: [
      { name: 'Small', sku: 'TEE-S', price: '25.00', stock: 10 },
      { name: 'Medium', sku: 'TEE-M', price: '25.00', stock: 0 },
    ],
  });
  await product('Linen Shirt', { category_ids: [shirts.id], variants: [{ name: 'One', price: '45.00', stock: 0 }] });
  await product('Ceramic Coffee Mug', {
    description: 'Porcelain, 350 ml.',
    category_ids: [mugs.id],
    variants: [{ name: 'White', price: '12.00', stock: 5 }],
  });
  await product('Travel Mug', { category_ids: [mugs.id], variants: [{ name: 'Steel', price: '18.00', stock: 3 }] });
  await product('Cork Coaster', { description: 'Keeps a mug off the table.' });
  await product('Shirt Hanger', {
    description: 'Wood.',
    variants: [{ name: 'One', price: '4.00', track_inventory: false }],
  });
  await product('Archived Mug', { category_ids: [mugs.id] });
  await api.delete(`${admin}/products/${id['Archived Mug']}/`);
  for (let n = 1; n <= 23; n++) await product(`Dot Notebook ${n}`, { variants: [{ name: 'A5', price: '8.00' }] });
  const gifts = await api.post('/product/dashboard/api/collections/', {
    name: 'Gifts',
    product_ids: [id['Travel Mug'], id['Organic T-Shirt']],
  });
  id.gifts = gifts.id;
  await api.market({ ...marketInputs.eu, countries: ['DE'] });
  await api.market(marketInputs.jp);
  await api.variantPrices(tee.variants[0]?.id ?? 0, [{ currency: 'EUR', price: '19.00' }]);
});
afterAll(() => t?.close());

describe('search: finding and ranking', () => {
  it('ranks a match in the name above one in the description, and leaves archived products out', async () => {
    const found = names(await search({ q: 'mug' }));
    expect(found.slice(0, 2).sort()).toEqual(['Ceramic Coffee Mug', 'Travel Mug']);
    expect(found[2]).toBe('Cork Coaster');
    expect(found).not.toContain('Archived Mug');
  });

  it('forgives typos: "tshrit" finds the T-shirt, "mugg" the mugs, "porcelian" the mug described so', async () => {
    expect(names(await search({ q: 'tshrit' }))[0]).toBe('Organic T-Shirt');
    expect(
      names(await search({ q: 'mugg' }))
        .slice(0, 2)
        .sort(),
    ).toEqual(['Ceramic Coffee Mug', 'Travel Mug']);
    expect(names(await search({ q: 'porcelian' }))).toEqual(['Ceramic Coffee Mug']);
    expect(names(await search({ q: 't-shirt' }))).toEqual(['Organic T-Shirt']);
  });

  it('finds words as prefixes, SKUs, handles and category names, every word required', async () => {
    expect(names(await search({ q: 'cera' }))).toEqual(['Ceramic Coffee Mug']);
    expect(names(await search({ q: 'TEE-M' }))).toEqual(['Organic T-Shirt']);
    expect(names(await search({ q: 'mugs travel' }))).toEqual(['Travel Mug']);
    expect((await search({ q: 'organic xylophonist' })).items).toEqual([]);
  });

  it('lists by the filters alone in id order when q is blank', async () => {
    const answer = await search({ q: '', category: 'kitchen' });
    expect(answer.items.map((p) => p.id)).toEqual([id['Ceramic Coffee Mug'], id['Travel Mug']]);
    expect(answer.total).toBe(2);
    // Categories drill down: within the chosen category, its subcategories; the others are not counted.
    expect(answer.facets.categories.map((c) => [c.handle, c.count])).toEqual([
      ['kitchen', 2],
      ['mugs', 2],
    ]);
  });
});

describe('search: filters and facets', () => {
  it('counts products per category (subcategories in their parents), price range and stock', async () => {
    const answer = await search({ q: 'shirt' });
    expect(names(answer).sort()).toEqual(['Linen Shirt', 'Organic T-Shirt', 'Shirt Hanger']);
    expect(answer.facets.categories.map((c) => [c.handle, c.depth, c.count])).toEqual([
      ['clothing', 0, 2],
      ['shirts', 1, 2],
    ]);
    expect(answer.facets.price).toEqual([
      { min: '2.00', max: '5.00', count: 1 },
      { min: '20.00', max: '50.00', count: 2 },
    ]);
    // The T-shirt (one size in stock) and the hanger (stock not counted); the linen shirt has none.
    expect(answer.facets.availability).toEqual({ in_stock: 2, all: 3 });
  });

  it("gives for each facet value the count filtering by it answers (every filter but the facet's own)", async () => {
    const bases: Params[] = [{ q: 'shirt' }, { q: 'mug' }, { q: '' }, { q: 'mug', in_stock: true }];
    for (const base of bases) {
      const answer = await search(base);
      for (const c of answer.facets.categories) {
        expect((await search({ ...base, category: c.handle })).total, c.handle).toBe(c.count);
      }
      for (const p of answer.facets.price) {
        const range = p.max === null ? { price_min: p.min } : { price_min: p.min, price_max: p.max };
        expect((await search({ ...base, ...range })).total, p.min).toBe(p.count);
      }
      expect((await search({ ...base, in_stock: true })).total).toBe(answer.facets.availability.in_stock);
    }
  });

  it('filters by category with its subcategories, collection, price range and stock together', async () => {
    expect(names(await search({ q: '', category: 'clothing' })).sort()).toEqual(['Linen Shirt', 'Organic T-Shirt']);
    expect(names(await search({ q: '', collection: 'gifts' })).sort()).toEqual(['Organic T-Shirt', 'Travel Mug']);
    expect(names(await search({ q: '', price_min: '10.00', price_max: '20.00' })).sort()).toEqual([
      'Ceramic Coffee Mug',
      'Cork Coaster',
      'Travel Mug',
    ]);
    const inStock = await search({ q: 'shirt', in_stock: true, category: 'shirts' });
    expect(names(inStock)).toEqual(['Organic T-Shirt']);
    // The category facet counts with the stock filter; the stock facet without it.
    expect(inStock.facets.categories.find((c) => c.handle === 'shirts')?.count).toBe(1);
    expect(inStock.facets.availability).toEqual({ in_stock: 1, all: 2 });
  });

  it("prices hits, ranges and filters in the request's market (explicit prices, else converted)", async () => {
    const eu = await search({ q: 'shirt' }, { 'x-market': 'eu' });
    expect(eu.currency).toBe('EUR');
    const tee = eu.items.find((p) => p.name === 'Organic T-Shirt');
    expect(tee?.variants.map((v) => v.price)).toEqual(['19.00', '23.00']); // explicit; 25.00 × 0.92
    // Linen 45.00 × 0.92 = 41.40; hanger 3.68; the T-shirt has one variant in [10, 20) and one in [20, 50).
    expect(eu.facets.price).toEqual([
      { min: '2.00', max: '5.00', count: 1 },
      { min: '10.00', max: '20.00', count: 1 },
      { min: '20.00', max: '50.00', count: 2 },
    ]);
    const cheap = await search({ q: 'shirt', price_max: '20.00' }, { 'x-market': 'eu' });
    expect(names(cheap).sort()).toEqual(['Organic T-Shirt', 'Shirt Hanger']);
    // In yen (rounded to hundreds): 25.00 USD is ¥3,800, 45.00 is ¥6,800; ¥3,800 is in [2,000, 5,000).
    const jp = await search({ q: 'shirt', price_min: '3800', price_max: '3801' }, { 'x-market': 'jp' });
    expect(names(jp)).toEqual(['Organic T-Shirt']);
    expect(jp.items[0]?.variants[0]?.price).toBe('3800');
    expect((await search({ q: 'shirt', price_min: '3801', price_max: '6800' }, { 'x-market': 'jp' })).total).toBe(0);
  });
});

describe('search: option values', () => {
  const withOptions = async (name: string, options: { name: string; values: string[] }[], stock = 2) => {
    const created = await product(name, {
      category_ids: [id.outerwear],
      variants: [{ name, price: '40.00', stock }],
    });
    for (const payload of [{ options }, { price: '40.00', stock }]) {
      const url = `${admin}/products/${created.id}/${'options' in payload ? 'options/' : 'variants/generate/'}`;
      const res = await t.app.inject({
        method: 'options' in payload ? 'PUT' : 'POST',
        url,
        headers: bearer(adminToken),
        payload,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
  };
  const facet = (answer: Answer) =>
    Object.fromEntries(answer.facets.options.map((o) => [o.name, o.values.map((v) => `${v.value} ${v.count}`)]));

  beforeAll(async () => {
    id.outerwear = (await api.post(`${admin}/categories/`, { name: 'Outerwear' })).id;
    await withOptions('Fleece Hoodie', [
      { name: 'Colour', values: ['Red', 'Blue'] },
      { name: 'Size', values: ['S', 'M'] },
    ]);
    await withOptions('Rain Jacket', [
      { name: 'Colour', values: ['Red', 'Yellow'] },
      { name: 'Size', values: ['M', 'L'] },
    ]);
    // Another spelling of the same option and value: one facet value, one filter.
    await withOptions('Wool Scarf', [{ name: 'colour', values: ['red'] }], 0);
  });

  it('finds a product by the option values of its variants ("red hoodie")', async () => {
    expect(names(await search({ q: 'red hoodie' }))).toEqual(['Fleece Hoodie']);
    expect(names(await search({ q: 'yellow' }))).toEqual(['Rain Jacket']);
  });

  it('counts products per option value, other options filtering, "Title" left out', async () => {
    const all = await search({ category: 'outerwear' });
    expect(all.total).toBe(3);
    expect(facet(all)).toEqual({ Colour: ['Red 3', 'Blue 1', 'Yellow 1'], Size: ['M 2', 'L 1', 'S 1'] });
    // Products made without options have "Title" alone: no option facet.
    expect((await search({ q: 'mug' })).facets.options).toEqual([]);
    const large = await search({ category: 'outerwear', option: 'Size:L' });
    expect(names(large)).toEqual(['Rain Jacket']);
    // Colour counted with the size filter, Size without its own: every size of the products that have one.
    expect(facet(large)).toEqual({ Colour: ['Red 1', 'Yellow 1'], Size: ['M 2', 'L 1', 'S 1'] });
    const redOrBlueMedium = await search({ category: 'outerwear', option: ['colour:RED', 'Colour:Blue', 'Size:M'] });
    expect(names(redOrBlueMedium).sort()).toEqual(['Fleece Hoodie', 'Rain Jacket']);
    expect(facet(redOrBlueMedium)).toEqual({ Colour: ['Red 2', 'Blue 1', 'Yellow 1'], Size: ['M 2', 'L 1', 'S 1'] });
    const inStock = await search({ category: 'outerwear', option: 'Colour:Red', in_stock: true });
    expect(names(inStock).sort()).toEqual(['Fleece Hoodie', 'Rain Jacket']);
    expect(inStock.facets.availability).toEqual({ in_stock: 2, all: 3 });
  });

  it("gives for each option value the count filtering by it answers (every filter but the option's own)", async () => {
    const bases: Params[] = [
      { category: 'outerwear' },
      { category: 'outerwear', option: 'Size:L' },
      { q: 'red', in_stock: true },
      { category: 'outerwear', option: ['Colour:Red', 'Size:S'] },
    ];
    for (const base of bases) {
      const answer = await search(base);
      const given = base.option === undefined ? [] : [base.option].flat().map(String);
      for (const option of answer.facets.options) {
        const others = given.filter((g) => !g.toLowerCase().startsWith(`${option.name.toLowerCase()}:`));
        for (const v of option.values) {
          const asked = await search({ ...base, option: [...others, `${option.name}:${v.value}`] });
          expect(asked.total, `${option.name}:${v.value}`).toBe(v.count);
        }
      }
      for (const c of answer.facets.categories) {
        expect((await search({ ...base, category: c.handle })).total, c.handle).toBe(c.count);
      }
    }
  });

  it('follows option writes at once: values taken away, variants archived', async () => {
    const hoodie = id['Fleece Hoodie'];
    const res = await t.app.inject({
      method: 'PUT',
      url: `${admin}/products/${hoodie}/options/`,
      headers: bearer(adminToken),
      payload: {
        options: [
          { name: 'Colour', values: ['Blue', 'Green'] },
          { name: 'Size', values: ['S', 'M'] },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    // The red variants are archived: the hoodie is no longer red; green has no variant yet.
    expect(names(await search({ q: 'red hoodie' }))).toEqual([]);
    expect(names(await search({ category: 'outerwear', option: 'Colour:Red' })).sort()).toEqual([
      'Rain Jacket',
      'Wool Scarf',
    ]);
    expect(names(await search({ category: 'outerwear', option: 'Colour:Green' }))).toEqual([]);
    expect(facet(await search({ category: 'outerwear' })).Colour).toEqual(['Red 2', 'Blue 1', 'Yellow 1']);
    // A value renamed with SQL: the documents and facets of the products that have it, in the same statement.
    await t.database.db.execute(sql`update product_option_values set value = 'Navy'
      where value = 'Blue' and option_id in (select id from product_options where product_id = ${hoodie})`);
    expect(names(await search({ q: 'navy hoodie', option: 'colour:navy' }))).toEqual(['Fleece Hoodie']);
    await api.delete(`${admin}/products/${id['Rain Jacket']}/`);
    expect(names(await search({ category: 'outerwear', option: 'Colour:Red' }))).toEqual(['Wool Scarf']);
  });
});

describe('search: paging', () => {
  it('walks every match once, in the order of one big page, ties in id order, whatever the page size', async () => {
    const whole = await search({ q: 'notebook', limit: 100 });
    expect(whole.total).toBe(23);
    expect(whole.items.map((p) => p.id)).toEqual([...whole.items.map((p) => p.id)].sort((a, b) => a - b));
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 9 }), fc.constantFrom('notebook', 'dot 1', ''), async (limit, q) => {
        const all = (await search({ q, limit: 100 })).items.map((p) => p.id);
        const walked: number[] = [];
        let cursor: string | null = null;
        do {
          const page: Answer = await search({ q, limit, ...(cursor ? { cursor } : {}) });
          walked.push(...page.items.map((p) => p.id));
          cursor = page.next_cursor;
        } while (cursor !== null);
        expect(walked).toEqual(all);
      }),
      { numRuns: 12 },
    );
  });
});

describe('search: the index is current after each write', () => {
  it('finds a product by its new name, new SKU and renamed category in the answer after the write', async () => {
    const coaster = id['Cork Coaster'];
    await api.patch(`${admin}/products/${coaster}/`, { name: 'Cork Trivet' });
    expect(names(await search({ q: 'trivet' }))).toEqual(['Cork Trivet']);
    // A rename keeps the handle (cork-coaster), which is indexed too.
    expect(names(await search({ q: 'coaster' }))).toEqual(['Cork Trivet']);
    expect(names(await search({ q: 'keeps table cork' }))).toEqual(['Cork Trivet']);
    await api.patch(`${admin}/products/${coaster}/`, { description: 'Hot pans.' });
    expect(names(await search({ q: 'keeps table cork' }))).toEqual([]);
    await api.post(`${admin}/products/${coaster}/variants/`, { name: 'Large', sku: 'TRIVET-XL', price: '11.00' });
    expect(names(await search({ q: 'trivet-xl' }))).toEqual(['Cork Trivet']);
    await api.patch(`${admin}/categories/${id.mugs}/`, { name: 'Cups' });
    expect(names(await search({ q: 'cups' })).sort()).toEqual(['Ceramic Coffee Mug', 'Travel Mug']);
    await api.patch(`${admin}/products/${coaster}/`, { category_ids: [id.kitchen] });
    expect(names(await search({ q: 'kitchen cork' }))).toEqual(['Cork Trivet']);
    await api.delete(`${admin}/products/${coaster}/`);
    expect(names(await search({ q: 'trivet' }))).toEqual([]);
  });

  it('counts a price, stock, explicit price or archive change in the next search, facets and filters', async () => {
    const lamp = await product('Brass Lamp', {
      variants: [
        { name: 'Small', price: '30.00', stock: 1 },
        { name: 'Large', price: '60.00', stock: 0 },
      ],
    });
    const [small, large] = lamp.variants.map((v: { id: number }) => v.id);
    const shown = async (params: Params = {}, headers: Record<string, string> = {}) => {
      const answer = await search({ q: 'brass', ...params }, headers);
      return { ...answer.facets, total: answer.total, price: answer.facets.price.map((p) => `${p.min} ${p.count}`) };
    };
    expect(await shown()).toMatchObject({ price: ['20.00 1', '50.00 1'], availability: { in_stock: 1, all: 1 } });
    await api.patch(`${admin}/variants/${small}/`, { stock: 0 });
    expect((await shown({ in_stock: true })).total).toBe(0);
    expect((await shown()).availability).toEqual({ in_stock: 0, all: 1 });
    // Stock written as a placement or refund writes it: the product is in stock again in the same statement.
    await t.database.db.execute(sql`update product_variants set stock = stock + 2 where id = ${large}`);
    expect((await shown({ in_stock: true })).total).toBe(1);
    await api.patch(`${admin}/variants/${large}/`, { price: '15.00' });
    expect((await shown()).price).toEqual(['10.00 1', '20.00 1']);
    expect((await shown({ price_min: '50.00' })).total).toBe(0);
    await api.delete(`${admin}/variants/${small}/`);
    expect((await shown()).price).toEqual(['10.00 1']);
    expect((await shown({ price_min: '20.00' })).total).toBe(0);
    await api.variantPrices(large ?? 0, [{ currency: 'EUR', price: '40.00' }]);
    expect((await shown({}, { 'x-market': 'eu' })).price).toEqual(['20.00 1']);
    expect((await shown({ price_max: '20.00' }, { 'x-market': 'eu' })).total).toBe(0);
    expect((await shown()).price).toEqual(['10.00 1']);
  });

  it('sees a product sell out and come back at once, in a search answered again from memory', async () => {
    const kettle = await product('Copper Kettle', { variants: [{ name: 'One', price: '70.00', stock: 1 }] });
    const variant = kettle.variants[0]?.id;
    const stocked = async () => {
      const all = await search({ q: 'copper kettle' });
      const inStock = await search({ q: 'copper kettle', in_stock: true });
      return { availability: all.facets.availability, filtered: names(inStock), total: inStock.total };
    };
    const before = { availability: { in_stock: 1, all: 1 }, filtered: ['Copper Kettle'], total: 1 };
    expect(await stocked()).toEqual(before);
    expect(await stocked()).toEqual(before);
    // As a placement writes stock: no admin route, no change announced.
    await t.database.db.execute(sql`update product_variants set stock = 0 where id = ${variant}`);
    expect(await stocked()).toEqual({ availability: { in_stock: 0, all: 1 }, filtered: [], total: 0 });
    await t.database.db.execute(sql`update product_variants set stock = 3 where id = ${variant}`);
    expect(await stocked()).toEqual(before);
  });

  it('indexes products and variants written with SQL, in the same transaction', async () => {
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into products (name, handle) values ('Walnut Spoon', 'walnut-spoon')`);
      await tx.execute(sql`insert into product_variants (product_id, alias, name, sku, price)
        select id, 'spoon-1', 'One', 'SPN-77', 600 from products where handle = 'walnut-spoon'`);
      const [row] = (
        (await tx.execute(sql`select count(*)::int as n from product_search s join products p on p.id = s.product_id
          where p.handle = 'walnut-spoon' and s.document @@ 'spn77'::tsquery`)) as unknown as { rows: { n: number }[] }
      ).rows;
      expect(row?.n).toBe(1);
    });
    expect(names(await search({ q: 'walnut' }))).toEqual(['Walnut Spoon']);
  });
});

describe('search: bad parameters', () => {
  it.each([
    ['price_min', { price_min: '1.234' }],
    ['price_min', { price_min: 'cheap' }],
    ['price_max', { price_min: '20.00', price_max: '10.00' }],
    ['category', { category: 'no-such-category' }],
    ['collection', { collection: 'no-such-collection' }],
    ['cursor', { cursor: 'not-a-cursor' }],
    ['limit', { limit: '0' }],
    ['in_stock', { in_stock: 'maybe' }],
    ['option[0]', { option: 'Colour' }],
    ['option[1]', { option: ['Colour:Red', ':Red'] }],
    ['option[0]', { option: 'Colour:  ' }],
    ['option', { option: Array.from({ length: 21 }, (_, n) => `Size:${n}`) }],
  ])('answers 422 naming %s', async (field, params) => {
    const query = new URLSearchParams({ q: 'mug' });
    for (const [k, v] of Object.entries(params)) for (const one of [v].flat()) query.append(k, one);
    const res = await t.app.inject({ method: 'GET', url: `${searchUrl}?${query}` });
    const problem = expectProblem(res, 422, 'validation_error');
    expect(JSON.stringify(problem)).toContain(field);
  });

  it('answers 422 for a market that does not exist', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${searchUrl}?q=mug`, headers: { 'x-market': 'mars' } });
    expectProblem(res, 422, 'unknown_market');
  });
});
