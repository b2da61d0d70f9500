import { and, asc, desc, eq, lt, type SQL, sql } from 'drizzle-orm';
import { columnList, fromColumnNames, rowJsonSql } from '../db/columns.js';
import type { Db, Statement, Tx } from '../db/client.js';
import { runStatement } from '../db/statement-sql.js';
import { orders, paymentOperations, type ReturnRefundRow, returnLines, returnReasons, returns } from '../db/schema.js';
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

const RETURN_COLUMNS = columnList(returns);

/**
 * An order's returns, oldest first, each with its lines (in order-line order) as JSON, in one statement: of the order
 * whose id is `order` (SQL), as `row` and `lines`.
 */
const returnsOfOrderSql = (order: string) => `select ${rowJsonSql(RETURN_COLUMNS, 'r')} as row,
    (select coalesce(jsonb_agg(jsonb_build_object('orderLineId', rl.order_line_id, 'quantity', rl.quantity,
        'reasonCode', rl.reason_code, 'reasonLabel', rr.label, 'restock', rl.restock, 'alias', l.alias,
        'productName', l.product_name, 'variantName', l.name, 'sku', l.sku, 'variantId', l.variant_id,
        'stockReserved', l.stock_reserved) order by rl.order_line_id), '[]'::jsonb)
      from return_lines rl join order_lines l on l.id = rl.order_line_id
        join return_reasons rr on rr.code = rl.reason_code
      where rl.return_id = r.id) as lines
  from returns r where r.order_id = ${order} order by r.id`;

/** An order's returns with their lines, of the order with id `$1`. */
export const returnsOfOrderId: Statement = { name: 'returns_of_order_id', text: returnsOfOrderSql('$1') };

/**
 * An order's returns with their lines, of the order with alias `$1`: sent after the order's lock in its message, a
 * statement of its own, so it reads what committed while the lock was waited for.
 */
export const returnsOfOrderAlias: Statement = {
  name: 'returns_of_order_alias',
  text: returnsOfOrderSql('(select id from orders where alias = $1)'),
};

type ReturnJson = { row: Record<string, unknown>; lines: ReturnWithLines['lines'] };

/** The returns from the rows of `returnsOfOrderId` or `returnsOfOrderAlias`. */
export const returnsOfRows = (rows: readonly ReturnJson[]): ReturnWithLines[] =>
  rows.map((r) => ({ ...fromColumnNames<ReturnRow>(RETURN_COLUMNS, r.row), lines: r.lines }));

/** An order's returns, oldest first, with their lines. */
export async function returnsOf(db: Db | Tx, orderId: number): Promise<ReturnWithLines[]> {
  return returnsOfRows(await runStatement<ReturnJson>(db, returnsOfOrderId, [orderId]));
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

/** A return as a move leaves it at `now`: its state, the moment stamped, and what the move decided. */
export function movedReturn(ret: ReturnWithLines, move: ReturnMove, now: Date): ReturnWithLines {
  const stamp = {
    received: { receivedAt: now },
    refunded: { refundedAt: now },
    rejected: { rejectedAt: now },
    cancelled: { cancelledAt: now },
  }[move.status];
  return {
    ...ret,
    status: move.status,
    ...stamp,
    ...(move.refund ? { refund: move.refund.figures, refundShipping: move.refund.shipping } : {}),
    ...(move.rejectReason !== undefined ? { rejectReason: move.rejectReason } : {}),
    updatedAt: now,
    lines: ret.lines.map((l) => ({ ...l, restock: move.restock?.get(l.orderLineId) ?? l.restock })),
  };
}

/** Stores a return's state as a move left it (`$1`: JSON of the `ReturnWithLines`, from `movedReturn`). */
export const saveReturnState: Statement = {
  name: 'return_save_state',
  text: `with s as (
      select * from jsonb_to_record($1::jsonb) as s(id integer, status text, "rejectReason" text,
        "refundShipping" boolean, refund jsonb, "receivedAt" timestamptz, "refundedAt" timestamptz,
        "rejectedAt" timestamptz, "cancelledAt" timestamptz, "updatedAt" timestamptz, lines jsonb)
    ), saved as (
      update returns r set status = s.status, reject_reason = s."rejectReason", refund_shipping = s."refundShipping",
        refund = s.refund, received_at = s."receivedAt", refunded_at = s."refundedAt", rejected_at = s."rejectedAt",
        cancelled_at = s."cancelledAt", updated_at = s."updatedAt"
      from s where r.id = s.id
      returning r.id)
    update return_lines rl set restock = l.restock
    from saved, s cross join lateral jsonb_to_recordset(s.lines) as l("orderLineId" integer, restock boolean)
    where rl.return_id = saved.id and rl.order_line_id = l."orderLineId" and rl.restock is distinct from l.restock`,
};

/** Moves a return (its order locked) to a new state, stamping the moment and writing what the move decided. */
export async function setReturnState(tx: Tx, ret: ReturnWithLines, move: ReturnMove): Promise<void> {
  await runStatement(tx, saveReturnState, [JSON.stringify(movedReturn(ret, move, new Date()))]);
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
