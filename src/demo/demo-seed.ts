import { and, eq, inArray, sql } from 'drizzle-orm';
import { freeHandle } from '../catalog/handles.repository.js';
import { giveDefaultOptions, giveOptions } from '../catalog/options.repository.js';
import type { OptionList } from '../catalog/options.rules.js';
import type { Db, Tx } from '../db/client.js';
import {
  categories,
  collectionProducts,
  collections,
  marketCountries,
  markets,
  productCategories,
  products,
  productVariants,
  taxClasses,
  variantPrices,
} from '../db/schema.js';
import { createPromotion, type PromotionValues, promotionRowByCode } from '../promotions/promotions.repository.js';
import { createShippingMethod, createShippingRate, listShippingMethods } from '../shipping/shipping.repository.js';
import { createTaxRate, listTaxRates } from '../tax/tax.repository.js';

type DemoTaxClass = 'Standard' | 'Reduced';

interface DemoVariant {
  alias: string;
  name: string;
  sku: string;
  /** Price in hundredths of the currency's major unit (cents for USD); scaled for other currencies. */
  hundredths: number;
  weightGrams: string;
  stock: number;
  trackInventory?: boolean;
  allowBackorder?: boolean;
  purchaseLimitPerOrder?: number;
  /** Its value of each of the product's options; without options the product has "Title" (options.rules.ts). */
  options?: Record<string, string>;
}

interface DemoProduct {
  name: string;
  description: string;
  taxClass: DemoTaxClass | null;
  variants: DemoVariant[];
  options?: OptionList[];
}

/** A hoodie of Size × Colour (issue #29): every combination but L / Grey, and M / Grey sold out. */
const hoodieVariant = (size: 'S' | 'M' | 'L', colour: 'Black' | 'Grey', stock: number): DemoVariant => ({
  alias: `demo-hoodie-${size.toLowerCase()}-${colour.toLowerCase()}`,
  name: `${size} / ${colour}`,
  sku: `HOODIE-${size}-${colour.toUpperCase()}`,
  hundredths: size === 'L' ? 5200 : 4900,
  weightGrams: size === 'S' ? '520' : size === 'M' ? '560' : '600',
  stock,
  options: { Size: size, Colour: colour },
});

export const demoCatalog: DemoProduct[] = [
  {
    name: 'Organic Cotton T-Shirt',
    description: 'Soft, heavyweight organic cotton tee.',
    taxClass: 'Standard',
    variants: [
      { alias: 'demo-tshirt-s', name: 'Small', sku: 'TSHIRT-S', hundredths: 2500, weightGrams: '180', stock: 50 },
      { alias: 'demo-tshirt-m', name: 'Medium', sku: 'TSHIRT-M', hundredths: 2500, weightGrams: '190', stock: 40 },
      { alias: 'demo-tshirt-l', name: 'Large', sku: 'TSHIRT-L', hundredths: 2700, weightGrams: '200', stock: 0 },
    ],
  },
  {
    name: 'Ceramic Coffee Mug',
    description: 'Stoneware mug, 350 ml.',
    taxClass: 'Standard',
    variants: [
      { alias: 'demo-mug', name: 'White', sku: 'MUG-WHITE', hundredths: 1450, weightGrams: '350', stock: 120 },
    ],
  },
  {
    name: 'Espresso Beans',
    description: 'Single-origin beans, roasted weekly.',
    taxClass: 'Reduced',
    variants: [
      { alias: 'demo-beans-250', name: '250 g', sku: 'BEANS-250', hundredths: 899, weightGrams: '260', stock: 200 },
      {
        alias: 'demo-beans-1000',
        name: '1 kg',
        sku: 'BEANS-1000',
        hundredths: 2999,
        weightGrams: '1030',
        stock: 60,
        purchaseLimitPerOrder: 5,
      },
    ],
  },
  {
    name: 'Hardcover Notebook',
    description: 'A5, dotted, 192 pages. Ships when back in stock.',
    taxClass: 'Standard',
    variants: [
      {
        alias: 'demo-notebook',
        name: 'Black',
        sku: 'NOTEBOOK-A5',
        hundredths: 1899,
        weightGrams: '420.5',
        stock: 3,
        allowBackorder: true,
      },
    ],
  },
  {
    name: 'Gift Card',
    description: 'Delivered by email; never runs out.',
    taxClass: null,
    variants: [
      {
        alias: 'demo-gift-card-50',
        name: '50',
        sku: 'GIFT-50',
        hundredths: 5000,
        weightGrams: '0',
        stock: 0,
        trackInventory: false,
      },
    ],
  },
  {
    name: 'Pullover Hoodie',
    description: 'Brushed-back organic cotton fleece. Large comes in black only; medium grey is sold out.',
    taxClass: 'Standard',
    options: [
      { name: 'Size', values: ['S', 'M', 'L'] },
      { name: 'Colour', values: ['Black', 'Grey'] },
    ],
    variants: [
      hoodieVariant('S', 'Black', 12),
      hoodieVariant('S', 'Grey', 8),
      hoodieVariant('M', 'Black', 15),
      hoodieVariant('M', 'Grey', 0),
      hoodieVariant('L', 'Black', 3),
    ],
  },
];

