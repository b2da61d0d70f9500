import type { EventType } from '../events/outbox.js';
import { presentOrder } from '../orders/order.presenter.js';
import type { OrderLineRow, OrderRow } from '../orders/orders.repository.js';

/** What placement's write statement records for one order (src/orders/placement.repository.ts). */
export interface PlacementEvents {
  /** The events, numbered from 1: order.placed, and order.paid too for an order placed paid (nothing to pay). */
  list: { type: EventType; seq: number }[];
  /**
   * The order as the admin API will show it, less what the database fills in as it inserts the order (its id,
   * status, a signed-in customer's email, the timestamps): the statement adds those.
   */
  data: Record<string, unknown>;
}

/**
 * The events of a placement, chosen before the order is written (its id is not known yet, its alias is); their ids
 * are given as the batch is written, so they follow the order of writing.
 */
export function placementEvents(
  order: Omit<OrderRow, 'id' | 'status' | 'cancelReason' | 'eventSeq' | 'createdAt' | 'updatedAt'>,
  lines: Omit<OrderLineRow, 'id' | 'orderId' | 'stockReserved'>[],
): PlacementEvents {
  const types: EventType[] = order.paymentStatus === 'paid' ? ['order.placed', 'order.paid'] : ['order.placed'];
  const unknownYet = new Date(0);
  // The fields the insert fills in before the order's own (none of which it has): V8 adds keys written after a spread
  // on a slow path (docs/benchmarks.md).
  const data = presentOrder(
    {
      id: 0,
      status: 'pending',
      cancelReason: null,
      eventSeq: types.length,
      createdAt: unknownYet,
      updatedAt: unknownYet,
      ...order,
    },
    lines,
  );
  return { list: types.map((type, i) => ({ type, seq: i + 1 })), data };
}
