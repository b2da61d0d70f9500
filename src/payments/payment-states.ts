import type { paymentStatesList } from '../db/schema.js';
import type { WebhookEventKind } from './payment-plugin.js';

export type PaymentState = (typeof paymentStatesList)[number];

/**
 * The payment state machine as a table: from each state, the states an event may move it to.
 * Every transition goes up one order — pending, expired, failed, succeeded, partially refunded,
 * refunded — so a late or repeated event can never move a payment back, and the final state
 * depends only on which events arrived, not on the order they arrived in.
 */
export const paymentTransitions: Readonly<Record<PaymentState, readonly PaymentState[]>> = {
  pending: ['expired', 'failed', 'succeeded', 'partially_refunded', 'refunded'],
  expired: ['failed', 'succeeded', 'partially_refunded', 'refunded'],
  failed: ['succeeded', 'partially_refunded', 'refunded'],
  succeeded: ['partially_refunded', 'refunded'],
  partially_refunded: ['refunded'],
  refunded: [],
};

export interface PaymentFigures {
  state: PaymentState;
  /** The attempt's amount: what the gateway was asked to charge. */
  amount: number;
  captured: number;
  refunded: number;
}

export interface PaymentEventInput {
  kind: WebhookEventKind;
  /** succeeded: amount captured; refunded: cumulative refunded total. */
  amountMinor?: number;
}

/**
 * Applies one event. Amounts only grow (max), states only climb the table; whatever does neither
 * leaves the payment as it was (`changed: false`).
 */
export function applyPaymentEvent(
  current: PaymentFigures,
  event: PaymentEventInput,
): { next: PaymentFigures; changed: boolean } {
  let { state, captured, refunded } = current;
  switch (event.kind) {
    case 'failed':
    case 'expired':
      if (paymentTransitions[state].includes(event.kind)) state = event.kind;
      break;
    case 'succeeded': {
      captured = Math.max(captured, event.amountMinor ?? current.amount);
      if (paymentTransitions[state].includes('succeeded')) state = 'succeeded';
      break;
    }
    case 'refunded': {
      refunded = Math.max(refunded, event.amountMinor ?? 0);
      break;
    }
    case 'pending':
    case 'ignored':
      break;
  }
  if (refunded > 0) {
    // A refund implies the attempt's amount was captured, even if that event is still on its way.
    captured = Math.max(captured, current.amount, refunded);
    const target: PaymentState = refunded >= captured ? 'refunded' : 'partially_refunded';
    if (paymentTransitions[state].includes(target)) state = target;
  }
  const next = { ...current, state, captured, refunded };
  const changed =
    next.state !== current.state || next.captured !== current.captured || next.refunded !== current.refunded;
  return { next, changed };
}

export type OrderPaymentStatus = 'unpaid' | 'pending' | 'paid' | 'partially_paid' | 'overpaid' | 'refunded' | 'failed';

export type OrderCancelReason = 'expired' | null;

/** What an order owes: its total, or nothing once it expired unpaid (it will not be fulfilled). */
export function amountOwed(order: { total: number; cancelReason: OrderCancelReason }): number {
  return order.cancelReason === 'expired' ? 0 : order.total;
}

/** The order's payment status from all its payment attempts: money kept versus the order total. */
export function orderPaymentStatus(total: number, attempts: readonly PaymentFigures[]): OrderPaymentStatus {
  const captured = attempts.reduce((s, p) => s + p.captured, 0);
  const refunded = attempts.reduce((s, p) => s + p.refunded, 0);
  const net = captured - refunded;
  if (captured > 0 && net <= 0) return 'refunded';
  if (net > 0) return net === total ? 'paid' : net > total ? 'overpaid' : 'partially_paid';
  if (attempts.some((p) => p.state === 'pending')) return 'pending';
  if (attempts.length > 0) return 'failed';
  return 'unpaid';
}

/** Which of its two links a gateway sent the payer back through: done, or gave up. */
export type ReturnEnd = 'return' | 'cancel';

/** What a payer coming back from a gateway (and the storefront they land on) is told. */
export type PaymentOutcome = 'succeeded' | 'failed' | 'pending' | 'cancelled';

/**
 * The attempt's outcome as the payer sees it. Money taken counts as succeeded even if refunded
 * since; an attempt still pending is cancelled when the payer left through the cancel link, and
 * pending otherwise (a gateway's webhook may reach the store after its payer does).
 */
export function paymentOutcome(state: PaymentState, end: ReturnEnd): PaymentOutcome {
  switch (state) {
    case 'succeeded':
    case 'partially_refunded':
    case 'refunded':
      return 'succeeded';
    case 'failed':
      return 'failed';
    case 'expired':
      return 'cancelled';
    case 'pending':
      return end === 'cancel' ? 'cancelled' : 'pending';
  }
}

export type PaymentEventType = 'payment.succeeded' | 'payment.failed' | 'payment.refunded';

/**
 * The events a payment's change from `before` to `after` records (SPEC 11): succeeded when it first holds money
 * (also when a refund is what told us it was captured: succeeded, then refunded), failed when it becomes failed,
 * refunded whenever the refunded total grows (in part or in full). A change that does none of these (pending,
 * expired, a repeat) records nothing.
 */
export function paymentEventTypes(before: PaymentFigures, after: PaymentFigures): PaymentEventType[] {
  const types: PaymentEventType[] = [];
  if (before.captured === 0 && after.captured > 0) types.push('payment.succeeded');
  if (after.state === 'failed' && before.state !== 'failed') types.push('payment.failed');
  if (after.refunded > before.refunded) types.push('payment.refunded');
  return types;
}

const fullyPaid = (status: OrderPaymentStatus) => status === 'paid' || status === 'overpaid';

/**
 * Whether the order became paid (order.paid): its payment status moved to `paid` (or straight to `overpaid`) from
 * one that was not fully paid. Back to paid after a partial refund and a new payment counts again.
 */
export function orderBecamePaid(before: OrderPaymentStatus, after: OrderPaymentStatus): boolean {
  return fullyPaid(after) && !fullyPaid(before);
}
