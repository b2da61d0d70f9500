import type { paymentStatesList } from '../db/schema.js';
import type { CaptureMethod, GatewayEventKind } from './payment-plugin.js';

export type PaymentState = (typeof paymentStatesList)[number];

/**
 * One payment attempt's figures, in minor units of its currency. `authorized` ≥ `captured` ≥ `refunded`;
 * `voided` is what of the authorization was released unused. `captured` and `refunded` are the sums of the ledger's
 * succeeded records of the payment (payment_operations); the rest follows gateway events.
 */
export interface PaymentFigures {
  state: PaymentState;
  /** The attempt's amount: what the gateway was asked to charge. */
  amount: number;
  /** How the gateway was asked to take it: at once, or held for the store to capture (manual). */
  captureMethod: CaptureMethod;
  authorized: number;
  captured: number;
  refunded: number;
  voided: number;
}

/** Money of a payment that the ledger has asked the gateway to move and has no answer for yet. */
export interface PendingMoney {
  capture: number;
  refund: number;
}

export const NOTHING_PENDING: PendingMoney = { capture: 0, refund: 0 };

/**
 * Where an attempt may go before any money moved: it waits (pending), is abandoned (expired by the gateway, or
 * superseded by another attempt the payer chose), or fails. Once money is held or taken the state follows from the
 * figures (`moneyState`) and these no longer apply, so a late or repeated event can never move a payment back, and
 * the final state depends only on which events arrived, not on their order.
 */
export const paymentTransitions: Readonly<Record<PaymentState, readonly PaymentState[]>> = {
  pending: ['expired', 'superseded', 'failed'],
  expired: ['failed'],
  superseded: ['failed'],
  failed: [],
  authorized: [],
  voided: [],
  succeeded: [],
  partially_refunded: [],
  refunded: [],
};

/** The state of a payment that holds or held money, from its figures; undefined when none ever moved. */
export function moneyState(
  f: Pick<PaymentFigures, 'authorized' | 'captured' | 'refunded' | 'voided'>,
): PaymentState | undefined {
  if (f.captured > 0)
    return f.refunded === 0 ? 'succeeded' : f.refunded < f.captured ? 'partially_refunded' : 'refunded';
  if (f.authorized > 0) return f.voided > 0 ? 'voided' : 'authorized';
  return undefined;
}

/** Money the payment still holds: authorized, not captured, voided or being captured. */
export function capturableOf(f: PaymentFigures, pending: PendingMoney = NOTHING_PENDING): number {
  return Math.max(0, f.authorized - f.captured - f.voided - pending.capture);
}

/** Money the payment took and has not given back nor is giving back. */
export function refundableOf(f: PaymentFigures, pending: PendingMoney = NOTHING_PENDING): number {
  return Math.max(0, f.captured - f.refunded - pending.refund);
}

export interface PaymentEventInput {
  kind: GatewayEventKind;
  /** succeeded: amount captured; authorized: amount held; captured and refunded: the gateway's running total. */
  amountMinor?: number;
}

export interface EventEffect {
  next: PaymentFigures;
  changed: boolean;
  /** Money the event reports captured beyond what the ledger holds or has pending: a new capture record. */
  capture: number;
  /** The same for refunds: a new refund record. */
  refund: number;
}

/**
 * Applies one gateway event. Authorizations only grow (max); a running total of captures or refunds adds a record for
 * what it reports beyond what the ledger has (succeeded and pending records together, so the gateway's report of a
 * capture or refund the service is still waiting to hear back about is not counted twice). A refund is also news of
 * a capture: of the attempt's whole amount when nothing was held first (automatic capture), of the refund otherwise.
 * Whatever changes nothing leaves the payment as it was (`changed: false`).
 */
