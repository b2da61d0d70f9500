// What is left to fulfil of an order, per line. The rule has one home, the service's pure rules
// (src/orders/fulfillment.decide.ts, browser-safe: no I/O), asked here with the order's lines and shipments as the
// order's answer gives them; the API checks it again on every fulfilment.
import {
  FULFILLABLE_ORDER_STATUSES,
  type FulfillmentState,
  fulfillableByLine,
} from '../../../src/orders/fulfillment.decide.js';
import type { Order, Shipment } from './types';

type ShipmentUnits = Pick<Shipment, 'lines'> & { status: FulfillmentState };

/**
 * Units of each order line (by its alias) a new shipment may still take: ordered less those in shipments that are not
 * cancelled (returns do not exist yet: none are counted).
 */
export function fulfillableByAlias(order: Pick<Order, 'lines'>, shipments: readonly ShipmentUnits[]) {
  const lineIds = new Map(order.lines.map((l, index) => [l.alias, index]));
  const left = fulfillableByLine(
    order.lines.map((l, index) => ({ lineId: index, alias: l.alias, ordered: l.quantity, returned: 0 })),
    shipments.map((s) => ({
      status: s.status,
      lines: s.lines.map((l) => ({ lineId: lineIds.get(l.alias) ?? -1, quantity: l.quantity })),
    })),
  );
  return new Map(order.lines.map((l, index) => [l.alias, left.get(index) ?? 0]));
}

/** Whether the order may get a new shipment now: approved or processing (paid, not moved on by hand). */
export const canFulfil = (order: Pick<Order, 'status'>) => FULFILLABLE_ORDER_STATUSES.includes(order.status);
