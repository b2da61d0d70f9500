import { asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import { productVariants, variantPrices } from '../db/schema.js';
import { DomainError } from '../shared/errors.js';
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
    await tx.delete(variantPrices).where(eq(variantPrices.variantId, variantId));
    if (prices.length === 0) return [];
    const rows = await tx
      .insert(variantPrices)
      .values(prices.map((price) => ({ ...price, variantId })))
      .returning();
    return rows.sort((a, b) => (a.currency < b.currency ? -1 : 1));
  });
}
