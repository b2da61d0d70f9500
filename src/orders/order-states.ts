import type { orderStatuses } from '../db/schema.js';
import { stateMachine } from '../shared/state-machine.js';

export type OrderStatus = (typeof orderStatuses)[number];

/** SPEC 6: pending → approved → processing → shipped → delivered; cancelled from pending or approved. */
export const orderStates = stateMachine<OrderStatus>({
  pending: ['approved', 'cancelled'],
  approved: ['processing', 'cancelled'],
  processing: ['shipped'],
  shipped: ['delivered'],
  delivered: [],
  cancelled: [],
});

/** The events an order's move to `to` records (SPEC 11): always order.status_changed, and order.cancelled on cancel. */
export function statusChangeEvents(to: OrderStatus): ('order.status_changed' | 'order.cancelled')[] {
  return to === 'cancelled' ? ['order.status_changed', 'order.cancelled'] : ['order.status_changed'];
}
