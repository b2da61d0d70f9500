import Stripe from 'stripe';
import type { PaymentGateway, PaymentPlugin, GatewayEvent } from '../../payment-plugin.js';
import { GatewayError, WebhookSignatureError } from '../../payment-plugin.js';
import { toStripeAmount } from './stripe-amounts.js';
import { readStripeSettings, type StripeSettings } from './stripe-config.js';
import { captureBeforeOf, METADATA_ORDER_ALIAS, METADATA_REFERENCE, normaliseStripeEvent } from './stripe-events.js';

/**
 * The service gives up on an attempt whose gateway call has not come back after 60 s and opens
 * another; three tries of 15 s (plus the SDK's back-off) stay inside that window, so a slow Stripe
 * can't leave two live Checkout Sessions for one order.
 */
const REQUEST_TIMEOUT_MS = 15_000;
const NETWORK_RETRIES = 2;
/** Looking up an authorization's expiry while answering a webhook: one short try, the expiry is optional. */
const EXPIRY_LOOKUP = { timeout: 5_000, maxNetworkRetries: 0 } as const;

const firstLine = (text: string) => text.split('\n', 1)[0]?.trim() ?? '';

/** Removes anything shaped like a Stripe secret (and the configured ones) from a message. */
function redact(text: string, settings: StripeSettings): string {
  return text
    .split(settings.secretKey)
    .join('[redacted]')
    .split(settings.webhookSecret)
    .join('[redacted]')
    .replace(/\b(sk|rk)_(live|test)_[A-Za-z0-9*]+/g, '[redacted]')
    .replace(/\bwhsec_[A-Za-z0-9+/=_-]+/g, '[redacted]');
}

/** A Stripe SDK failure as the service's GatewayError (answered 502); other errors are bugs and pass. */
function gatewayError(action: string, err: unknown, settings: StripeSettings): unknown {
  if (err instanceof GatewayError) return err;
  if (!(err instanceof Stripe.errors.StripeError)) return err;
  const status = err.statusCode ? `${err.statusCode} ` : '';
  const code = err.code ?? err.rawType ?? err.type;
  const retryable =
    err instanceof Stripe.errors.StripeConnectionError
    || err instanceof Stripe.errors.StripeAPIError
    || err instanceof Stripe.errors.StripeRateLimitError
    || (err.statusCode ?? 0) >= 500;
  const why =
    err instanceof Stripe.errors.StripeConnectionError
      ? 'could not reach Stripe'
      : `Stripe answered ${status}(${code})`;
  return new GatewayError(redact(`${action}: ${why}: ${firstLine(err.message)}`, settings), retryable);
}

/** The PaymentIntent an operation acts on, which the service learnt from the session's webhook. */
function paymentIntentOf(input: { gatewayPaymentRef: string | null }): string {
  if (!input.gatewayPaymentRef) throw new GatewayError('the payment has no Stripe PaymentIntent yet');
  return input.gatewayPaymentRef;
}

