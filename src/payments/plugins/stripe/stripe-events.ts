import type Stripe from 'stripe';
import type { GatewayEvent } from '../../payment-plugin.js';
import { fromStripeAmount } from './stripe-amounts.js';

/** The metadata keys start() writes on the Checkout Session and its PaymentIntent. */
export const METADATA_REFERENCE = 'payment_reference';
export const METADATA_ORDER_ALIAS = 'order_alias';

const idOf = (value: string | { id: string } | null | undefined): string | undefined =>
  typeof value === 'string' ? value : value?.id;

function referenceOf(metadata: Stripe.Metadata | null | undefined): string | undefined {
  const reference = metadata?.[METADATA_REFERENCE];
  return typeof reference === 'string' && reference !== '' ? reference : undefined;
}

/**
 * A Checkout Session event, found by the reference start() gave Stripe (client_reference_id,
 * or the metadata copy), else by the session id the service stored as the attempt's gatewayRef.
 */
function sessionEvent(eventId: string, session: Stripe.Checkout.Session, kind: GatewayEvent['kind']): GatewayEvent {
  const reference = session.client_reference_id ?? referenceOf(session.metadata);
  const match = reference !== undefined ? { reference } : { gatewayRef: session.id };
  const gatewayPaymentRef = idOf(session.payment_intent);
  const event: GatewayEvent = { eventId, kind, match, ...(gatewayPaymentRef ? { gatewayPaymentRef } : {}) };
  if (kind !== 'succeeded') return event;
  const amount = fromStripeAmount(session.amount_total, session.currency);
  // A success whose amount can't be read exactly is not guessed at: the payment keeps its state.
  return amount ? { ...event, amount } : { ...event, kind: 'ignored' };
}

/** A charge event is found by its PaymentIntent (learnt from the session events), else the metadata reference. */
function chargeMatch(charge: Stripe.Charge): GatewayEvent['match'] | undefined {
  const paymentIntent = idOf(charge.payment_intent);
  const reference = referenceOf(charge.metadata);
  if (paymentIntent !== undefined) return { gatewayPaymentRef: paymentIntent };
  return reference !== undefined ? { reference } : undefined;
}

/**
 * Stripe's charge.refunded carries amount_refunded: the running total refunded on the charge,
 * which is what a normalised 'refunded' event reports (so repeats can't double-count). But Stripe
 * counts an authorization's released part as refunded too: a charge captured in part shows the
 * uncaptured rest in amount_refunded, and a voided one shows all of it. Only refunds of captured
 * money are reported: amount_refunded minus what was never captured; a charge never captured
 * (an authorization released) refunded nothing (payment_intent.canceled says 'voided').
 */
function chargeRefunded(eventId: string, charge: Stripe.Charge): GatewayEvent {
  const match = chargeMatch(charge);
  if (charge.captured === false) return { eventId, kind: 'ignored', match: {} };
  const released =
    typeof charge.amount_captured === 'number' && typeof charge.amount === 'number'
      ? charge.amount - charge.amount_captured
      : 0;
  const amount = fromStripeAmount(charge.amount_refunded - released, charge.currency);
  // Nothing of the captured money refunded (a partial capture's release alone): nothing to report.
  if (!match || !amount || amount.amountMinor <= 0) return { eventId, kind: 'ignored', match: {} };
  return { eventId, kind: 'refunded', match, amount };
}

/** charge.captured: held money taken; amount_captured is the running total captured on the charge. */
function chargeCaptured(eventId: string, charge: Stripe.Charge): GatewayEvent {
  const match = chargeMatch(charge);
  const amount = fromStripeAmount(charge.amount_captured, charge.currency);
  if (!match || !amount || amount.amountMinor <= 0) return { eventId, kind: 'ignored', match: {} };
  const gatewayPaymentRef = idOf(charge.payment_intent);
  return { eventId, kind: 'captured', match, amount, ...(gatewayPaymentRef ? { gatewayPaymentRef } : {}) };
}

/**
 * A PaymentIntent event is found by the reference start() put in its metadata, else by its id (which the service
 * learns from checkout.session.completed, and keeps an early event for until then). It teaches that id too.
 */
function intentEvent(eventId: string, intent: Stripe.PaymentIntent, kind: GatewayEvent['kind']): GatewayEvent {
  const reference = referenceOf(intent.metadata);
  return {
    eventId,
    kind,
    match: { ...(reference !== undefined ? { reference } : {}), gatewayPaymentRef: intent.id },
    gatewayPaymentRef: intent.id,
  };
}

