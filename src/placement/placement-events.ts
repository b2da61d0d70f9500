import type { EventType } from '../events/outbox.js';
import { presentOrder } from '../orders/order.presenter.js';
import type { OrderLineValues, OrderValues } from './placement.columns.js';

const PLACED: readonly EventType[] = ['order.placed'];
const PLACED_PAID: readonly EventType[] = ['order.placed', 'order.paid'];

/** The events a placement records: order.placed, and order.paid too for an order placed paid (nothing to pay). */
export function placementEventTypes(paymentStatus: OrderValues['paymentStatus']): readonly EventType[] {
  return paymentStatus === 'paid' ? PLACED_PAID : PLACED;
}

/** The events of a placement, numbered from 1 (`order.eventSeq` is their number), and the order they carry. */
export interface PlacementEvents {
  events: readonly { type: EventType; seq: number }[];
  /**
   * The order as the admin API will show it. Until the order is inserted, what the database fills in then (its id,
   * status, a signed-in customer's email, the timestamps) holds placeholders: `withInsertedFields` writes them.
   */
  data: Record<string, unknown>;
}

/** What the database filled in as it inserted an order, as the write statement answers it. */
export interface InsertedFields {
  id: number;
  status: string;
  email: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const isoText = (time: Date | string) => (time instanceof Date ? time : new Date(time)).toISOString();

/**
 * The events of a placement, chosen before the order is written (its id is not known yet, its alias is); the outbox
 * records them after the order (src/events/new-order-events.ts) and gives them their ids then.
 */
export function placementEvents(order: OrderValues, lines: readonly OrderLineValues[]): PlacementEvents {
  const types = placementEventTypes(order.paymentStatus);
  const unknownYet = new Date(0);
  // The columns the insert fills in (placement.columns.ts) before the order's own (none of which it has): V8 adds keys
  // written after a spread on a slow path (docs/benchmarks.md). The ledger's totals start at zero: nothing moved yet.
  const data = presentOrder(
    {
      id: 0,
      status: 'pending',
      cancelReason: null,
      amountAuthorized: 0,
      amountCaptured: 0,
      amountRefunded: 0,
      amountCredited: 0,
      amountCapturable: 0,
      fulfillmentStatus: 'unfulfilled',
      amountReturned: 0,
      createdAt: unknownYet,
      updatedAt: unknownYet,
      ...order,
    },
    lines,
  );
  return { events: types.map((type, i) => ({ type, seq: i + 1 })), data };
}

/**
 * The events' data with what the insert filled in, written over the placeholders (`presentOrder`'s keys, so no key is
 * added: the object keeps its shape, and no copy is made per order).
 */
export function withInsertedFields(events: PlacementEvents, inserted: InsertedFields): PlacementEvents {
  const { data } = events;
  data.order_id = Number(inserted.id);
  data.status = inserted.status;
  data.email = inserted.email;
  data.created_at = isoText(inserted.created_at);
  data.updated_at = isoText(inserted.updated_at);
  return events;
}