function createStripeGateway(settings: StripeSettings): PaymentGateway {
  const stripe = new Stripe(settings.secretKey, {
    ...settings.api,
    timeout: REQUEST_TIMEOUT_MS,
    maxNetworkRetries: NETWORK_RETRIES,
    appInfo: { name: 'storefront-stripe-plugin' },
  });

  /**
   * Stripe's webhook carries the PaymentIntent's latest charge as an id, and the hold's expiry (card.capture_before)
   * is on the charge: asked for once, briefly. Without an answer the event goes on without the expiry.
   */
  async function withAuthorizationExpiry(
    event: GatewayEvent,
    charge: string | Stripe.Charge | null,
  ): Promise<GatewayEvent> {
    if (event.kind !== 'authorized' || event.authorizationExpiresAt || typeof charge !== 'string') return event;
    try {
      const expiresAt = captureBeforeOf(await stripe.charges.retrieve(charge, undefined, EXPIRY_LOOKUP));
      return expiresAt ? { ...event, authorizationExpiresAt: expiresAt } : event;
    } catch {
      return event;
    }
  }

  return {
    checkAmount(amount) {
      toStripeAmount(amount);
    },

    async start(input) {
      const amount = toStripeAmount(input.amount);
      const metadata = { [METADATA_REFERENCE]: input.reference, [METADATA_ORDER_ALIAS]: input.order.alias };
      let session: Stripe.Checkout.Session;
      try {
        session = await stripe.checkout.sessions.create(
          {
            mode: 'payment',
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: input.amount.currency.toLowerCase(),
                  unit_amount: amount,
                  product_data: { name: `Order ${input.order.alias}` },
                },
              },
            ],
            success_url: input.returnUrl,
            cancel_url: input.cancelUrl,
            client_reference_id: input.reference,
            metadata,
            // Manual: the card is authorized on Stripe's page and the money held until capture() or void().
            payment_intent_data: {
              metadata,
              ...(input.captureMethod === 'manual' ? { capture_method: 'manual' } : {}),
            },
            ...(input.order.email ? { customer_email: input.order.email } : {}),
          },
          { idempotencyKey: input.idempotencyKey },
        );
      } catch (err) {
        throw gatewayError('creating the Stripe Checkout Session failed', err, settings);
      }
      if (!session.url)
        throw new GatewayError(`Stripe created Checkout Session ${session.id} without a payment page URL`);
      return { redirectUrl: session.url, gatewayRef: session.id };
    },

    async parseWebhook({ headers, rawBody }) {
      const signature = headers['stripe-signature'];
      if (typeof signature !== 'string' || signature === '')
        throw new WebhookSignatureError('the Stripe-Signature header is missing');
      let event: Stripe.Event;
      try {
        event = await stripe.webhooks.constructEventAsync(
          rawBody,
          signature,
          settings.webhookSecret,
          settings.toleranceSeconds,
        );
      } catch (err) {
        const message = firstLine(err instanceof Error ? err.message : String(err));
        throw new WebhookSignatureError(`Stripe signature check failed: ${redact(message, settings)}`);
      }
      if (
        typeof event !== 'object'
        || event === null
        || typeof event.id !== 'string'
        || typeof event.type !== 'string'
      ) {
        throw new WebhookSignatureError('the signed payload is not a Stripe event');
      }
      const normalised = normaliseStripeEvent(event);
      if (event.type === 'payment_intent.amount_capturable_updated')
        return [await withAuthorizationExpiry(normalised, event.data.object.latest_charge)];
      return [normalised];
    },

    async refund(input) {
      const paymentIntent = paymentIntentOf(input);
      const amount = toStripeAmount(input.amount);
      try {
        const refund = await stripe.refunds.create(
          { payment_intent: paymentIntent, amount, metadata: { [METADATA_REFERENCE]: input.reference } },
          { idempotencyKey: input.idempotencyKey },
        );
        return { gatewayRef: refund.id };
      } catch (err) {
        throw gatewayError('the Stripe refund failed', err, settings);
      }
    },

    // Stripe releases whatever a capture does not take: every capture is the last one.
    async capture(input) {
      const paymentIntent = paymentIntentOf(input);
      if (!input.final)
        throw new GatewayError(
          'Stripe releases what a capture does not take; it cannot capture part and keep the rest',
        );
      const amount = toStripeAmount(input.amount);
      try {
        const intent = await stripe.paymentIntents.capture(
          paymentIntent,
          { amount_to_capture: amount },
          { idempotencyKey: input.idempotencyKey },
        );
        const charge = intent.latest_charge;
        return { gatewayRef: (typeof charge === 'string' ? charge : charge?.id) ?? intent.id };
      } catch (err) {
        throw gatewayError('the Stripe capture failed', err, settings);
      }
    },

    async void(input) {
      const paymentIntent = paymentIntentOf(input);
      try {
        await stripe.paymentIntents.cancel(paymentIntent, {}, { idempotencyKey: input.idempotencyKey });
      } catch (err) {
        throw gatewayError('cancelling the Stripe PaymentIntent failed', err, settings);
      }
    },

    // Best effort: a session already expired or completed is left as it is (a payment that still arrives is
    // recorded all the same). Stripe refuses to expire a session that is not open, so its state is asked then.
    async cancelAttempt(input) {
      const sessionId = input.gatewayRef;
      if (!sessionId?.startsWith('cs_')) return;
      try {
        await stripe.checkout.sessions.expire(sessionId);
      } catch (err) {
        if (err instanceof Stripe.errors.StripeInvalidRequestError) {
          const session = await stripe.checkout.sessions.retrieve(sessionId).catch(() => undefined);
          if (session !== undefined && session.status !== 'open') return;
        }
        throw gatewayError('expiring the Stripe Checkout Session failed', err, settings);
      }
    },
  };
}

/**
 * Stripe Checkout: start() opens a Checkout Session for the whole amount and sends the payer to
 * Stripe's page (with manual capture, the card is only authorized); Stripe's signed webhooks say
 * how it went; captures and voids go through the PaymentIntent, refunds through Stripe's Refunds
 * API. Settings and events: README.md beside this file.
 */
const stripePlugin: PaymentPlugin<StripeSettings> = {
  id: 'stripe',
  name: 'Stripe',
  capabilities: ['authorize', 'capture', 'partial_capture', 'void', 'refund', 'partial_refund'],
  configure: readStripeSettings,
  create: (settings) => createStripeGateway(settings),
};

export default stripePlugin;