const ignored = (eventId: string): GatewayEvent => ({ eventId, kind: 'ignored', match: {} });

/**
 * When Stripe lets the authorization lapse: the latest charge's card.capture_before, when the event carries the
 * charge itself (webhooks carry only its id; the gateway then asks Stripe, see index.ts).
 */
export function captureBeforeOf(charge: string | Stripe.Charge | null | undefined): Date | undefined {
  if (typeof charge !== 'object' || charge === null) return undefined;
  const captureBefore = charge.payment_method_details?.card?.capture_before;
  return typeof captureBefore === 'number' && Number.isSafeInteger(captureBefore) && captureBefore > 0
    ? new Date(captureBefore * 1000)
    : undefined;
}

/** payment_intent.amount_capturable_updated: money held (manual capture); amount_capturable is what is held now. */
function amountCapturableUpdated(eventId: string, intent: Stripe.PaymentIntent): GatewayEvent {
  const amount = fromStripeAmount(intent.amount_capturable, intent.currency);
  // Nothing capturable any more (captured or released): the captured or canceled event reports that.
  if (!amount || amount.amountMinor <= 0) return ignored(eventId);
  const expiresAt = captureBeforeOf(intent.latest_charge);
  return {
    ...intentEvent(eventId, intent, 'authorized'),
    amount,
    ...(expiresAt ? { authorizationExpiresAt: expiresAt } : {}),
  };
}

/**
 * payment_intent.succeeded of a manual-capture PaymentIntent: held money taken; amount_received is the total
 * captured. With automatic capture the session's own events already report the payment: ignored here, so one
 * payment is not reported twice under two kinds.
 */
function intentSucceeded(eventId: string, intent: Stripe.PaymentIntent): GatewayEvent {
  if (intent.capture_method !== 'manual') return ignored(eventId);
  const amount = fromStripeAmount(intent.amount_received, intent.currency);
  if (!amount || amount.amountMinor <= 0) return ignored(eventId);
  return { ...intentEvent(eventId, intent, 'captured'), amount };
}

/**
 * payment_intent.canceled: 'voided' for a manual-capture PaymentIntent that had a charge (was authorized) and took
 * nothing; any other cancellation (one that never reached a charge, or a PaymentIntent with money received) is
 * ignored. Stripe releases the hold on cancellation.
 */
function intentCanceled(eventId: string, intent: Stripe.PaymentIntent): GatewayEvent {
  const charge = intent.latest_charge;
  const authorized =
    intent.capture_method === 'manual'
    && intent.amount_received === 0
    && charge !== null
    && charge !== undefined
    && (typeof charge === 'string' || (charge.status !== 'failed' && !charge.captured));
  return authorized ? intentEvent(eventId, intent, 'voided') : ignored(eventId);
}

/** Translates a verified Stripe event; types the service doesn't follow come back as 'ignored'. */
export function normaliseStripeEvent(event: Stripe.Event): GatewayEvent {
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object;
      // Card payments are paid on completion; delayed methods (bank debits…) complete 'unpaid'
      // and report later through async_payment_succeeded / _failed; with manual capture the session
      // completes 'unpaid' too (held, not taken) and the PaymentIntent's events follow. 'pending'
      // still teaches the payment its PaymentIntent id.
      return sessionEvent(event.id, session, session.payment_status === 'paid' ? 'succeeded' : 'pending');
    }
    case 'checkout.session.async_payment_succeeded':
      return sessionEvent(event.id, event.data.object, 'succeeded');
    case 'checkout.session.async_payment_failed':
      return sessionEvent(event.id, event.data.object, 'failed');
    case 'checkout.session.expired':
      return sessionEvent(event.id, event.data.object, 'expired');
    case 'charge.refunded':
      return chargeRefunded(event.id, event.data.object);
    case 'charge.captured':
      return chargeCaptured(event.id, event.data.object);
    case 'payment_intent.amount_capturable_updated':
      return amountCapturableUpdated(event.id, event.data.object);
    case 'payment_intent.succeeded':
      return intentSucceeded(event.id, event.data.object);
    case 'payment_intent.canceled':
      return intentCanceled(event.id, event.data.object);
    default:
      return ignored(event.id);
  }
}
