import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import {
  markets,
  type OrderEditLineRow,
  orderEdits,
  orderLines,
  orders,
  products,
  productVariants,
  promotions,
  taxClasses,
  taxRates,
  variantPrices,
} from '../db/schema.js';
import type { StoredPriceRounding, UnitPrice } from '../markets/market-price.js';
import { lineImageOf, variantImageColumn } from '../media/media.repository.js';
import { variantOptionsColumn } from '../catalog/options.repository.js';
import { lineDisplayName, optionsAsSold, soldItem } from '../orders/order-line.js';
import type { OrderRow } from '../orders/orders.repository.js';
import type { PricedLine, PricedOrder } from '../pricing/pricing.types.js';
import { resolveTaxRates } from '../pricing/tax-rate.selector.js';
import type { EditedLine, EditedVariant } from './order-edit.decide.js';

export type OrderEditRow = typeof orderEdits.$inferSelect;

/** Locks the promotions an order applied, in id order (as placements lock them), before any variant. */
export async function lockOrderPromotions(tx: Tx, order: OrderRow): Promise<void> {
  const ids = [...new Set(order.promotions.map((p) => p.id))].sort((a, b) => a - b);
  if (ids.length === 0) return;
  await tx
    .select({ id: promotions.id })
    .from(promotions)
    .where(inArray(promotions.id, ids))
    .orderBy(asc(promotions.id))
    .for('update');
}

/**
 * The variants an edit names, locked in id order, as the catalog has them now, each with its tax rate for the order's
 * delivery address (the rates in force now: a line added today is taxed as it would be sold today).
 */
export async function lockEditedVariants(
  tx: Tx,
  input: { aliases: readonly string[]; order: OrderRow },
): Promise<Map<string, EditedVariant>> {
  if (input.aliases.length === 0) return new Map();
  const rows = await tx
    .select({
      id: productVariants.id,
      alias: productVariants.alias,
      variantName: productVariants.name,
      sku: productVariants.sku,
      productId: products.id,
      productName: products.name,
      priceMinor: productVariants.price,
      trackInventory: productVariants.trackInventory,
      allowBackorder: productVariants.allowBackorder,
      stock: productVariants.stock,
      purchaseLimitPerOrder: productVariants.purchaseLimitPerOrder,
      archivedAt: productVariants.archivedAt,
      productArchivedAt: products.archivedAt,
      taxClassId: taxClasses.id,
      taxClassName: taxClasses.name,
      options: variantOptionsColumn,
      image: variantImageColumn,
    })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .leftJoin(taxClasses, eq(taxClasses.id, products.taxClassId))
    .where(inArray(productVariants.alias, [...input.aliases]))
    .orderBy(asc(productVariants.id))
    .for('update', { of: productVariants });
  const address = input.order.shippingAddress;
  const rates =
    address && rows.some((r) => r.taxClassId !== null)
      ? resolveTaxRates(
          await tx.select().from(taxRates).where(eq(taxRates.country, address.country)),
          { country: address.country, state: address.state },
          rows.flatMap((r) => (r.taxClassId === null ? [] : [r.taxClassId])),
        )
      : new Map<number, string>();
  return new Map(
    rows.map(({ taxClassId, variantName, productName, options, image, ...row }) => [
      row.alias,
      {
        ...row,
        options: optionsAsSold(options),
        image: lineImageOf(image),
        name: lineDisplayName({ productName, variantName }),
        taxClassName: taxClassId === null ? null : row.taxClassName,
        taxRate: (taxClassId === null ? undefined : rates.get(taxClassId)) ?? '0',
        productName,
        variantName,
      },
    ]),
  );
}

/**
 * What pricing a line added to an order of a market needs besides the order's locked rate: the market's rounding rule
 * (as it is now, as the catalog shows prices today) and the variants' explicit prices in the order's currency. Null for
 * an order without a market, or whose market does not sell in the order's currency (the default market).
 */
