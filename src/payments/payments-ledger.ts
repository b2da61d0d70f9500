import { type LedgerTotals, ledgerFromTotals, type OrderLedger, orderCharge } from '../orders/order-ledger.js';
import type { OrderStatus } from '../orders/order-states.js';
import { capturableOf, NOTHING_PENDING, type PaymentFigures, type PendingMoney } from './payment-states.js';

/**
 * The ledger of an order from its payments (what the orders row keeps is computed by this): their figures summed
 * into the totals of src/orders/order-ledger.ts, which derives the rest.
 */
export function orderLedger(input: {
  order: { total: number; status: OrderStatus; amountReturned: number };
  credited: number;
  payments: readonly PaymentFigures[];
  /** Records of the ledger not yet answered, per payment (same order as `payments`), counted as done. */
  pending?: readonly PendingMoney[];
}): OrderLedger {
  const totals: LedgerTotals = {
    total: input.order.total,
    returned: input.order.amountReturned,
    charge: orderCharge(input.order),
    credited: input.credited,
    authorized: 0,
    captured: 0,
    refunded: 0,
    capturable: 0,
  };
  input.payments.forEach((p, i) => {
    const pending = input.pending?.[i] ?? NOTHING_PENDING;
    totals.authorized += p.authorized;
    totals.captured += p.captured + pending.capture;
    totals.refunded += p.refunded + pending.refund;
    totals.capturable += capturableOf(p, pending);
  });
  return ledgerFromTotals(totals);
}
