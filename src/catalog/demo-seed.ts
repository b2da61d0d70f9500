import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { products, productVariants, taxClasses } from '../db/schema.js';

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
}

interface DemoProduct {
  name: string;
  description: string;
  taxClass: 'Standard' | 'Reduced' | null;
  variants: DemoVariant[];
}

export const demoCatalog: DemoProduct[] = [
  {
    name: 'Organic Cotton T-Shirt', description: 'Soft, heavyweight organic cotton tee.', taxClass: 'Standard',
    variants: [
      { alias: 'demo-tshirt-s', name: 'Small', sku: 'TSHIRT-S', hundredths: 2500, weightGrams: '180', stock: 50 },
      { alias: 'demo-tshirt-m', name: 'Medium', sku: 'TSHIRT-M', hundredths: 2500, weightGrams: '190', stock: 40 },
      { alias: 'demo-tshirt-l', name: 'Large', sku: 'TSHIRT-L', hundredths: 2700, weightGrams: '200', stock: 0 },
    ],
  },
  {
    name: 'Ceramic Coffee Mug', description: 'Stoneware mug, 350 ml.', taxClass: 'Standard',
    variants: [{ alias: 'demo-mug', name: 'White', sku: 'MUG-WHITE', hundredths: 1450, weightGrams: '350', stock: 120 }],
  },
  {
    name: 'Espresso Beans', description: 'Single-origin beans, roasted weekly.', taxClass: 'Reduced',
    variants: [
      { alias: 'demo-beans-250', name: '250 g', sku: 'BEANS-250', hundredths: 899, weightGrams: '260', stock: 200 },
      { alias: 'demo-beans-1000', name: '1 kg', sku: 'BEANS-1000', hundredths: 2999, weightGrams: '1030', stock: 60, purchaseLimitPerOrder: 5 },
    ],
  },
  {
    name: 'Hardcover Notebook', description: 'A5, dotted, 192 pages. Ships when back in stock.', taxClass: 'Standard',
    variants: [{ alias: 'demo-notebook', name: 'Black', sku: 'NOTEBOOK-A5', hundredths: 1899, weightGrams: '420.5', stock: 3, allowBackorder: true }],
  },
  {
    name: 'Gift Card', description: 'Delivered by email; never runs out.', taxClass: null,
    variants: [{ alias: 'demo-gift-card-50', name: '50', sku: 'GIFT-50', hundredths: 5000, weightGrams: '0', stock: 0, trackInventory: false }],
  },
];

/** Scales a price in hundredths to the store currency's minor units. */
function demoPrice(hundredths: number, exponent: number): number {
  return exponent >= 2 ? hundredths * 10 ** (exponent - 2) : hundredths;
}

/**
 * Loads the demo catalog. Idempotent: a demo product whose first variant alias already exists is
 * left alone. Returns how many products were added.
 */
export async function seedDemoCatalog(db: Db, exponent: number): Promise<number> {
  return db.transaction(async (tx) => {
    // One seeder at a time (several processes may start together on PostgreSQL).
    await tx.execute(sql`select pg_advisory_xact_lock(7236184612)`);
    for (const name of ['Standard', 'Reduced']) {
      await tx.insert(taxClasses).values({ name }).onConflictDoNothing();
    }
    const classes = await tx.select().from(taxClasses).where(inArray(taxClasses.name, ['Standard', 'Reduced']));
    const classId = (name: string | null) => classes.find((c) => c.name === name)?.id ?? null;
    const aliases = demoCatalog.flatMap((p) => p.variants.map((v) => v.alias));
    const existing = new Set((await tx.select({ alias: productVariants.alias }).from(productVariants)
      .where(inArray(productVariants.alias, aliases))).map((r) => r.alias));
    let added = 0;
    for (const demo of demoCatalog) {
      if (demo.variants.some((v) => existing.has(v.alias))) continue;
      const [product] = await tx.insert(products)
        .values({ name: demo.name, description: demo.description, taxClassId: classId(demo.taxClass) }).returning();
      if (!product) throw new Error('insert returned no product');
      await tx.insert(productVariants).values(demo.variants.map((v) => ({
        productId: product.id, alias: v.alias, name: v.name, sku: v.sku, price: demoPrice(v.hundredths, exponent),
        weightGrams: v.weightGrams, stock: v.stock, trackInventory: v.trackInventory ?? true,
        allowBackorder: v.allowBackorder ?? false, purchaseLimitPerOrder: v.purchaseLimitPerOrder ?? null,
      })));
      added += 1;
    }
    return added;
  });
}

/** Seeds only a store with no products at all (first start). */
export async function seedDemoIfEmpty(db: Db, exponent: number): Promise<number> {
  const [any] = await db.select({ id: products.id }).from(products).limit(1);
  return any ? 0 : seedDemoCatalog(db, exponent);
}