export async function orderMarketPricing(
  tx: Tx,
  input: { order: OrderRow; variantIds: readonly number[] },
): Promise<{ rule: StoredPriceRounding; explicit: Map<number, UnitPrice> } | null> {
  const { order } = input;
  if (order.marketId === null) return null;
  const [market] = await tx
    .select({
      step: markets.roundingStep,
      ending: markets.priceEnding,
      direction: markets.roundingDirection,
      currency: markets.currency,
    })
    .from(markets)
    .where(eq(markets.id, order.marketId));
  // The default market's prices are the catalog's own; a market is only a rule for its own currency.
  if (!market || market.currency !== order.currency) return null;
  const prices =
    input.variantIds.length === 0
      ? []
      : await tx
          .select()
          .from(variantPrices)
          .where(
            and(inArray(variantPrices.variantId, [...input.variantIds]), eq(variantPrices.currency, order.currency)),
          );
  return {
    rule: { step: market.step, ending: market.ending, direction: market.direction },
    explicit: new Map(prices.map((p) => [p.variantId, { amount: p.amount, compareAt: p.compareAtAmount }])),
  };
}

const lineFigures = (priced: PricedLine) => ({
  quantity: priced.quantity,
  subtotal: priced.subtotalMinor,
  discount: priced.discountMinor,
  adjustments: priced.adjustments.map((a) => ({ promotion_id: a.promotionId, amount: a.amountMinor })),
  tax: priced.taxMinor,
  total: priced.totalMinor,
});

/** Writes the edited lines: each kept or changed line's new figures, the added lines, the removed ones deleted. */
export async function writeEditedLines(
  tx: Tx,
  input: { orderId: number; lines: readonly EditedLine[]; priced: PricedOrder },
): Promise<void> {
  const byAlias = new Map(input.priced.lines.map((l) => [l.alias, l]));
  const pricedOf = (alias: string) => {
    const priced = byAlias.get(alias);
    if (!priced) throw new Error(`edited line ${alias} was not priced`);
    return priced;
  };
  for (const line of input.lines) {
    if (line.kind === 'removed') {
      await tx.delete(orderLines).where(eq(orderLines.id, line.line.id));
    } else if (line.kind === 'added') {
      const priced = pricedOf(line.variant.alias);
      const { variant } = line;
      const item = soldItem({
        productName: variant.productName,
        name: variant.variantName,
        sku: variant.sku,
        options: variant.options,
        image: variant.image,
      });
      await tx.insert(orderLines).values({
        orderId: input.orderId,
        variantId: variant.id,
        productId: variant.productId,
        alias: variant.alias,
        ...item,
        unitPrice: priced.unitPriceMinor,
        taxClassName: variant.taxClassName,
        taxRate: priced.taxRate,
        stockReserved: line.stockReserved,
        ...lineFigures(priced),
      });
    } else {
      await tx
        .update(orderLines)
        .set(lineFigures(pricedOf(line.line.alias)))
        .where(eq(orderLines.id, line.line.id));
    }
  }
}

/** Changes variants' stock by the units given (negative: taken), in id order; the rows are locked already. */
export async function moveStock(tx: Tx, moves: ReadonlyMap<number, number>): Promise<void> {
  for (const [variantId, units] of [...moves].sort(([a], [b]) => a - b)) {
    await tx
      .update(productVariants)
      .set({ stock: sql`${productVariants.stock} + ${units}`, updatedAt: new Date() })
      .where(eq(productVariants.id, variantId));
  }
}

export async function saveEditedOrder(tx: Tx, id: number, values: Partial<typeof orders.$inferInsert>) {
  const [row] = await tx
    .update(orders)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(orders.id, id))
    .returning();
  if (!row) throw new Error(`order ${id} vanished`);
  return row;
}

export async function insertOrderEdit(tx: Tx, values: typeof orderEdits.$inferInsert): Promise<OrderEditRow> {
  const [row] = await tx.insert(orderEdits).values(values).returning();
  if (!row) throw new Error('insert returned no order edit');
  return row;
}

/** An order's edits, newest first. */
export function editsOf(db: Db | Tx, orderId: number): Promise<OrderEditRow[]> {
  return db.select().from(orderEdits).where(eq(orderEdits.orderId, orderId)).orderBy(desc(orderEdits.id));
}

/** What the history keeps of an edit's lines: those whose quantity changed, before and after. */
export function editLines(lines: readonly EditedLine[]): OrderEditLineRow[] {
  return lines.flatMap((line): OrderEditLineRow[] => {
    if (line.kind === 'kept') return [];
    if (line.kind === 'added') {
      const v = line.variant;
      return [{ alias: v.alias, name: v.name, unit_price: v.priceMinor, before: 0, after: line.quantity }];
    }
    const row = line.line;
    const after = line.kind === 'removed' ? 0 : line.quantity;
    return [{ alias: row.alias, name: lineDisplayName(row), unit_price: row.unitPrice, before: row.quantity, after }];
  });
}
