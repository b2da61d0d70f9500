import type { paymentStatuses } from '../db/schema.js';
import type { OrderStatus } from './order-states.js';

/**
 * The money of one order as a ledger (docs/payments.md): what it charges, what its payments hold, took and gave back,
 * and what was credited (given back without changing the order's lines: the goodwill part of refunds). Every figure
 * an answer, an event or a rule shows about an order's money is computed here from the totals the order keeps, which
 * src/payments/payments-ledger.ts sums from its payments (`orderLedger`). Minor units.
 */
export interface OrderLedger {
  /** The order's total as placed (or edited). */
  total: number;
  /**
   * What refunded returns gave back for the goods (and shipping) that came back: the order no longer charges it.
   */
  returned: number;
  /** What the order charges: its total less what was returned, or nothing once it is cancelled (not fulfilled). */
  charge: number;
  /** Σ over payments of the money authorized (held, or held and taken at once). */
  authorized: number;
  captured: number;
  refunded: number;
  credited: number;
  /** Money still held by open authorizations: an admin may capture it (or void it). */
  capturable: number;
  /** captured − refunded: what an admin may still refund. */
  refundable: number;
  /**
   * What the customer still owes: the charge less credits (never below nothing), less the money kept (captured −
   * refunded). Negative: money owed back to the customer (an overpayment, a cancelled order that was paid).
   */
  balanceDue: number;
  /** Money owed back: −balanceDue when it is negative, else 0. Always covered by `refundable`. */
  refundDue: number;
  /** What the customer is asked to pay now: the balance due less what open authorizations already hold. */
  toPay: number;
}

export type OrderPaymentStatus = (typeof paymentStatuses)[number];

/**
 * What an order charges: nothing once cancelled (an expired order too), otherwise its total less what refunded returns
 * gave back (the goods came back, so their money is not owed: a return's refund is not a credit).
 */
export function orderCharge(order: { total: number; status: OrderStatus; amountReturned: number }): number {
  return order.status === 'cancelled' ? 0 : order.total - order.amountReturned;
}

/** The totals an order keeps (orders.amount_*), from which the rest of its ledger follows. */
export type LedgerTotals = Pick<
  OrderLedger,
  'total' | 'returned' | 'charge' | 'credited' | 'authorized' | 'captured' | 'refunded' | 'capturable'
>;

export function ledgerFromTotals(t: LedgerTotals): OrderLedger {
  const balanceDue = Math.max(0, t.charge - t.credited) - (t.captured - t.refunded);
  // Written out, not spread: every placement's event presents a ledger, and V8 adds keys after a spread slowly.
  return {
    total: t.total,
    returned: t.returned,
    charge: t.charge,
    credited: t.credited,
    authorized: t.authorized,
    captured: t.captured,
    refunded: t.refunded,
    capturable: t.capturable,
    refundable: t.captured - t.refunded,
    balanceDue,
    refundDue: Math.max(0, -balanceDue),
    toPay: Math.max(0, balanceDue - t.capturable),
  };
}

/**
 * The order's payment status, a function of its ledger alone:
 * - overpaid: money is owed back (balance below zero);
 * - unpaid / authorized: nothing taken, nothing held / money held (an order of nothing to pay is paid as placed);
 * - partially_paid: some money kept, some still due;
 * - paid: nothing due and nothing refunded; partially_refunded / refunded: nothing due, part / all of what was taken
 *   given back (a goodwill refund, or a cancelled order's money returned).
 */
export function orderPaymentStatus(l: OrderLedger): OrderPaymentStatus {
  const kept = l.captured - l.refunded;
  if (l.balanceDue < 0) return 'overpaid';
  if (l.captured === 0) return l.capturable > 0 ? 'authorized' : l.total === 0 ? 'paid' : 'unpaid';
  if (l.balanceDue > 0) return kept > 0 ? 'partially_paid' : 'refunded';
  if (l.refunded === 0) return 'paid';
  return kept === 0 ? 'refunded' : 'partially_refunded';
}

/**
 * How much of a refund of `amount` is a credit (goodwill: given back without changing the order): what it gives
 * beyond the money owed back. A refund first returns what is owed back, so it never makes the customer owe more.
 * Pass the ledger with pending records counted.
 */
export function refundCredit(ledger: OrderLedger, amount: number): number {
  return Math.max(0, amount - ledger.refundDue);
}

/**
 * Of a return's refund of `amount`, what goes back to the customer as money, given the ledger once the return counts
 * (its amount added to `returned`): what that makes owed back, at most the amount. The rest lowers what is still due
 * (an order shipped in parts and not yet paid in full, an authorization not yet captured).
 */
export function returnedToCustomer(ledgerAfter: OrderLedger, amount: number): number {
  return Math.min(amount, ledgerAfter.refundDue);
}

const fullyPaid = (status: OrderPaymentStatus) => status === 'paid' || status === 'overpaid';

/**
 * Whether the order became paid (order.paid): its payment status moved to `paid` (or straight to `overpaid`) from
 * one that was not fully paid. Back to paid after a partial refund and a new payment counts again.
 */
export function orderBecamePaid(before: OrderPaymentStatus, after: OrderPaymentStatus): boolean {
  return fullyPaid(after) && !fullyPaid(before);
}

/** Whether the order's money is secured: paid, or held in full by authorizations (manual capture). */
export function paymentSecured(status: OrderPaymentStatus): boolean {
  return fullyPaid(status) || status === 'authorized';
}

/** The ledger an order row keeps (its totals, kept by every payment change): what answers and events show. */
export function ledgerOfOrder(o: {
  total: number;
  status: OrderStatus;
  amountReturned: number;
  amountCredited: number;
  amountAuthorized: number;
  amountCaptured: number;
  amountRefunded: number;
  amountCapturable: number;
}): OrderLedger {
  return ledgerFromTotals({
    total: o.total,
    returned: o.amountReturned,
    charge: orderCharge(o),
    credited: o.amountCredited,
    authorized: o.amountAuthorized,
    captured: o.amountCaptured,
    refunded: o.amountRefunded,
    capturable: o.amountCapturable,
  });
}
