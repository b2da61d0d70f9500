import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { seedDemoImagesFor } from '../src/demo/demo-images.js';
import { seedDemoCatalog, seedDemoIfEmpty } from '../src/demo/demo-seed.js';
import { markets, promotions, shippingMethods, shippingRates, taxRates, variantPrices } from '../src/db/schema.js';
import { bearer, buildTestApp, json, signInAdmin, type TestApp } from './helpers.js';

let t: TestApp;
let dataDir: string;

const CA = {
  first_name: 'Ada',
  last_name: 'L',
  street_address: '1 Main St',
  city: 'Los Angeles',
  postal_code: '90001',
  state: 'CA',
  country: 'US',
  email: 'ada@example.com',
};
const payload = {
  variants: [{ alias: 'demo-tshirt-s', quantity: 2 }, { alias: 'demo-mug' }],
  shipping_address: CA,
  shipping_method_id: 1,
  promocode: 'save10',
};

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'demo-store-'));
  t = await buildTestApp({ config: { dataDir } });
  // What `npm start` does on a new embedded store (SEED_DEMO defaults to true there).
  await seedDemoIfEmpty(t.database.db, 2, 'USD');
  await seedDemoImagesFor(t.database.db, t.config);
});
afterAll(async () => {
  await t?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('demo store', () => {
  it('has a picture of every product drawn at seed time, and one per variant of a product with several', async () => {
    const page = json(await t.app.inject({ method: 'GET', url: '/product/storefront/api/products/' }));
    const keys = new Set<string>();
    for (const product of page.items) {
      expect(product.images.length, product.name).toBeGreaterThan(0);
      expect(product.images[0]).toMatchObject({ width: 1200, height: 900 });
      expect(product.images[0].alt).toContain(product.name);
      if (product.variants.length > 1) {
        for (const variant of product.variants) expect(variant.image_ids).toHaveLength(1);
      }
      for (const image of product.images) keys.add(image.url);
    }
    expect(keys.size).toBe(page.items.reduce((n: number, p: { images: unknown[] }) => n + p.images.length, 0));
    const served = await t.app.inject({ method: 'GET', url: page.items[0].images[0].url });
    expect(served.statusCode).toBe(200);
    expect((await sharp(served.rawPayload).metadata()).format).toBe('jpeg');
    // Seeding again adds none: every demo product has its pictures.
    expect(await seedDemoImagesFor(t.database.db, t.config)).toBe(0);
  });

  it('has handles for its products, two categories one under the other, and a collection', async () => {
    const get = async (url: string) => json(await t.app.inject({ method: 'GET', url }));
    const shop = '/product/storefront/api';
    expect((await get(`${shop}/products/by-handle/ceramic-coffee-mug/`)).name).toBe('Ceramic Coffee Mug');
    expect(await get(`${shop}/categories/`)).toMatchObject([
      { name: 'Coffee', handle: 'coffee', depth: 0 },
      { name: 'Mugs', handle: 'mugs', depth: 1 },
    ]);
    const coffee = await get(`${shop}/categories/coffee/`);
    const names = coffee.products.items.map((p: { name: string }) => p.name);
    expect(names).toEqual(['Ceramic Coffee Mug', 'Espresso Beans']);
    const gifts = await get(`${shop}/collections/gift-ideas/`);
    expect(gifts.products.items.map((p: { name: string }) => p.name)).toEqual([
      'Gift Card',
      'Hardcover Notebook',
      'Ceramic Coffee Mug',
    ]);
  });

  it('has a hoodie of Size × Colour with one combination not made and one sold out', async () => {
    const hoodie = json(
      await t.app.inject({ method: 'GET', url: '/product/storefront/api/products/by-handle/pullover-hoodie/' }),
    );
    expect(hoodie.options).toEqual([
      { name: 'Size', values: ['S', 'M', 'L'] },
      { name: 'Colour', values: ['Black', 'Grey'] },
    ]);
    expect(hoodie.variants.map((v: { name: string }) => v.name)).toEqual([
      'S / Black',
      'S / Grey',
      'M / Black',
      'M / Grey',
      'L / Black',
    ]);
    expect(hoodie.variants[3]).toMatchObject({ options: { Size: 'M', Colour: 'Grey' }, available: false });
    // The other demo products have the "Title" option of a product made without options.
    const mug = json(
      await t.app.inject({ method: 'GET', url: '/product/storefront/api/products/by-handle/ceramic-coffee-mug/' }),
    );
    expect(mug.options).toEqual([{ name: 'Title', values: ['Default'] }]);
  });

  it('estimates with California tax, the Standard shipping rate and the SAVE10 code', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/order/storefront/api/estimate/', payload });
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res)).toMatchObject({
      subtotal: '64.50',
      discount: '6.45',
      promotions: [expect.objectContaining({ code: 'SAVE10', kind: 'order_percentage', amount: '6.45' })],
      shipping_name: 'Standard',
      shipping_fee: '5.26',
      estimated_tax: '4.21',
      total: '67.52',
    });
  });

  it('places a guest order with the promo code', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/order/storefront/api/create/', payload });
    expect(res.statusCode, res.body).toBe(201);
    expect(json(res)).toMatchObject({ status: 'pending', discount: '6.45', total: '67.52' });
    expect(typeof json(res).order_token).toBe('string');
  });

  it('lists the Standard method for US, Germany and the UK, and none for Japan', async () => {
    const methods = async (country: string) =>
      json(
        await t.app.inject({
          method: 'GET',
          url: `/shipping/storefront/api/shipping-methods/?country=${country}`,
        }),
      );
    for (const country of ['US', 'DE', 'GB']) {
      expect(await methods(country)).toEqual([{ id: 1, name: 'Standard', description: '3 to 5 days' }]);
    }
    expect(await methods('JP')).toEqual([]);
  });

  it('shows its tax rates, shipping method and promo code to an admin', async () => {
    const admin = await signInAdmin(t);
    const get = async (url: string) => json(await t.app.inject({ method: 'GET', url, headers: bearer(admin.access) }));
    const rates = await get('/tax/dashboard/api/tax-rates/?country=US');
    expect(rates.map((r: { state: string; rate: string }) => `${r.state} ${r.rate}`)).toEqual(['CA 7.25', 'NY 4']);
    const codes = await get('/discount/dashboard/api/promo-codes/');
    expect(codes.items).toMatchObject([{ code: 'SAVE10', code_type: 'percentage', value: '10' }]);
  });

  it('has a second market, Europe in EUR with VAT included, for Germany, and the T-shirt at EUR 23.00', async () => {
    const markets = json(await t.app.inject({ method: 'GET', url: '/market/storefront/api/markets/' }));
    expect(markets).toMatchObject([
      { code: 'default', currency: 'USD', is_default: true },
      { code: 'eu', name: 'Europe', currency: 'EUR', prices_include_tax: true, is_default: false, countries: ['DE'] },
    ]);
    const admin = await signInAdmin(t);
    const get = async (url: string) => json(await t.app.inject({ method: 'GET', url, headers: bearer(admin.access) }));
    const eu = (await get('/market/dashboard/api/markets/'))[1];
    expect(eu).toMatchObject({ exchange_rate: '0.92', rounding_step: '1.00', price_ending: '0.99' });
    expect(await get('/product/dashboard/api/variants/1/prices/')).toMatchObject([
      { currency: 'EUR', price: '23.00', compare_at_price: null },
    ]);
    expect(await get('/product/dashboard/api/variants/3/prices/')).toEqual([]);
  });

  it('gives a store in another currency no second market: its rate is one from US dollars', async () => {
    const eur = await buildTestApp({ config: { storeCurrency: 'EUR' } });
    try {
      await seedDemoIfEmpty(eur.database.db, 2, 'EUR');
      const markets = json(await eur.app.inject({ method: 'GET', url: '/market/storefront/api/markets/' }));
      expect(markets).toMatchObject([{ code: 'default', currency: 'EUR' }]);
      expect(markets).toHaveLength(1);
    } finally {
      await eur.close();
    }
  });

  it('adds nothing when seeded again, and then only what was removed, leaving changed values alone', async () => {
    const db = t.database.db;
    const count = async () => ({
      rates: (await db.select().from(taxRates)).length,
      methods: (await db.select().from(shippingMethods)).length,
      shippingRates: (await db.select().from(shippingRates)).length,
      codes: (await db.select().from(promotions)).length,
    });
    const before = await count();
    expect(before).toEqual({ rates: 5, methods: 1, shippingRates: 4, codes: 1 });
    expect(await seedDemoCatalog(db, 2, 'USD')).toBe(0);
    expect(await seedDemoIfEmpty(db, 2, 'USD')).toBe(0);
    expect(await count()).toEqual(before);
    expect(await db.select().from(markets)).toHaveLength(2);
    expect(await db.select().from(variantPrices)).toHaveLength(2);

    await db.update(taxRates).set({ rate: '8' }).where(eq(taxRates.state, 'CA'));
    await db.delete(taxRates).where(eq(taxRates.state, 'NY'));
    expect(await seedDemoCatalog(db, 2)).toBe(0);
    expect(await count()).toEqual(before);
    const us = await db.select().from(taxRates).where(eq(taxRates.country, 'US')).orderBy(taxRates.state);
    expect(us.map((r) => `${r.state} ${Number(r.rate)}`)).toEqual(['CA 8', 'NY 4']);
  });
});
