import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import { orders, paymentEvents, paymentOperations, payments } from '../db/schema.js';
import type { OrderRow } from '../orders/orders.repository.js';
import { type OrderLedger, orderPaymentStatus } from '../orders/order-ledger.js';
import { orderLedger } from './payments-ledger.js';
import { NOTHING_PENDING, type PaymentFigures, type PendingMoney } from './payment-states.js';

export type PaymentRow = typeof payments.$inferSelect;
export type OperationRow = typeof paymentOperations.$inferSelect;

export const figuresOf = (p: PaymentRow): PaymentFigures => ({
  state: p.status,
  amount: p.amount,
  captureMethod: p.captureMethod,
  authorized: p.amountAuthorized,
  captured: p.amountCaptured,
  refunded: p.amountRefunded,
  voided: p.amountVoided,
});

export function paymentsOfOrder(db: Db | Tx, orderId: number): Promise<PaymentRow[]> {
  return db.select().from(payments).where(eq(payments.orderId, orderId)).orderBy(asc(payments.id));
}

export async function findPayment(db: Db | Tx, id: number): Promise<PaymentRow | undefined> {
  const [row] = await db.select().from(payments).where(eq(payments.id, id));
  return row;
}

export async function lockPayment(tx: Tx, id: number): Promise<PaymentRow | undefined> {
  const [row] = await tx.select().from(payments).where(eq(payments.id, id)).for('update');
  return row;
}

export async function lockOrderById(tx: Tx, id: number) {
  const [row] = await tx.select().from(orders).where(eq(orders.id, id)).for('update');
  return row;
}

/** Events that arrived before their payment was known by this gateway payment id, oldest first. */
export function pendingEventsFor(tx: Tx, pluginId: string, gatewayPaymentRef: string) {
  return tx
    .select()
    .from(paymentEvents)
    .where(and(eq(paymentEvents.pluginId, pluginId), eq(paymentEvents.pendingGatewayPaymentRef, gatewayPaymentRef)))
    .orderBy(asc(paymentEvents.id));
}

export async function savePaymentFigures(
  tx: Tx,
  { id, figures, extra = {} }: { id: number; figures: PaymentFigures; extra?: Partial<typeof payments.$inferInsert> },
): Promise<PaymentRow> {
  const [row] = await tx
    .update(payments)
    .set({
      status: figures.state,
      amountAuthorized: figures.authorized,
      amountCaptured: figures.captured,
      amountRefunded: figures.refunded,
      amountVoided: figures.voided,
      updatedAt: new Date(),
      ...extra,
    })
    .where(eq(payments.id, id))
    .returning();
  if (!row) throw new Error(`payment ${id} vanished`);
  return row;
}

/** Money of each payment (by id) that pending ledger records are moving. */
export async function pendingMoneyOf(db: Db | Tx, paymentIds: readonly number[]): Promise<Map<number, PendingMoney>> {
  const pending = new Map<number, PendingMoney>();
  if (paymentIds.length === 0) return pending;
  const rows = await db
    .select({ paymentId: paymentOperations.paymentId, kind: paymentOperations.kind, amount: paymentOperations.amount })
    .from(paymentOperations)
    .where(and(inArray(paymentOperations.paymentId, [...paymentIds]), eq(paymentOperations.status, 'pending')));
  for (const row of rows) {
    const money = pending.get(row.paymentId) ?? { ...NOTHING_PENDING };
    if (row.kind === 'capture') money.capture += row.amount;
    if (row.kind === 'refund') money.refund += row.amount;
    pending.set(row.paymentId, money);
  }
  return pending;
}

/**
 * The sum of a payment's records of one kind still pending: a correlated subquery of a select from payments, which
 * names the outer row itself (Drizzle writes a select's own columns unqualified).
 */
const pendingSum = (kind: 'capture' | 'refund') =>
  sql<string>`(select coalesce(sum(o.amount), 0) from ${paymentOperations} o
    where o.payment_id = payments.id and o.kind = ${kind} and o.status = 'pending')`;

/**
 * The order's ledger (src/payments/payments-ledger.ts) from its payments and records; `withPending` counts records not
 * yet answered as done (what a new capture or refund must leave room for). Call with the order locked. One statement:
 * the payments, each with its pending money and the order's credited refunds (none without payments). Decision 0025.
 */
