import { and, asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import { orders, paymentEvents, payments } from '../db/schema.js';
import { amountOwed, type OrderCancelReason, orderPaymentStatus, type PaymentFigures } from './payment-states.js';

export type PaymentRow = typeof payments.$inferSelect;

export const figuresOf = (p: PaymentRow): PaymentFigures => ({
  state: p.status,
  amount: p.amount,
  captured: p.amountCaptured,
  refunded: p.amountRefunded,
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

/**
 * The payment a webhook event names, only through references this service stored for that plugin:
 * its own reference first, then the gateway's ids, whichever the event carries.
 */
export async function findPaymentForEvent(
  tx: Tx,
  pluginId: string,
  match: { reference?: string; gatewayRef?: string; gatewayPaymentRef?: string },
) {
  const keys = [
    match.reference !== undefined ? eq(payments.reference, match.reference) : undefined,
    match.gatewayRef !== undefined ? eq(payments.gatewayRef, match.gatewayRef) : undefined,
    match.gatewayPaymentRef !== undefined ? eq(payments.gatewayPaymentRef, match.gatewayPaymentRef) : undefined,
  ];
  for (const by of keys) {
    if (!by) continue;
    const [row] = await tx
      .select()
      .from(payments)
      .where(and(by, eq(payments.pluginId, pluginId)))
      .limit(1);
    if (row) return row;
  }
  return undefined;
}

export type EventValues = {
  pluginId: string;
  eventId: string;
  kind: string;
  amount: number | null;
  currency: string | null;
};

/** Stores an event once; undefined when this (plugin, event id) was seen before. */
export async function recordEventOnce(tx: Tx, event: EventValues): Promise<number | undefined> {
  const [row] = await tx
    .insert(paymentEvents)
    .values({ ...event, applied: false })
    .onConflictDoNothing()
    .returning({ id: paymentEvents.id });
  return row?.id;
}

export async function markEvent(
  tx: Tx,
  id: number,
  values: { paymentId: number | null; applied: boolean; pendingGatewayPaymentRef?: string | null },
): Promise<void> {
  await tx.update(paymentEvents).set(values).where(eq(paymentEvents.id, id));
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
      amountCaptured: figures.captured,
      amountRefunded: figures.refunded,
      updatedAt: new Date(),
      ...extra,
    })
    .where(eq(payments.id, id))
    .returning();
  if (!row) throw new Error(`payment ${id} vanished`);
  return row;
}

/**
 * Recomputes and stores an order's payment status from all its attempts (call with the order locked), against what
 * it owes (`amountOwed`: nothing once expired, so money arriving after expiry shows as overpaid).
 */
export async function refreshOrderPaymentStatus(
  tx: Tx,
  order: { id: number; total: number; cancelReason: OrderCancelReason },
) {
  const status = orderPaymentStatus(amountOwed(order), (await paymentsOfOrder(tx, order.id)).map(figuresOf));
  const [row] = await tx
    .update(orders)
    .set({ paymentStatus: status, updatedAt: new Date() })
    .where(eq(orders.id, order.id))
    .returning();
  if (!row) throw new Error(`order ${order.id} vanished`);
  return row;
}

export async function findOrderOfPayment(db: Db, payment: PaymentRow) {
  const [row] = await db.select().from(orders).where(eq(orders.id, payment.orderId));
  return row;
}

export async function orderAliasOf(db: Db, payment: PaymentRow): Promise<string> {
  const [row] = await db.select({ alias: orders.alias }).from(orders).where(eq(orders.id, payment.orderId));
  return row?.alias ?? '';
}
