import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { cartItems, carts, orderLines, orders, productVariants, promoCodeRedemptions, promoCodes } from '../db/schema.js';

/**
 * Takes the quantities off the variants' stock in one guarded statement: a row changes only if it
 * holds enough, so stock can never go below zero. Returns the ids that were short (nothing taken
 * from them; the caller rolls the transaction back). The rows stay locked until commit, so this
 * runs last in a placement, to hold the lock on a popular variant as briefly as possible.
 */
export async function takeStockIfAvailable(tx: Tx, take: { variantId: number; quantity: number }[]): Promise<Map<number, number>> {
  if (take.length === 0) return new Map();
  const sorted = [...take].sort((a, b) => a.variantId - b.variantId);
  const values = sql.join(sorted.map((t) => sql`(${t.variantId}::int, ${t.quantity}::int)`), sql`, `);
  const ids = sql.join(sorted.map((t) => sql`${t.variantId}::int`), sql`, `);
  // One statement, since the rows stay locked from here to commit: the CTE locks them in id order
  // (two orders over the same variants queue instead of deadlocking), then the guarded update
  // takes the stock. "No key update" is the lock an UPDATE takes anyway; unlike "update" it does
  // not wait on the key-share locks that order lines hold on variants through their foreign key.
  const result = await tx.execute(sql`with locked as (
      select ${productVariants.id} as id from ${productVariants} where ${productVariants.id} in (${ids})
      order by ${productVariants.id} for no key update
    )
    update ${productVariants} set stock = ${productVariants.stock} - d.q, updated_at = now()
    from (values ${values}) as d(id, q), locked
    where ${productVariants.id} = d.id and locked.id = d.id and ${productVariants.stock} >= d.q
    returning ${productVariants.id} as id`);
  // Both drivers answer with { rows }; the shared Db type can't say so.
  const done = new Set((result as unknown as { rows: { id: number | string }[] }).rows.map((r) => Number(r.id)));
  const shortIds = sorted.filter((t) => !done.has(t.variantId)).map((t) => t.variantId);
  if (shortIds.length === 0) return new Map();
  const rows = await tx.select({ id: productVariants.id, stock: productVariants.stock }).from(productVariants)
    .where(inArray(productVariants.id, shortIds)).orderBy(asc(productVariants.id));
  return new Map(rows.map((r) => [r.id, r.stock]));
}

/**
 * Locks a promo code's row and reads it: placements with one code run one after another from
 * here on, and the row read is the one they count usage on.
 */
export async function lockPromoCode(tx: Tx, code: string): Promise<typeof promoCodes.$inferSelect | undefined> {
  const [row] = await tx.select().from(promoCodes).where(eq(promoCodes.code, code)).for('update');
  return row;
}

export async function recordRedemption(tx: Tx, input: { promoCodeId: number; orderId: number; userId: number | null; email: string | null }): Promise<void> {
  await tx.update(promoCodes).set({ timesUsed: sql`${promoCodes.timesUsed} + 1` }).where(eq(promoCodes.id, input.promoCodeId));
  await tx.insert(promoCodeRedemptions).values(input);
}

export async function insertOrder(tx: Tx, values: typeof orders.$inferInsert, lines: Omit<typeof orderLines.$inferInsert, 'orderId'>[]) {
  const [order] = await tx.insert(orders).values(values).returning();
  if (!order) throw new Error('insert returned no order');
  if (lines.length > 0) await tx.insert(orderLines).values(lines.map((l) => ({ ...l, orderId: order.id })));
  return order;
}

/**
 * Takes what was ordered out of a cart: each variant's line loses the ordered quantity, and lines
 * that reach zero go. Lines of variants not ordered stay.
 */
export async function reduceCart(tx: Tx, cartId: number, ordered: { variantId: number; quantity: number }[]): Promise<void> {
  if (ordered.length === 0) return;
  const values = sql.join(ordered.map((o) => sql`(${o.variantId}::int, ${o.quantity}::int)`), sql`, `);
  await tx.execute(sql`delete from ${cartItems} using (values ${values}) as d(id, q)
    where ${cartItems.cartId} = ${cartId} and ${cartItems.variantId} = d.id and ${cartItems.quantity} <= d.q`);
  await tx.execute(sql`update ${cartItems} set quantity = ${cartItems.quantity} - d.q, updated_at = now()
    from (values ${values}) as d(id, q) where ${cartItems.cartId} = ${cartId} and ${cartItems.variantId} = d.id`);
}

export async function lockCartOfUser(tx: Tx, userId: number): Promise<number | undefined> {
  const [row] = await tx.select({ id: carts.id }).from(carts).where(eq(carts.userId, userId)).for('update');
  return row?.id;
}

export async function lockCartByTokenHash(tx: Tx, tokenHash: string): Promise<number | undefined> {
  const [row] = await tx.select({ id: carts.id }).from(carts).where(and(eq(carts.tokenHash, tokenHash), isNull(carts.closedAt))).for('update');
  return row?.id;
}

