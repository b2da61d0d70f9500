/**
 * Can a variant be sold, and how many units: the one statement of the rule, used by the cart, the storefront
 * catalog, the quote and placement (src/placement/placement.decide.ts). Pure: callers read the rows.
 */

/** The columns that decide how stock limits a variant's sales. */
export interface StockFacts {
  trackInventory: boolean;
  allowBackorder: boolean;
  /** Units on hand. */
  stock: number;
}

/** Archive timestamps of a variant and of its product. */
export interface ArchiveFacts {
  archivedAt: Date | string | null;
  productArchivedAt: Date | string | null;
}

/** Whether selling a unit takes it off stock: tracked variants that can't be backordered. */
export function stockIsCounted(v: Pick<StockFacts, 'trackInventory' | 'allowBackorder'>): boolean {
  return v.trackInventory && !v.allowBackorder;
}

/** Units that can be sold now; null when stock does not limit sales. */
export function sellableUnits(v: StockFacts): number | null {
  return stockIsCounted(v) ? v.stock : null;
}

/** Archived variants, and the variants of archived products, can't be bought (they stay for order history). */
export function isBuyable(v: ArchiveFacts): boolean {
  return v.archivedAt === null && v.productArchivedAt === null;
}

/** Whether `quantity` units of a buyable variant can be sold now. */
export function canSupply(v: StockFacts, quantity: number): boolean {
  const units = sellableUnits(v);
  return units === null || units >= quantity;
}