export async function ledgerOf(
  tx: Tx,
  order: Pick<OrderRow, 'id' | 'total' | 'status' | 'amountReturned'>,
  options: { withPending: boolean },
): Promise<{ ledger: OrderLedger; payments: PaymentRow[]; pending: Map<number, PendingMoney> }> {
  const rows = await tx
    .select({
      payment: payments,
      pendingCapture: pendingSum('capture'),
      pendingRefund: pendingSum('refund'),
      credited: sql<string>`(select coalesce(sum(o.credit), 0) from ${paymentOperations} o
        where o.order_id = payments.order_id and o.kind = 'refund' and o.status = 'succeeded')`,
    })
    .from(payments)
    .where(eq(payments.orderId, order.id))
    .orderBy(asc(payments.id));
  const attempts = rows.map((r) => r.payment);
  const pending = new Map<number, PendingMoney>();
  if (options.withPending) {
    for (const r of rows) {
      const money = { capture: Number(r.pendingCapture), refund: Number(r.pendingRefund) };
      if (money.capture !== 0 || money.refund !== 0) pending.set(r.payment.id, money);
    }
  }
  const ledger = orderLedger({
    order,
    credited: Number(rows[0]?.credited ?? 0),
    payments: attempts.map(figuresOf),
    pending: attempts.map((p) => pending.get(p.id) ?? NOTHING_PENDING),
  });
  return { ledger, payments: attempts, pending };
}

/**
 * Recomputes and stores an order's ledger totals and payment status from its payments and records (call with the
 * order locked, after any change of its payments or its status).
 */
export async function refreshOrderLedger(
  tx: Tx,
  order: Pick<OrderRow, 'id' | 'total' | 'status' | 'amountReturned'>,
): Promise<OrderRow> {
  const { ledger } = await ledgerOf(tx, order, { withPending: false });
  const [row] = await tx
    .update(orders)
    .set({
      paymentStatus: orderPaymentStatus(ledger),
      amountAuthorized: ledger.authorized,
      amountCaptured: ledger.captured,
      amountRefunded: ledger.refunded,
      amountCredited: ledger.credited,
      amountCapturable: ledger.capturable,
      updatedAt: new Date(),
    })
    .where(eq(orders.id, order.id))
    .returning();
  if (!row) throw new Error(`order ${order.id} vanished`);
  return row;
}

export type NewOperation = Omit<typeof paymentOperations.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;

export async function insertOperation(tx: Tx, values: NewOperation): Promise<OperationRow> {
  const [row] = await tx.insert(paymentOperations).values(values).returning();
  if (!row) throw new Error('insert returned no payment operation');
  return row;
}

/** The record an admin request with this Idempotency-Key made on the payment, if any. */
export async function operationByRequestKey(
  tx: Tx,
  key: { paymentId: number; kind: OperationRow['kind']; requestKey: string },
): Promise<OperationRow | undefined> {
  const [row] = await tx
    .select()
    .from(paymentOperations)
    .where(
      and(
        eq(paymentOperations.paymentId, key.paymentId),
        eq(paymentOperations.kind, key.kind),
        eq(paymentOperations.requestKey, key.requestKey),
      ),
    );
  return row;
}

export async function findOperation(db: Db | Tx, id: number): Promise<OperationRow | undefined> {
  const [row] = await db.select().from(paymentOperations).where(eq(paymentOperations.id, id));
  return row;
}

export async function lockOperation(tx: Tx, id: number): Promise<OperationRow | undefined> {
  const [row] = await tx.select().from(paymentOperations).where(eq(paymentOperations.id, id)).for('update');
  return row;
}

export async function finishOperation(
  tx: Tx,
  id: number,
  values: { status: 'succeeded' | 'failed'; gatewayRef?: string | null; error?: string | null; credit?: number },
): Promise<OperationRow> {
  const [row] = await tx
    .update(paymentOperations)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(paymentOperations.id, id))
    .returning();
  if (!row) throw new Error(`payment operation ${id} vanished`);
  return row;
}

export function operationsOfOrder(db: Db | Tx, orderId: number): Promise<OperationRow[]> {
  return db
    .select()
    .from(paymentOperations)
    .where(eq(paymentOperations.orderId, orderId))
    .orderBy(asc(paymentOperations.id));
}

export async function findOrderOfPayment(db: Db | Tx, payment: PaymentRow) {
  const [row] = await db.select().from(orders).where(eq(orders.id, payment.orderId));
  return row;
}

export async function orderAliasOf(db: Db, payment: PaymentRow): Promise<string> {
  const [row] = await db.select({ alias: orders.alias }).from(orders).where(eq(orders.id, payment.orderId));
  return row?.alias ?? '';
}
