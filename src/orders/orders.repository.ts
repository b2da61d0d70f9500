import { and, asc, desc, eq, gte, inArray, isNull, lt, lte, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import { orderLines, orders, promotionRedemptions, promotions } from '../db/schema.js';
import { pageOf } from '../http/paging.js';
import { runStatement } from '../db/statement-sql.js';
import { addStockCalls } from './order.statements.js';

export type OrderRow = typeof orders.$inferSelect;
export type OrderLineRow = typeof orderLines.$inferSelect;

export async function findOrderByAlias(db: Db | Tx, alias: string): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.alias, alias));
  return row;
}

export function linesOf(db: Db | Tx, orderId: number): Promise<OrderLineRow[]> {
  return db.select().from(orderLines).where(eq(orderLines.orderId, orderId)).orderBy(asc(orderLines.id));
}

export interface OrderFilter {
  userId?: number;
  status?: OrderRow['status'];
  paymentStatus?: OrderRow['paymentStatus'];
  email?: string;
  createdFrom?: Date;
  createdTo?: Date;
  /** Id of the last order of the previous page; orders come newest first. */
  before?: number;
  limit: number;
}

/** A page of orders, newest first, keyset-paginated on id. */
export async function listOrders(db: Db, filter: OrderFilter) {
  const conditions: SQL[] = [];
  if (filter.userId !== undefined) conditions.push(eq(orders.userId, filter.userId));
  if (filter.status) conditions.push(eq(orders.status, filter.status));
  if (filter.paymentStatus) conditions.push(eq(orders.paymentStatus, filter.paymentStatus));
  if (filter.email) conditions.push(eq(orders.email, filter.email));
  if (filter.createdFrom) conditions.push(gte(orders.createdAt, filter.createdFrom));
  if (filter.createdTo) conditions.push(lte(orders.createdAt, filter.createdTo));
  if (filter.before !== undefined) conditions.push(lt(orders.id, filter.before));
  const rows = await db
    .select()
    .from(orders)
    .where(and(...conditions))
    .orderBy(desc(orders.id))
    .limit(filter.limit + 1);
  return pageOf(rows, filter.limit, (order) => order.id);
}

export async function lockOrder(tx: Tx, alias: string): Promise<OrderRow | undefined> {
  const [row] = await tx.select().from(orders).where(eq(orders.alias, alias)).for('update');
  return row;
}

export async function setOrderStatus(tx: Tx, id: number, status: OrderRow['status']): Promise<OrderRow> {
  const [row] = await tx.update(orders).set({ status, updatedAt: new Date() }).where(eq(orders.id, id)).returning();
  if (!row) throw new Error('order vanished');
  return row;
}

/** Cancels an order (call with it locked), saying why when the service did it (`expired`). */
export async function setOrderCancelled(tx: Tx, id: number, reason: OrderRow['cancelReason']): Promise<OrderRow> {
  const [row] = await tx
    .update(orders)
    // Nothing of a cancelled order shipped and its pending shipments are cancelled with it: nothing is fulfilled.
    .set({ status: 'cancelled', cancelReason: reason, fulfillmentStatus: 'unfulfilled', updatedAt: new Date() })
    .where(eq(orders.id, id))
    .returning();
  if (!row) throw new Error('order vanished');
  return row;
}

/** Puts back the stock a cancelled order took, locking the variants in id order. */
export async function restoreStock(tx: Tx, orderId: number): Promise<void> {
  const reserved = await tx
    .select({ variantId: orderLines.variantId, quantity: orderLines.quantity })
    .from(orderLines)
    .where(and(eq(orderLines.orderId, orderId), eq(orderLines.stockReserved, true)));
  await addStock(
    tx,
    reserved.filter((l): l is { variantId: number; quantity: number } => l.variantId !== null),
  );
}

/**
 * Adds units back to variants' stock (a cancelled order's, a received return's), locking the variants in id order,
 * the order placements lock them in. A variant named twice gets the units of both.
 */
export async function addStock(tx: Tx, units: readonly { variantId: number; quantity: number }[]): Promise<void> {
  for (const call of addStockCalls(units)) if (call) await runStatement(tx, call.statement, call.values);
}

/**
 * Gives an order's promotion uses back, so global and per-customer limits count them no more: all of them (a cancelled
 * order), or those of `promotionIds` only (an edited order those promotions no longer apply to). Promotions are
 * updated by id, the order placements lock them in.
 */
export async function releasePromotionUses(tx: Tx, orderId: number, promotionIds?: readonly number[]): Promise<void> {
  if (promotionIds?.length === 0) return;
  const released = await tx
    .update(promotionRedemptions)
    .set({ releasedAt: new Date() })
    .where(
      and(
        eq(promotionRedemptions.orderId, orderId),
        isNull(promotionRedemptions.releasedAt),
        promotionIds ? inArray(promotionRedemptions.promotionId, [...promotionIds]) : undefined,
      ),
    )
    .returning({ promotionId: promotionRedemptions.promotionId });
  for (const promotionId of released.map((r) => r.promotionId).sort((a, b) => a - b)) {
    await tx
      .update(promotions)
      .set({ timesUsed: sql`greatest(${promotions.timesUsed} - 1, 0)` })
      .where(eq(promotions.id, promotionId));
  }
}
