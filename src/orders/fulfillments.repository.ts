import { asc, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import { fulfillmentLines, fulfillments, orderLines, orders } from '../db/schema.js';
import type { FulfillmentState, FulfillmentStatus } from './fulfillment.decide.js';
import type { OrderRow } from './orders.repository.js';

export type FulfillmentRow = typeof fulfillments.$inferSelect;

/** A fulfillment with its lines, each naming the order line it takes units of (its alias and what it sold). */
export interface FulfillmentWithLines extends FulfillmentRow {
  lines: {
    orderLineId: number;
    alias: string;
    productName: string | null;
    variantName: string;
    sku: string | null;
    quantity: number;
  }[];
}

/** An order's fulfillments, oldest first, with their lines. */
export async function fulfillmentsOf(db: Db | Tx, orderId: number): Promise<FulfillmentWithLines[]> {
  const rows = await db
    .select()
    .from(fulfillments)
    .where(eq(fulfillments.orderId, orderId))
    .orderBy(asc(fulfillments.id));
  if (rows.length === 0) return [];
  const lines = await db
    .select({
      fulfillmentId: fulfillmentLines.fulfillmentId,
      orderLineId: fulfillmentLines.orderLineId,
      quantity: fulfillmentLines.quantity,
      alias: orderLines.alias,
      productName: orderLines.productName,
      variantName: orderLines.variantName,
      sku: orderLines.sku,
    })
    .from(fulfillmentLines)
    .innerJoin(orderLines, eq(orderLines.id, fulfillmentLines.orderLineId))
    .where(
      inArray(
        fulfillmentLines.fulfillmentId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(fulfillmentLines.orderLineId));
  return rows.map((row) => ({
    ...row,
    lines: lines.filter((l) => l.fulfillmentId === row.id).map(({ fulfillmentId: _, ...l }) => l),
  }));
}

export async function insertFulfillment(
  tx: Tx,
  input: {
    orderId: number;
    carrier: string | null;
    trackingNumber: string | null;
    trackingUrl: string | null;
    createdBy: number | null;
    lines: readonly { lineId: number; quantity: number }[];
  },
): Promise<FulfillmentRow> {
  const [row] = await tx
    .insert(fulfillments)
    .values({
      orderId: input.orderId,
      carrier: input.carrier,
      trackingNumber: input.trackingNumber,
      trackingUrl: input.trackingUrl,
      createdBy: input.createdBy,
    })
    .returning();
  if (!row) throw new Error('fulfillment not inserted');
  await tx
    .insert(fulfillmentLines)
    .values(input.lines.map((l) => ({ fulfillmentId: row.id, orderLineId: l.lineId, quantity: l.quantity })));
  return row;
}

/** Moves a fulfillment (its order locked) to `status`, stamping the moment; tracking fields given replace its own. */
export async function setFulfillmentState(
  tx: Tx,
  input: {
    id: number;
    status: FulfillmentState;
    tracking?: { carrier: string | null; trackingNumber: string | null; trackingUrl: string | null };
  },
): Promise<void> {
  const now = new Date();
  const stamp =
    input.status === 'shipped'
      ? { shippedAt: now }
      : input.status === 'delivered'
        ? { deliveredAt: now }
        : input.status === 'cancelled'
          ? { cancelledAt: now }
          : {};
  await tx
    .update(fulfillments)
    .set({ status: input.status, ...stamp, ...input.tracking, updatedAt: now })
    .where(eq(fulfillments.id, input.id));
}

export async function setOrderFulfillmentStatus(
  tx: Tx,
  input: { id: number; fulfillmentStatus: FulfillmentStatus; status: OrderRow['status'] },
): Promise<OrderRow> {
  const [row] = await tx
    .update(orders)
    .set({ fulfillmentStatus: input.fulfillmentStatus, status: input.status, updatedAt: new Date() })
    .where(eq(orders.id, input.id))
    .returning();
  if (!row) throw new Error('order vanished');
  return row;
}
