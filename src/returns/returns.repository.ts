import { and, asc, desc, eq, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import {
  orderLines,
  orders,
  paymentOperations,
  type ReturnRefundRow,
  returnLines,
  returnReasons,
  returns,
} from '../db/schema.js';
import { pageOf } from '../http/paging.js';
import type { OrderRow } from '../orders/orders.repository.js';
import type { ReturnState } from './return.decide.js';

export type ReturnRow = typeof returns.$inferSelect;
export type ReturnReasonRow = typeof returnReasons.$inferSelect;

/** A return with its lines, each naming the order line it gives units of (its alias and what was sold) and why. */
export interface ReturnWithLines extends ReturnRow {
  lines: {
    orderLineId: number;
    alias: string;
    productName: string | null;
    variantName: string;
    sku: string | null;
    variantId: number | null;
    stockReserved: boolean;
    quantity: number;
    reasonCode: string;
    reasonLabel: string;
    restock: boolean | null;
  }[];
}

/** Returns with their lines: of one order (oldest first), or those given. */
async function withLines(db: Db | Tx, rows: ReturnRow[]): Promise<ReturnWithLines[]> {
  if (rows.length === 0) return [];
  const lines = await db
    .select({
      returnId: returnLines.returnId,
      orderLineId: returnLines.orderLineId,
      quantity: returnLines.quantity,
      reasonCode: returnLines.reasonCode,
      reasonLabel: returnReasons.label,
      restock: returnLines.restock,
      alias: orderLines.alias,
      productName: orderLines.productName,
      variantName: orderLines.variantName,
      sku: orderLines.sku,
      variantId: orderLines.variantId,
      stockReserved: orderLines.stockReserved,
    })
    .from(returnLines)
    .innerJoin(orderLines, eq(orderLines.id, returnLines.orderLineId))
    .innerJoin(returnReasons, eq(returnReasons.code, returnLines.reasonCode))
    .where(
      inArray(
        returnLines.returnId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(returnLines.orderLineId));
  return rows.map((row) => ({
    ...row,
    lines: lines.filter((l) => l.returnId === row.id).map(({ returnId: _, ...l }) => l),
  }));
}

/** An order's returns, oldest first, with their lines. */
export async function returnsOf(db: Db | Tx, orderId: number): Promise<ReturnWithLines[]> {
  const rows = await db.select().from(returns).where(eq(returns.orderId, orderId)).orderBy(asc(returns.id));
  return withLines(db, rows);
}

export async function insertReturn(
  tx: Tx,
  input: {
    orderId: number;
    note: string;
    requestedBy: ReturnRow['requestedBy'];
    createdBy: number | null;
    lines: readonly { lineId: number; quantity: number; reason: string }[];
  },
): Promise<ReturnRow> {
  const [row] = await tx
    .insert(returns)
    .values({ orderId: input.orderId, note: input.note, requestedBy: input.requestedBy, createdBy: input.createdBy })
    .returning();
  if (!row) throw new Error('return not inserted');
  await tx.insert(returnLines).values(
    input.lines.map((l) => ({
      returnId: row.id,
      orderLineId: l.lineId,
      quantity: l.quantity,
      reasonCode: l.reason,
    })),
  );
  return row;
}

/** What a move of a return writes besides its state: the moment (stamped here) and the move's own figures. */
export interface ReturnMove {
  status: Exclude<ReturnState, 'requested'>;
  /** received: whether each order line's units went back into stock. */
  restock?: ReadonlyMap<number, boolean>;
  /** refunded: the figures given back and whether they include the shipping. */
  refund?: { figures: ReturnRefundRow; shipping: boolean };
  /** rejected: why. */
  rejectReason?: string | null;
}

/** Moves a return (its order locked) to a new state, stamping the moment and writing what the move decided. */
export async function setReturnState(tx: Tx, id: number, move: ReturnMove): Promise<void> {
  const now = new Date();
  const stamp = {
    received: { receivedAt: now },
    refunded: { refundedAt: now },
    rejected: { rejectedAt: now },
    cancelled: { cancelledAt: now },
  }[move.status];
  await tx
    .update(returns)
    .set({
      status: move.status,
      ...stamp,
      ...(move.refund ? { refund: move.refund.figures, refundShipping: move.refund.shipping } : {}),
      ...(move.rejectReason !== undefined ? { rejectReason: move.rejectReason } : {}),
      updatedAt: now,
    })
    .where(eq(returns.id, id));
  for (const [orderLineId, restock] of move.restock ?? []) {
    await tx
      .update(returnLines)
      .set({ restock })
      .where(and(eq(returnLines.returnId, id), eq(returnLines.orderLineId, orderLineId)));
  }
}

/** Adds what a refunded return gave back to the order's `amount_returned` (the order locked). */
export async function addAmountReturned(tx: Tx, orderId: number, amount: number): Promise<OrderRow> {
  const [row] = await tx
    .update(orders)
    .set({ amountReturned: sql`${orders.amountReturned} + ${amount}`, updatedAt: new Date() })
    .where(eq(orders.id, orderId))
    .returning();
  if (!row) throw new Error(`order ${orderId} vanished`);
  return row;
}

/** A return in the store's list: with its order's alias, email and currency, and how many units it gives back. */
export interface ReturnListRow extends ReturnRow {
  orderAlias: string;
  email: string | null;
  currency: string;
  units: number;
}

/** A page of the store's returns, newest first (keyset on id), optionally of one state. */
export async function listReturns(db: Db, filter: { status?: ReturnState; before?: number; limit: number }) {
  const conditions: SQL[] = [];
  if (filter.status) conditions.push(eq(returns.status, filter.status));
  if (filter.before !== undefined) conditions.push(lt(returns.id, filter.before));
  const rows = await db
    .select({
      ret: returns,
      orderAlias: orders.alias,
      email: orders.email,
      currency: orders.currency,
      units: sql<number>`(select coalesce(sum(${returnLines.quantity}), 0)::int from ${returnLines}
        where ${returnLines.returnId} = ${returns.id})`,
    })
    .from(returns)
    .innerJoin(orders, eq(orders.id, returns.orderId))
    .where(and(...conditions))
    .orderBy(desc(returns.id))
    .limit(filter.limit + 1);
  const items: ReturnListRow[] = rows.map((r) => ({
    ...r.ret,
    orderAlias: r.orderAlias,
    email: r.email,
    currency: r.currency,
    units: Number(r.units),
  }));
  return pageOf(items, filter.limit, (r) => r.id);
}

/** The reasons a return may give: the active ones (`activeOnly`) or all, in their order. */
export function returnReasonsList(db: Db | Tx, options: { activeOnly: boolean }): Promise<ReturnReasonRow[]> {
  return db
    .select()
    .from(returnReasons)
    .where(options.activeOnly ? eq(returnReasons.active, true) : undefined)
    .orderBy(asc(returnReasons.position), asc(returnReasons.code));
}

/** A new reason; undefined when its code is taken. */
export async function insertReturnReason(
  db: Db,
  values: { code: string; label: string; position: number },
): Promise<ReturnReasonRow | undefined> {
  const [row] = await db.insert(returnReasons).values(values).onConflictDoNothing().returning();
  return row;
}

export async function updateReturnReason(
  db: Db,
  code: string,
  values: Partial<Pick<ReturnReasonRow, 'label' | 'active' | 'position'>>,
): Promise<ReturnReasonRow | undefined> {
  const [row] = await db
    .update(returnReasons)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(returnReasons.code, code))
    .returning();
  return row;
}

/** How the refunds of a refunded return went at their gateways: the states of its ledger records. */
export async function refundStatesOfReturn(db: Db, returnId: number): Promise<('pending' | 'succeeded' | 'failed')[]> {
  const rows = await db
    .select({ status: paymentOperations.status })
    .from(paymentOperations)
    .where(eq(paymentOperations.returnId, returnId));
  return rows.map((r) => r.status);
}
