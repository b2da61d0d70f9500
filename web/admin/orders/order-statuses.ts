import type { Order } from './types';

export type OrderStatus = Order['status'];
export type PaymentStatus = Order['payment_status'];

/** Every order status, in the order an order goes through them (the compiler checks none is missing). */
export const ORDER_STATUSES = Object.keys({
  pending: 0,
  approved: 0,
  processing: 0,
  shipped: 0,
  delivered: 0,
  cancelled: 0,
} satisfies Record<OrderStatus, 0>) as OrderStatus[];

/** Every payment status of an order. */
export const PAYMENT_STATUSES = Object.keys({
  unpaid: 0,
  authorized: 0,
  partially_paid: 0,
  paid: 0,
  partially_refunded: 0,
  refunded: 0,
  overpaid: 0,
} satisfies Record<PaymentStatus, 0>) as PaymentStatus[];

/**
 * The statuses the order may move to, cancelled aside (the dashboard offers cancelling on its own): the API's
 * `next_statuses`, the service's state machine answering, so the dashboard keeps no copy of it.
 */
export function nextStatuses(order: Pick<Order, 'next_statuses'>): readonly OrderStatus[] {
  return order.next_statuses.filter((to) => to !== 'cancelled');
}

/** Whether the order may be cancelled now. */
export function cancellable(order: Pick<Order, 'next_statuses'>): boolean {
  return order.next_statuses.includes('cancelled');
}