export function applyPaymentEvent(
  current: PaymentFigures,
  event: PaymentEventInput,
  pending: PendingMoney = NOTHING_PENDING,
): EventEffect {
  let { state, authorized, voided } = current;
  let capture = 0;
  let refund = 0;
  const captureUpTo = (total: number) => {
    const more = total - current.captured - pending.capture - capture;
    if (more > 0) capture += more;
    authorized = Math.max(authorized, total);
  };
  switch (event.kind) {
    case 'failed':
    case 'expired':
      if (paymentTransitions[state].includes(event.kind)) state = event.kind;
      break;
    case 'authorized':
      authorized = Math.max(authorized, event.amountMinor ?? current.amount);
      break;
    case 'succeeded':
      captureUpTo(event.amountMinor ?? current.amount);
      break;
    case 'captured':
      captureUpTo(event.amountMinor ?? current.amount);
      break;
    case 'voided': {
      // Released: what was held and is neither taken nor being taken. Nothing held yet: nothing to release.
      const released = authorized - current.captured - pending.capture;
      if (released > voided) voided = released;
      break;
    }
    case 'refunded': {
      const total = event.amountMinor ?? 0;
      const more = total - current.refunded - pending.refund;
      if (more > 0) refund = more;
      if (total > 0) captureUpTo(current.captureMethod === 'automatic' ? Math.max(current.amount, total) : total);
      break;
    }
    case 'pending':
    case 'ignored':
      break;
  }
  const figures = {
    amount: current.amount,
    captureMethod: current.captureMethod,
    authorized,
    captured: current.captured + capture,
    refunded: current.refunded + refund,
    voided,
  };
  const next: PaymentFigures = { ...figures, state: moneyState(figures) ?? state };
  const changed =
    next.state !== current.state
    || next.authorized !== current.authorized
    || next.voided !== current.voided
    || capture > 0
    || refund > 0;
  return { next, changed, capture, refund };
}

/**
 * A succeeded record of the ledger applied to a payment: a capture (a final one releases what it did not take, as
 * gateways do), a refund, or a void of what is still held.
 */
export function applyOperation(
  current: PaymentFigures,
  op: { kind: 'capture' | 'refund' | 'void'; amount: number },
  pending: PendingMoney = NOTHING_PENDING,
): PaymentFigures {
  const f = { ...current };
  if (op.kind === 'capture') {
    f.captured += op.amount;
    f.authorized = Math.max(f.authorized, f.captured);
    // A final capture: the rest of the authorization is released (pending captures still count as taken).
    f.voided = Math.max(f.voided, f.authorized - f.captured - pending.capture);
  } else if (op.kind === 'refund') {
    f.refunded += op.amount;
  } else {
    f.voided = Math.max(f.voided, f.authorized - f.captured - pending.capture);
  }
  return { ...f, state: moneyState(f) ?? f.state };
}

/** Which of its two links a gateway sent the payer back through: done, or gave up. */
export type ReturnEnd = 'return' | 'cancel';

/** What a payer coming back from a gateway (and the storefront they land on) is told. */
export type PaymentOutcome = 'succeeded' | 'failed' | 'pending' | 'cancelled';

/**
 * The attempt's outcome as the payer sees it. Money taken or held counts as succeeded even if refunded or released
 * since; an attempt still pending is cancelled when the payer left through the cancel link, and pending otherwise (a
 * gateway's webhook may reach the store after its payer does).
 */
export function paymentOutcome(state: PaymentState, end: ReturnEnd): PaymentOutcome {
  switch (state) {
    case 'succeeded':
    case 'partially_refunded':
    case 'refunded':
    case 'authorized':
    case 'voided':
      return 'succeeded';
    case 'failed':
      return 'failed';
    case 'expired':
    case 'superseded':
      return 'cancelled';
    case 'pending':
      return end === 'cancel' ? 'cancelled' : 'pending';
  }
}

export type PaymentEventType =
  | 'payment.authorized'
  | 'payment.succeeded'
  | 'payment.captured'
  | 'payment.voided'
  | 'payment.failed'
  | 'payment.refunded';

/**
 * The events a payment's change from `before` to `after` records (docs/events.md): authorized when money is first
 * held without being taken (manual capture); succeeded when it first holds money it took (either way of capturing,
 * also when a refund is what told us it was captured); captured whenever the captured total grows on a payment that
 * was authorized first (a capture of held money); voided when an authorization is released with nothing taken;
 * failed when it becomes failed; refunded whenever the refunded total grows. A change that does none of these
 * (pending, expired, a repeat) records nothing.
 */
export function paymentEventTypes(before: PaymentFigures, after: PaymentFigures): PaymentEventType[] {
  const types: PaymentEventType[] = [];
  if (before.authorized === 0 && after.authorized > 0 && after.captured === 0) types.push('payment.authorized');
  if (before.captured === 0 && after.captured > 0) types.push('payment.succeeded');
  const heldFirst = before.authorized > before.captured || before.state === 'authorized';
  if (after.captured > before.captured && heldFirst) types.push('payment.captured');
  if (after.state === 'voided' && before.state !== 'voided') types.push('payment.voided');
  if (after.state === 'failed' && before.state !== 'failed') types.push('payment.failed');
  if (after.refunded > before.refunded) types.push('payment.refunded');
  return types;
}
