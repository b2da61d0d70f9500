import { NEXT_STATUSES } from './order-transitions';
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
  pending: 0,
  paid: 0,
  partially_paid: 0,
  overpaid: 0,
  refunded: 0,
  failed: 0,
} satisfies Record<PaymentStatus, 0>) as PaymentStatus[];

const transitions: Record<OrderStatus, readonly OrderStatus[]> = NEXT_STATUSES;

/** The statuses an order in `status` may move to, cancelled aside (the dashboard offers cancelling on its own). */
export function nextStatuses(status: OrderStatus): readonly OrderStatus[] {
  return transitions[status].filter((to) => to !== 'cancelled');
}

/** Whether an order in `status` may be cancelled. */
export function cancellable(status: OrderStatus): boolean {
  return transitions[status].includes('cancelled');
}
