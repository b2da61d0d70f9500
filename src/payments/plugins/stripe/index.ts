import Stripe from 'stripe';
import type { PaymentGateway, PaymentPlugin } from '../../payment-plugin.js';
import { GatewayError, WebhookSignatureError } from '../../payment-plugin.js';
import { toStripeAmount } from './stripe-amounts.js';
import { readStripeSettings, type StripeSettings } from './stripe-config.js';
import { METADATA_ORDER_ALIAS, METADATA_REFERENCE, normaliseStripeEvent } from './stripe-events.js';

/**
 * The service gives up on an attempt whose gateway call has not come back after 60 s and opens
 * another; three tries of 15 s (plus the SDK's back-off) stay inside that window, so a slow Stripe
 * can't leave two live Checkout Sessions for one order.
 */
const REQUEST_TIMEOUT_MS = 15_000;
const NETWORK_RETRIES = 2;

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

function createStripeGateway(settings: StripeSettings): PaymentGateway {
  const stripe = new Stripe(settings.secretKey, {
    ...settings.api,
    timeout: REQUEST_TIMEOUT_MS,
    maxNetworkRetries: NETWORK_RETRIES,
    appInfo: { name: 'storefront-stripe-plugin' },
  });

  return {
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
            payment_intent_data: { metadata },
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
        throw new WebhookSignatureError(
          `Stripe signature check failed: ${redact(firstLine(err instanceof Error ? err.message : String(err)), settings)}`,
        );
      }
      if (
        typeof event !== 'object'
        || event === null
        || typeof event.id !== 'string'
        || typeof event.type !== 'string'
      ) {
        throw new WebhookSignatureError('the signed payload is not a Stripe event');
      }
      return [normaliseStripeEvent(event)];
    },

    async refund(input) {
      if (!input.gatewayPaymentRef) throw new GatewayError('the payment has no Stripe PaymentIntent yet');
      const amount = toStripeAmount(input.amount);
      try {
        const refund = await stripe.refunds.create(
          { payment_intent: input.gatewayPaymentRef, amount, metadata: { [METADATA_REFERENCE]: input.reference } },
          { idempotencyKey: input.idempotencyKey },
        );
        return { gatewayRef: refund.id };
      } catch (err) {
        throw gatewayError('the Stripe refund failed', err, settings);
      }
    },
  };
}

/**
 * Stripe Checkout: start() opens a Checkout Session for the whole amount and sends the payer to
 * Stripe's page; Stripe's signed webhooks say how it went; refunds go through Stripe's Refunds
 * API. Settings and events: README.md beside this file.
 */
const stripePlugin: PaymentPlugin<StripeSettings> = {
  id: 'stripe',
  name: 'Stripe',
  configure: readStripeSettings,
  create: (settings) => createStripeGateway(settings),
};

export default stripePlugin;
