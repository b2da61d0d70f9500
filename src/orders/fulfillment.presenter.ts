import { fulfillmentStateMachine } from './fulfillment-states.js';
import type { FulfillmentWithLines } from './fulfillments.repository.js';
import { lineDisplayName } from './order-line.js';
import type { OrderRow } from './orders.repository.js';

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

/** A fulfillment as the order's answers show it (src/orders/fulfillment.schema.ts, `Fulfillment`). */
export function presentFulfillment(f: FulfillmentWithLines) {
  return {
    id: f.id,
    status: f.status,
    carrier: f.carrier,
    tracking_number: f.trackingNumber,
    tracking_url: f.trackingUrl,
    lines: f.lines.map((l) => ({ alias: l.alias, name: lineDisplayName(l), sku: l.sku, quantity: l.quantity })),
    created_at: f.createdAt.toISOString(),
    shipped_at: iso(f.shippedAt),
    delivered_at: iso(f.deliveredAt),
    cancelled_at: iso(f.cancelledAt),
  };
}

/** A fulfillment as admins read it (`AdminFulfillment`): where it may go next, and where its order stands. */
export function presentAdminFulfillment(f: FulfillmentWithLines, order: OrderRow) {
  return {
    ...presentFulfillment(f),
    next_statuses: [...fulfillmentStateMachine.transitions[f.status]],
    order: { order_alias: order.alias, status: order.status, fulfillment_status: order.fulfillmentStatus },
  };
}
