import type { orderStatuses } from '../db/schema.js';
import { type OrderPaymentStatus, paymentSecured } from './order-ledger.js';
import { stateMachine } from '../shared/state-machine.js';

export type OrderStatus = (typeof orderStatuses)[number];

/**
 * SPEC 6: pending → approved → processing → shipped → delivered; cancelled from pending or approved, and (issue #27)
 * from processing while nothing of the order has shipped: the guard `nothingShipped` (fulfillment.decide.ts, where
 * the pure rules live) says so from its fulfillment status (its shipments pending or all cancelled).
 */
export const orderStates = stateMachine<OrderStatus>({
  pending: ['approved', 'cancelled'],
  approved: ['processing', 'cancelled'],
  processing: ['shipped', 'cancelled'],
  shipped: ['delivered'],
  delivered: [],
  cancelled: [],
});

/** The events an order's move to `to` records (SPEC 11): always order.status_changed, and order.cancelled on cancel. */
export function statusChangeEvents(to: OrderStatus): ('order.status_changed' | 'order.cancelled')[] {
  return to === 'cancelled' ? ['order.status_changed', 'order.cancelled'] : ['order.status_changed'];
}

/**
 * SPEC 11: an order whose payment status becomes paid, or authorized with nothing left to pay (manual capture: the
 * money is held until the store captures it), moves from pending to approved (with AUTO_APPROVE_PAID_ORDERS), in the
 * transaction of the payment change. `before` and `after` are the order around that change; `toPay`, what the
 * customer is still asked to pay after it (the ledger's).
 */
export function approvesOnPayment(
  before: { status: OrderStatus; paymentStatus: OrderPaymentStatus },
  after: { status: OrderStatus; paymentStatus: OrderPaymentStatus; toPay: number },
): boolean {
  const secured = (after.paymentStatus === 'paid' || after.paymentStatus === 'authorized') && after.toPay === 0;
  return after.status === 'pending' && secured && !paymentSecured(before.paymentStatus);
}
