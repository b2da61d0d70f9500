import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PaymentGateway, PaymentPlugin, PluginContext } from '../../payment-plugin.js';
import { PAGE_HEADERS, renderCheckoutPage, renderErrorPage } from './checkout-page.js';
import { AUTHORIZATION_SECONDS, normaliseSandboxEvent, type SandboxEvent, sandboxEvent } from './events.js';
import {
  failIfAsked,
  readSimulatedFailures,
  type SimulatedFailures,
  sandboxGatewayRef,
  sandboxOperations,
} from './operations.js';
import {
  CHECKOUT_LINK_SECONDS,
  type CheckoutParams,
  SIGNATURE_HEADER,
  signCheckout,
  signSandboxWebhook,
  verifyCheckout,
  verifySandboxWebhook,
} from './signing.js';

export { signSandboxWebhook, verifySandboxWebhook, WEBHOOK_TOLERANCE_SECONDS } from './signing.js';
export { AUTHORIZATION_SECONDS, type SandboxEvent, sandboxEvent } from './events.js';
export { FAIL_OPERATIONS_VARIABLE, SANDBOX_OPERATIONS, type SandboxOperation } from './operations.js';

/**
 * Sandbox: a gateway the service hosts itself, so the whole payment flow works offline. start()
 * links to a checkout page of the service (signed, so its amount and capture method can't be altered);
 * Pay (or Authorize, with manual capture) or Decline sends a signed webhook through the real webhook
 * route and takes the payer back to the store. Capture, void, refund and cancelAttempt hold no state
 * and move no money: they check their input and answer a reference, or fail on purpose when
 * SANDBOX_FAIL_OPERATIONS says so (README.md).
 */

export const CHECKOUT_PATH = '/payment/sandbox/checkout/';

/** Form bodies up to the service's usual limit. */
const BODY_LIMIT = 1024 * 1024;

interface SandboxConfig {
  /** Operations that fail on purpose, for tests (SANDBOX_FAIL_OPERATIONS). */
  failures: SimulatedFailures;
}

function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.code(status).headers(PAGE_HEADERS).send(html);
}

function queryOf(request: FastifyRequest): URLSearchParams {
  const at = request.url.indexOf('?');
  return new URLSearchParams(at < 0 ? '' : request.url.slice(at + 1));
}

/** What the payer may answer on the page: Pay, or Authorize when the attempt only holds the money. */
const DECISIONS = { automatic: 'pay', manual: 'authorize' } as const;

/** What the payer's decision tells the store: declined, paid, or (manual capture) authorized for a while. */
function decisionEvent(params: CheckoutParams, pay: boolean): SandboxEvent {
  const data = { reference: params.reference, amount: params.amountMinor, currency: params.currency };
  if (!pay) return sandboxEvent('payment.failed', data);
  if (params.captureMethod === 'automatic') return sandboxEvent('payment.succeeded', data);
  const expiresAt = Math.floor(Date.now() / 1000) + AUTHORIZATION_SECONDS;
  return sandboxEvent('payment.authorized', { ...data, authorization_expires_at: expiresAt });
}

