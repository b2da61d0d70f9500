import { and, eq, isNull, sql } from 'drizzle-orm';
import { pgError } from '../db/errors.js';
import type { Tx } from '../db/client.js';
import { cartItems, carts, orderLines, orders, promoCodeRedemptions, promoCodes } from '../db/schema.js';

/**
 * The statement that takes the quantities off the variants' stock, all or nothing (the function
 * sf_take_stock, migration 0008), as SQL text with literal values so it can travel with the
 * COMMIT: the rows it locks are a popular variant's hot spot, held until commit. Undefined when
 * there is nothing to take.
 */
export function takeStockStatement(take: { variantId: number; quantity: number }[]): string | undefined {
  if (take.length === 0) return undefined;
  for (const t of take) {
    if (!Number.isSafeInteger(t.variantId) || !Number.isSafeInteger(t.quantity)) throw new Error(`not an integer: ${JSON.stringify(t)}`);
  }
  const sorted = [...take].sort((a, b) => a.variantId - b.variantId);
  return `select sf_take_stock('{${sorted.map((t) => t.variantId).join(',')}}'::integer[], '{${sorted.map((t) => t.quantity).join(',')}}'::integer[])`;
}

/** The variants sf_take_stock found short (id to available quantity), if that is what this error is. */
export function stockShortages(err: unknown): Map<number, number> | undefined {
  const pg = pgError(err);
  if (pg?.code !== 'SF409' || pg.detail === undefined) return undefined;
  const short = JSON.parse(pg.detail) as { id: number; available: number }[];
  return new Map(short.map((s) => [s.id, s.available]));
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

