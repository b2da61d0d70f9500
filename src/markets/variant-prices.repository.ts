import { asc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import { productVariants, variantPrices } from '../db/schema.js';
import { DomainError } from '../shared/errors.js';
import type { UnitPrice } from './market-price.js';
import type { VariantPriceValues } from './variant-prices.values.js';

export type VariantPriceRow = typeof variantPrices.$inferSelect;

async function assertVariant(db: Db | Tx, id: number, lock: boolean): Promise<void> {
  const query = db.select({ id: productVariants.id }).from(productVariants).where(eq(productVariants.id, id));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new DomainError('variant_not_found', { detail: `variant ${id} not found` });
}

export async function listVariantPrices(db: Db, variantId: number): Promise<VariantPriceRow[]> {
  await assertVariant(db, variantId, false);
  return db
    .select()
    .from(variantPrices)
    .where(eq(variantPrices.variantId, variantId))
    .orderBy(asc(variantPrices.currency));
}

/** Replaces a variant's explicit prices with `prices` (none: every currency converted again), under its row lock. */
export function replaceVariantPrices(
  db: Db,
  variantId: number,
  prices: VariantPriceValues[],
): Promise<VariantPriceRow[]> {
  return db.transaction(async (tx) => {
    await assertVariant(tx, variantId, true);
    // What an order is charged changes with these prices: a placement priced before them is priced again (its
    // variant's pricing_version moved; the change feed announces the variant, decision 0031).
    await tx
      .update(productVariants)
      .set({ pricingVersion: sql`${productVariants.pricingVersion} + 1` })
      .where(eq(productVariants.id, variantId));
    await tx.delete(variantPrices).where(eq(variantPrices.variantId, variantId));
    if (prices.length === 0) return [];
    const rows = await tx
      .insert(variantPrices)
      .values(prices.map((price) => ({ ...price, variantId })))
      .returning();
    return rows.sort((a, b) => (a.currency < b.currency ? -1 : 1));
  });
}

/** A variant's explicit prices by currency, minor units of each. */
export type ExplicitPrices = Readonly<Record<string, UnitPrice>>;

/**
 * A variant's explicit prices as one column of the statement that reads the variant (no second round trip): a JSON
 * array of `[currency, amount, compare_at_amount]`, null when it has none.
 */
export const explicitPricesColumn = sql<[string, number, number | null][] | null>`(select json_agg(json_build_array(
  ${variantPrices.currency}, ${variantPrices.amount}, ${variantPrices.compareAtAmount}))
  from ${variantPrices} where ${variantPrices.variantId} = ${productVariants.id})`;

/** The explicit prices column as read, by currency. */
export function explicitPricesOf(read: [string, number, number | null][] | null): ExplicitPrices | null {
  if (read === null || read.length === 0) return null;
  const prices: Record<string, UnitPrice> = {};
  for (const [currency, amount, compareAt] of read) {
    prices[currency] = { amount: Number(amount), compareAt: compareAt === null ? null : Number(compareAt) };
  }
  return prices;
}