/** Rates of the demo's tax classes: two US states, and VAT in Germany and the United Kingdom. */
export const demoTaxRates: { taxClass: DemoTaxClass; country: string; state: string; rate: string }[] = [
  { taxClass: 'Standard', country: 'US', state: 'CA', rate: '7.25' },
  { taxClass: 'Standard', country: 'US', state: 'NY', rate: '4' },
  { taxClass: 'Standard', country: 'DE', state: '', rate: '19' },
  { taxClass: 'Standard', country: 'GB', state: '', rate: '20' },
  { taxClass: 'Reduced', country: 'DE', state: '', rate: '7' },
];

/** One shipping method; fee = base + per kg × (order kg − the bracket's lower end), in hundredths. */
export const demoShipping = {
  name: 'Standard',
  description: '3 to 5 days',
  rates: [
    { country: 'US', weightMinKg: '0', weightMaxKg: '5', base: 490, perKg: 50 },
    { country: 'US', weightMinKg: '5', weightMaxKg: null, base: 740, perKg: 50 },
    { country: 'DE', weightMinKg: '0', weightMaxKg: null, base: 590, perKg: 100 },
    { country: 'GB', weightMinKg: '0', weightMaxKg: null, base: 390, perKg: 100 },
  ],
};

/** A promo code: 10 % off, no limits, so the docs' examples can use it again and again. */
const demoPromoCode = 'SAVE10';
const demoPromotion: PromotionValues = {
  name: 'Save 10 %',
  code: demoPromoCode,
  action: { type: 'order_percentage', percent: '10', products: null },
};

/** Scales a price in hundredths to the store currency's minor units. */
function demoPrice(hundredths: number, exponent: number): number {
  return exponent >= 2 ? hundredths * 10 ** (exponent - 2) : hundredths;
}

/**
 * The tax rates, shipping method and promo code the demo's estimates and placements use, through
 * the same repositories as the admin API. Each part that already exists (a rate for that class and
 * place, a method of that name, the code) is left alone, also when an admin changed it since.
 */
async function seedDemoPricing(tx: Tx, input: { classId: (name: DemoTaxClass) => number | null; exponent: number }) {
  for (const demo of demoTaxRates) {
    const taxClassId = input.classId(demo.taxClass);
    if (taxClassId === null) continue;
    const rates = await listTaxRates(tx, { taxClassId, country: demo.country });
    if (rates.some((r) => r.state.toUpperCase() === demo.state.toUpperCase())) continue;
    await createTaxRate(tx, { taxClassId, country: demo.country, state: demo.state, rate: demo.rate, isActive: true });
  }
  const methods = await listShippingMethods(tx);
  if (!methods.some((m) => m.name.toLowerCase() === demoShipping.name.toLowerCase())) {
    const { name, description } = demoShipping;
    const method = await createShippingMethod(tx, { name, description, isActive: true });
    for (const rate of demoShipping.rates) {
      await createShippingRate(tx, {
        shippingMethodId: method.id,
        country: rate.country,
        state: '',
        city: '',
        weightMinKg: rate.weightMinKg,
        weightMaxKg: rate.weightMaxKg,
        baseRate: demoPrice(rate.base, input.exponent),
        perKgRate: demoPrice(rate.perKg, input.exponent),
      });
    }
  }
  if (!(await promotionRowByCode(tx, demoPromoCode))) await createPromotion(tx, demoPromotion);
}

