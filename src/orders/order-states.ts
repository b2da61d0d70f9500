import type { orderStatuses } from '../db/schema.js';
import { orderBecamePaid, type OrderPaymentStatus } from '../payments/payment-states.js';
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

/**
 * SPEC 11: an order whose payment status becomes paid moves from pending to approved (with AUTO_APPROVE_PAID_ORDERS),
 * in the transaction of the payment change. `before` and `after` are the order around that change.
 */
export function approvesOnPayment(
  before: { status: OrderStatus; paymentStatus: OrderPaymentStatus },
  after: { status: OrderStatus; paymentStatus: OrderPaymentStatus },
): boolean {
  return after.status === 'pending' && after.paymentStatus === 'paid' && orderBecamePaid(before.paymentStatus, 'paid');
}
