import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { sandboxEvent, signSandboxWebhook } from '../src/payments/plugins/sandbox/index.js';
import { currencyFormat } from '../src/shared/money.js';
import type { PlacedOrder } from './fixtures.js';
import { json, type TestApp } from './helpers.js';

// The sandbox gateway's side of a payment in HTTP tests: a payment started as a storefront starts one, and the
// gateway's events signed and delivered to the store's webhook route as the sandbox delivers them.

type App = Pick<TestApp, 'app'>;
/** A start-payment answer, read by assertions. */
// biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary JSON shapes
type Json = any;
export type SandboxEventType = Parameters<typeof sandboxEvent>[0];

/** buildTestApp's plugin secrets are `test-secret-<plugin>-<name>-…`: the sandbox's webhook key. */
export const SANDBOX_WEBHOOK_SECRET = 'test-secret-sandbox-webhook-0123456789abcdef0123456789';
export const SANDBOX_WEBHOOK_URL = '/payment/storefront/api/webhook-view/sandbox/';

/**
 * The body of a new sandbox event (an id of its own) for the payment with this reference: `amount` in USD cents, or
 * minor units of the currency given with it.
 */
export function sandboxEventBody(
  type: SandboxEventType,
  reference: string,
  amount: number | { minor: number; currency: string },
): string {
  const { minor, currency } = typeof amount === 'number' ? { minor: amount, currency: 'USD' } : amount;
  return JSON.stringify(sandboxEvent(type, { reference, amount: minor, currency }));
}

/** Delivers a body to the webhook route, signed with the sandbox's secret; answers the response, unchecked. */
export function deliverSandboxWebhook(t: App, body: string): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: SANDBOX_WEBHOOK_URL,
    headers: {
      'content-type': 'application/json',
      'x-sandbox-signature': signSandboxWebhook(SANDBOX_WEBHOOK_SECRET, body),
    },
    payload: body,
  });
}

export interface StartedSandboxPayment {
  paymentId: number;
  /** The reference the sandbox knows the payment by (its checkout link's), which its events carry. */
  reference: string;
  /** start-payment's answer as it came. */
  answer: Json;
}

/** Starts a sandbox payment of a placed order with its token, as a storefront does, expecting 200. */
export async function startSandboxPayment(
  t: App,
  order: Pick<PlacedOrder, 'order_alias' | 'order_token'>,
  options: { idempotencyKey?: string } = {},
): Promise<StartedSandboxPayment> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/payment/storefront/api/start-payment/sandbox/',
    headers: {
      'x-order-token': order.order_token,
      ...(options.idempotencyKey === undefined ? {} : { 'idempotency-key': options.idempotencyKey }),
    },
    payload: { order_alias: order.order_alias },
  });
  if (res.statusCode !== 200) {
    throw new Error(`start-payment (sandbox): expected 200, got ${res.statusCode} ${res.body}`);
  }
  const answer = json(res);
  const reference = new URL(answer.url).searchParams.get('reference') ?? '';
  return { paymentId: answer.payment_id, reference, answer };
}

/**
 * Starts a sandbox payment of the order and delivers the gateway's event for the whole amount asked: by default
 * `payment.succeeded`, or `payment.authorized` to hold the money. Expects the webhook answered 200.
 */
export async function payWithSandbox(
  t: App,
  order: Pick<PlacedOrder, 'order_alias' | 'order_token'>,
  type: Extract<SandboxEventType, 'payment.succeeded' | 'payment.authorized'> = 'payment.succeeded',
): Promise<StartedSandboxPayment> {
  const started = await startSandboxPayment(t, order);
  // The amount asked, in minor units of the currency it was asked in (the order's).
  const { currency } = started.answer;
  const minor = currencyFormat(currency).parse(started.answer.amount);
  const res = await deliverSandboxWebhook(t, sandboxEventBody(type, started.reference, { minor, currency }));
  expect(res.statusCode, res.body).toBe(200);
  return started;
}