/**
 * The demo's second market (issue #28): Germany in euros, prices including VAT, converted from US dollars at 0.92 and
 * rounded to x.99, with an explicit EUR price for the small and medium T-shirt (EUR 23.00 for USD 25.00, whatever
 * the rate says); the default market, still named "Default", is renamed "International" for shoppers beside it. Its
 * rate is one from US dollars, so only a USD store gets it.
 */
export const demoMarket = {
  code: 'eu',
  name: 'Europe',
  /** What the default market is called beside it (the migration names it "Default", a word for admins). */
  defaultMarketName: 'International',
  currency: 'EUR',
  storeCurrency: 'USD',
  exchangeRate: '0.92',
  roundingStep: '1',
  priceEnding: '0.99',
  countries: ['DE'],
  /** Explicit prices in cents of EUR, by variant alias. */
  prices: [
    { alias: 'demo-tshirt-s', amount: 2300 },
    { alias: 'demo-tshirt-m', amount: 2300 },
  ],
};

/**
 * The demo market, unless the store is not in its rate's currency or already has a market of that code or one that
 * lists its countries (an admin's, left alone).
 */
async function seedDemoMarket(tx: Tx, storeCurrency: string): Promise<void> {
  if (storeCurrency !== demoMarket.storeCurrency) return;
  const [taken] = await tx.select({ id: markets.id }).from(markets).where(eq(markets.code, demoMarket.code));
  const listed = await tx
    .select({ country: marketCountries.country })
    .from(marketCountries)
    .where(inArray(marketCountries.country, demoMarket.countries));
  if (taken || listed.length > 0) return;
  const [market] = await tx
    .insert(markets)
    .values({
      code: demoMarket.code,
      name: demoMarket.name,
      currency: demoMarket.currency,
      pricesIncludeTax: true,
      exchangeRate: demoMarket.exchangeRate,
      roundingStep: demoMarket.roundingStep,
      priceEnding: demoMarket.priceEnding,
      roundingDirection: 'nearest',
    })
    .returning();
  if (!market) throw new Error('insert returned no market');
  await tx.insert(marketCountries).values(demoMarket.countries.map((country) => ({ country, marketId: market.id })));
  await tx
    .update(markets)
    .set({ name: demoMarket.defaultMarketName })
    .where(and(eq(markets.isDefault, true), eq(markets.name, 'Default')));
  const variants = await tx
    .select({ id: productVariants.id, alias: productVariants.alias })
    .from(productVariants)
    .where(
      inArray(
        productVariants.alias,
        demoMarket.prices.map((p) => p.alias),
      ),
    );
  const rows = demoMarket.prices.flatMap((price) => {
    const variant = variants.find((v) => v.alias === price.alias);
    return variant ? [{ variantId: variant.id, currency: demoMarket.currency, amount: price.amount }] : [];
  });
  if (rows.length > 0) await tx.insert(variantPrices).values(rows).onConflictDoNothing();
}

/**
 * Loads the demo store: catalog, tax rates, a shipping method, a promo code and, given a USD `storeCurrency`, a
 * second market (`demoMarket`). Idempotent: a demo product whose first variant alias already exists is left alone,
 * and so is pricing data that exists (see seedDemoPricing and seedDemoMarket). Returns how many products were added.
 */
export async function seedDemoCatalog(db: Db, exponent: number, storeCurrency?: string): Promise<number> {
  return db.transaction(async (tx) => {
    // One seeder at a time (several processes may start together on PostgreSQL).
    await tx.execute(sql`select pg_advisory_xact_lock(7236184612)`);
    for (const name of ['Standard', 'Reduced']) {
      await tx.insert(taxClasses).values({ name }).onConflictDoNothing();
    }
    const classes = await tx
      .select()
      .from(taxClasses)
      .where(inArray(taxClasses.name, ['Standard', 'Reduced']));
    const classId = (name: DemoTaxClass | null) => classes.find((c) => c.name === name)?.id ?? null;
    const aliases = demoCatalog.flatMap((p) => p.variants.map((v) => v.alias));
    const existing = new Set(
      (
        await tx
          .select({ alias: productVariants.alias })
          .from(productVariants)
          .where(inArray(productVariants.alias, aliases))
      ).map((r) => r.alias),
    );
    let added = 0;
    for (const demo of demoCatalog) {
      if (demo.variants.some((v) => existing.has(v.alias))) continue;
      const handle = await freeHandle(tx, 'products', demo.name);
      const [product] = await tx
        .insert(products)
        .values({ name: demo.name, description: demo.description, taxClassId: classId(demo.taxClass), handle })
        .returning();
      if (!product) throw new Error('insert returned no product');
      const made = await tx
        .insert(productVariants)
        .values(
          demo.variants.map((v) => ({
            productId: product.id,
            alias: v.alias,
            name: v.name,
            sku: v.sku,
            price: demoPrice(v.hundredths, exponent),
            weightGrams: v.weightGrams,
            stock: v.stock,
            trackInventory: v.trackInventory ?? true,
            allowBackorder: v.allowBackorder ?? false,
            purchaseLimitPerOrder: v.purchaseLimitPerOrder ?? null,
          })),
        )
        .returning({ id: productVariants.id, name: productVariants.name });
      if (demo.options) {
        const values = demo.variants.map((v, i) => ({ id: made[i]?.id ?? 0, values: v.options ?? {} }));
        await giveOptions(tx, { id: product.id, options: demo.options }, values);
      } else await giveDefaultOptions(tx, product.id, made);
      added += 1;
    }
    await seedDemoPricing(tx, { classId, exponent });
    if (storeCurrency !== undefined) await seedDemoMarket(tx, storeCurrency);
    await seedDemoNavigation(tx);
    return added;
  });
}