function createSandbox(config: SandboxConfig, context: PluginContext): PaymentGateway {
  const checkoutSecret = context.secret('checkout');
  const webhookSecret = context.secret('webhook');
  // The form posts back to this service wherever it is mounted (PUBLIC_BASE_URL may have a path).
  const action = `${new URL(context.publicBaseUrl).pathname.replace(/\/+$/, '')}${CHECKOUT_PATH}`;

  /** Sends an event, signed, to the store's webhook route as a gateway would: the status it answered, 0 for none. */
  async function deliver(event: SandboxEvent, log: FastifyBaseLogger): Promise<number> {
    const rawBody = Buffer.from(JSON.stringify(event));
    try {
      const headers = {
        'content-type': 'application/json',
        [SIGNATURE_HEADER]: signSandboxWebhook(webhookSecret, rawBody),
      };
      return (await context.deliverWebhook({ headers, rawBody })).status;
    } catch (err) {
      log.error({ err }, 'sandbox webhook delivery failed');
      return 0;
    }
  }

  async function checkoutRoutes(scope: FastifyInstance): Promise<void> {
    // This scope takes HTML forms and nothing else; the rest of the service stays JSON-only.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: BODY_LIMIT },
      (_request, body, done) => {
        done(null, new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8')));
      },
    );
    const schema = { tags: ['payments (sandbox)'] };

    scope.get(
      CHECKOUT_PATH,
      {
        schema: {
          ...schema,
          summary: 'Sandbox checkout page (HTML): Pay (or Authorize) or Decline',
          description:
            'Opened from the url start-payment returned for the sandbox. '
            + 'A link whose signature does not match its parameters is a 400 page.',
        },
      },
      async (request, reply) => {
        const fields = queryOf(request);
        const checkout = verifyCheckout(checkoutSecret, fields);
        if (!checkout.ok)
          return sendPage(reply, 400, renderErrorPage(`This payment link is not valid: ${checkout.reason}.`));
        return sendPage(
          reply,
          200,
          renderCheckoutPage({
            params: checkout.params,
            fields: signCheckout(checkoutSecret, checkout.params),
            action,
          }),
        );
      },
    );

    scope.post(
      CHECKOUT_PATH,
      {
        schema: {
          ...schema,
          summary:
            'Sandbox checkout decision (HTML form): sends the signed webhook, then 303 to the return or cancel URL',
        },
      },
      async (request, reply) => {
        const form = request.body instanceof URLSearchParams ? request.body : new URLSearchParams();
        const checkout = verifyCheckout(checkoutSecret, form);
        if (!checkout.ok)
          return sendPage(reply, 400, renderErrorPage(`This payment form is not valid: ${checkout.reason}.`));
        const decision = form.getAll('decision');
        const { captureMethod } = checkout.params;
        const accept = DECISIONS[captureMethod];
        if (decision.length !== 1 || (decision[0] !== accept && decision[0] !== 'decline')) {
          return sendPage(
            reply,
            400,
            renderErrorPage(captureMethod === 'manual' ? 'Choose Authorize or Decline.' : 'Choose Pay or Decline.'),
          );
        }
        const pay = decision[0] === accept;
        const status = await deliver(decisionEvent(checkout.params, pay), request.log);
        if (status < 200 || status >= 300) {
          return sendPage(
            reply,
            502,
            renderErrorPage(`The store did not accept the payment's result (webhook answered ${status || 'nothing'}).`),
          );
        }
        return reply
          .header('cache-control', 'no-store')
          .redirect(pay ? checkout.params.returnUrl : checkout.params.cancelUrl, 303);
      },
    );
  }

  return {
    async start(input) {
      failIfAsked(config.failures, 'start');
      const fields = signCheckout(checkoutSecret, {
        reference: input.reference,
        amountMinor: input.amount.amountMinor,
        currency: input.amount.currency,
        exponent: input.amount.exponent,
        orderAlias: input.order.alias,
        returnUrl: input.returnUrl,
        cancelUrl: input.cancelUrl,
        captureMethod: input.captureMethod,
        expiresAt: Math.floor(Date.now() / 1000) + CHECKOUT_LINK_SECONDS,
      });
      return {
        redirectUrl: `${context.publicBaseUrl}${CHECKOUT_PATH}?${fields.toString()}`,
        gatewayRef: sandboxGatewayRef(input.reference),
      };
    },
    async parseWebhook({ headers, rawBody }) {
      verifySandboxWebhook(webhookSecret, { header: headers[SIGNATURE_HEADER], rawBody });
      return normaliseSandboxEvent(rawBody);
    },
    ...sandboxOperations(config.failures),
    // Own encapsulated scope even if a caller hands over the root instance: the form parser stays here.
    routes: async (app) => {
      await app.register(checkoutRoutes);
    },
  };
}

const sandbox: PaymentPlugin<SandboxConfig> = {
  id: 'sandbox',
  name: 'Sandbox (test payments)',
  capabilities: ['authorize', 'capture', 'partial_capture', 'void', 'refund', 'partial_refund'],
  secrets: ['checkout', 'webhook'],
  // On by default only for a demo or development store (the embedded database). Its one setting is for tests.
  configure: (env, situation) =>
    situation.embeddedDatabase || situation.explicit ? { failures: readSimulatedFailures(env) } : undefined,
  create: (config, context) => createSandbox(config, context),
};

export default sandbox;
