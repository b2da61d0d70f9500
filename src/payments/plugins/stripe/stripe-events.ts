import type Stripe from 'stripe';
import type { WebhookEvent } from '../../payment-plugin.js';
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
function sessionEvent(eventId: string, session: Stripe.Checkout.Session, kind: WebhookEvent['kind']): WebhookEvent {
  const reference = session.client_reference_id ?? referenceOf(session.metadata);
  const match = reference !== undefined ? { reference } : { gatewayRef: session.id };
  const gatewayPaymentRef = idOf(session.payment_intent);
  const event: WebhookEvent = { eventId, kind, match, ...(gatewayPaymentRef ? { gatewayPaymentRef } : {}) };
  if (kind !== 'succeeded') return event;
  const amount = fromStripeAmount(session.amount_total, session.currency);
  // A success whose amount can't be read exactly is not guessed at: the payment keeps its state.
  return amount ? { ...event, amount } : { ...event, kind: 'ignored' };
}

/**
 * Stripe's charge.refunded carries amount_refunded: the running total refunded on the charge,
 * which is exactly what a normalised 'refunded' event reports (so repeats can't double-count).
 */
function chargeRefunded(eventId: string, charge: Stripe.Charge): WebhookEvent {
  const paymentIntent = idOf(charge.payment_intent);
  const reference = referenceOf(charge.metadata);
  const match =
    paymentIntent !== undefined
      ? { gatewayPaymentRef: paymentIntent }
      : reference !== undefined
        ? { reference }
        : undefined;
  const amount = fromStripeAmount(charge.amount_refunded, charge.currency);
  if (!match || !amount) return { eventId, kind: 'ignored', match: {} };
  return { eventId, kind: 'refunded', match, amount };
}

/** Translates a verified Stripe event; types the service doesn't follow come back as 'ignored'. */
export function normaliseStripeEvent(event: Stripe.Event): WebhookEvent {
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object;
      // Card payments are paid on completion; delayed methods (bank debits…) complete 'unpaid'
      // and report later through async_payment_succeeded / _failed.
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
    default:
      return { eventId: event.id, kind: 'ignored', match: {} };
  }
}