// ---- Demo categories and a collection (issue #29) -------------------------------------------------------------------

/** Two categories, one under the other, and a collection, each listing demo products by the alias of a variant. */
export const demoNavigation = {
  categories: [
    { name: 'Coffee', handle: 'coffee', parent: null, aliases: ['demo-beans-250'] },
    { name: 'Mugs', handle: 'mugs', parent: 'coffee', aliases: ['demo-mug'] },
  ],
  collection: { name: 'Gift ideas', handle: 'gift-ideas', aliases: ['demo-gift-card-50', 'demo-notebook', 'demo-mug'] },
} as const;

/**
 * The demo's categories and collection, once: left alone when a category or collection with the demo's handle exists
 * (an admin may have changed it since). Products named by an alias that is gone are left out.
 */
async function seedDemoNavigation(tx: Tx): Promise<void> {
  const aliases = [
    ...demoNavigation.categories.flatMap((c) => c.aliases),
    ...demoNavigation.collection.aliases,
  ] as string[];
  const rows = await tx
    .select({ alias: productVariants.alias, productId: productVariants.productId })
    .from(productVariants)
    .where(inArray(productVariants.alias, aliases));
  const productOf = new Map(rows.map((r) => [r.alias, r.productId]));
  const idsOf = (list: readonly string[]) => list.flatMap((alias) => productOf.get(alias) ?? []);
  const ids = new Map<string, number>();
  for (const [position, demo] of demoNavigation.categories.entries()) {
    const [existing] = await tx
      .select({ id: categories.id })
      .from(categories)
      .where(eq(categories.handle, demo.handle));
    if (existing) {
      ids.set(demo.handle, existing.id);
      continue;
    }
    const parentId = demo.parent === null ? null : (ids.get(demo.parent) ?? null);
    const [row] = await tx
      .insert(categories)
      .values({ name: demo.name, handle: demo.handle, parentId, position: parentId === null ? position : 0 })
      .returning({ id: categories.id });
    if (!row) throw new Error('insert returned no category');
    ids.set(demo.handle, row.id);
    const members = idsOf(demo.aliases).map((productId) => ({ productId, categoryId: row.id }));
    if (members.length > 0) await tx.insert(productCategories).values(members).onConflictDoNothing();
  }
  const { collection } = demoNavigation;
  const [existing] = await tx
    .select({ id: collections.id })
    .from(collections)
    .where(eq(collections.handle, collection.handle));
  if (existing) return;
  const [row] = await tx
    .insert(collections)
    .values({ name: collection.name, handle: collection.handle })
    .returning({ id: collections.id });
  if (!row) throw new Error('insert returned no collection');
  const members = idsOf(collection.aliases).map((productId, position) => ({
    collectionId: row.id,
    productId,
    position,
  }));
  if (members.length > 0) await tx.insert(collectionProducts).values(members);
}

// ---- end of the demo categories and collection ----------------------------------------------------------------------

/** Seeds only a store with no products at all (first start). */
export async function seedDemoIfEmpty(db: Db, exponent: number, storeCurrency?: string): Promise<number> {
  const [any] = await db.select({ id: products.id }).from(products).limit(1);
  return any ? 0 : seedDemoCatalog(db, exponent, storeCurrency);
}
