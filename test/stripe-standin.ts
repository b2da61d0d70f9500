import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A local stand-in for the part of Stripe's REST API the stripe plugin uses, so its tests run the
 * real `stripe` SDK end to end without leaving the machine. It speaks Stripe's wire format
 * (form-encoded bodies with bracket keys in, JSON objects and Stripe-style error documents out),
 * checks the secret key, honours Idempotency-Key, records every request, and keeps just enough
 * state (sessions, PaymentIntents, charges, refunds) to build realistic webhook events. Sessions
 * made with `payment_intent_data[capture_method]=manual` complete authorized only (PaymentIntent
 * `requires_capture`), to be captured (in part: the rest is released and, as Stripe does, shown
 * refunded on the charge) or canceled.
 */

export const STANDIN_SECRET_KEY = 'sk_test_standin_0123456789abcdefghijklmn';
export const STANDIN_WEBHOOK_SECRET = 'whsec_standin0123456789abcdefghijklmnop';

/** A form value as Stripe's bracket notation nests it: `a[b][0][c]=x` → {a: {b: [{c: 'x'}]}}. */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  idempotencyKey: string | undefined;
  rawBody: string;
  body: FormObject;
  /** The answer was a replay of an earlier request with the same Idempotency-Key. */
  replayed: boolean;
  status: number;
}

export interface StripeError {
  status: number;
  type: 'api_error' | 'card_error' | 'idempotency_error' | 'invalid_request_error';
  message: string;
  code?: string;
  param?: string;
}

type Json = Record<string, unknown>;

/** `a[b][0][c]` → ['a', 'b', '0', 'c']. */
function keyPath(key: string): string[] {
  const head = /^[^[]*/.exec(key)?.[0] ?? '';
  const rest = [...key.slice(head.length).matchAll(/\[([^\]]*)\]/g)].map((m) => m[1] ?? '');
  return [head, ...rest];
}

/** Parses an application/x-www-form-urlencoded body with Stripe's bracket keys into nested values. */
export function parseStripeForm(body: string): FormObject {
  const root: FormObject = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = keyPath(key);
    if (path.some((segment) => segment === '__proto__' || segment === 'constructor')) continue;
    let node: FormObject | FormValue[] = root;
    path.forEach((segment, i) => {
      const last = i === path.length - 1;
      const container = node as Record<string, FormValue>;
      const index = Array.isArray(node) && segment === '' ? node.length : segment;
      if (last) {
        container[index] = value;
        return;
      }
      const nextIsIndex = /^\d*$/.test(path[i + 1] ?? '');
      container[index] ??= nextIsIndex ? [] : {};
      node = container[index] as FormObject | FormValue[];
    });
  }
  return root;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);
const str = (v: FormValue | undefined): string | undefined => (typeof v === 'string' ? v : undefined);
const obj = (v: FormValue | undefined): FormObject | undefined =>
  v !== undefined && typeof v === 'object' && !Array.isArray(v) ? v : undefined;
const int = (v: FormValue | undefined): number | undefined =>
  typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : undefined;
const stringMap = (v: FormValue | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(obj(v) ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string'));

class StripeRefusal extends Error {
  constructor(readonly error: StripeError) {
    super(error.message);
  }
}
const invalid = (message: string, param?: string, code = 'parameter_invalid'): StripeRefusal =>
  new StripeRefusal({ status: 400, type: 'invalid_request_error', message, code, ...(param ? { param } : {}) });

const THREE_DECIMAL = new Set(['bhd', 'jod', 'kwd', 'omr', 'tnd']);

interface Charge {
  id: string;
  object: 'charge';
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  captured: boolean;
  created: number;
  currency: string;
  livemode: false;
  metadata: Record<string, string>;
  paid: boolean;
  payment_intent: string;
  /** Only for an authorization: when Stripe lets it lapse. */
  payment_method_details: { type: 'card'; card: { capture_before?: number } };
  refunded: boolean;
  status: 'pending' | 'succeeded' | 'failed';
}

type CaptureMethod = 'automatic' | 'automatic_async' | 'manual';

interface PaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_capturable: number;
  amount_received: number;
  canceled_at: number | null;
  cancellation_reason: string | null;
  capture_method: CaptureMethod;
  created: number;
  currency: string;
  latest_charge: string;
  livemode: false;
  metadata: Record<string, string>;
  status: 'processing' | 'requires_capture' | 'requires_payment_method' | 'succeeded' | 'canceled';
}

/** How long the stand-in's card authorizations last (Stripe: 7 days for most cards). */
export const STANDIN_AUTHORIZATION_SECONDS = 7 * 24 * 3600;

export interface StripeStandIn {
  /** Base URL, e.g. http://127.0.0.1:43123 */
  url: string;
  secretKey: string;
  webhookSecret: string;
  /** The environment the stripe plugin reads: keys, and host/port/protocol pointing here. */
  env(overrides?: Record<string, string | undefined>): Record<string, string | undefined>;
  /** Every request, in arrival order. */
  requests: RecordedRequest[];
  /** Requests to one method and path (e.g. 'POST /v1/checkout/sessions'), replays included. */
  requestsTo(route: string): RecordedRequest[];
  /** Checkout Sessions created, by id, as Stripe would show them now. */
  session(id: string): Json;
  /** The payer finished Checkout: a PaymentIntent and a charge exist; paid now (card) or later (bank debit). */
  completeSession(id: string, options?: { paid?: boolean }): Json;
  /** A delayed payment method settled (async_payment_succeeded) or failed. */
  settleSession(id: string, outcome: 'paid' | 'failed'): Json;
  /** The session was left unpaid until it expired. */
  expireSession(id: string): Json;
  /** The charge of a PaymentIntent as Stripe shows it now (amount_refunded is the running total). */
  chargeOf(paymentIntentId: string): Json;
  /** A PaymentIntent as Stripe shows it now (latest_charge as an id, as in webhooks). */
  paymentIntentOf(paymentIntentId: string): Json;
  /** Refunds the stand-in created, in order. */
  refunds: Json[];
  /** Makes the next request to this route fail with a Stripe error (one shot). */
  refuseNext(route: string, error: StripeError): void;
  close(): Promise<void>;
}

export async function startStripeStandIn(
  options: { secretKey?: string; webhookSecret?: string } = {},
): Promise<StripeStandIn> {
  const secretKey = options.secretKey ?? STANDIN_SECRET_KEY;
  const webhookSecret = options.webhookSecret ?? STANDIN_WEBHOOK_SECRET;
  const requests: RecordedRequest[] = [];
  const sessions = new Map<string, Json>();
  const paymentIntentData = new Map<string, { metadata: Record<string, string>; captureMethod: CaptureMethod }>();
  const charges = new Map<string, Charge>();
  const intents = new Map<string, PaymentIntent>();
  const refunds: Json[] = [];
  const idempotent = new Map<string, { route: string; rawBody: string; status: number; body: Json }>();
  const refusals = new Map<string, StripeError>();

  function sessionOr404(sessionId: string): Json {
    const session = sessions.get(sessionId);
    if (!session)
      throw new StripeRefusal({
        status: 404,
        type: 'invalid_request_error',
        code: 'resource_missing',
        message: `No such checkout.session: '${sessionId}'`,
      });
    return session;
  }

  function createSession(body: FormObject): Json {
    if (str(body.mode) !== 'payment') throw invalid('This stand-in only creates sessions with mode=payment.', 'mode');
    const items = body.line_items;
    if (!Array.isArray(items) || items.length === 0)
      throw invalid('line_items is required in payment mode.', 'line_items', 'parameter_missing');
    let total = 0;
    let currency: string | undefined;
    items.forEach((raw, i) => {
      const item = obj(raw);
      const price = obj(item?.price_data);
      const unitAmount = int(price?.unit_amount);
      const quantity = int(item?.quantity);
      const itemCurrency = str(price?.currency);
      if (!price || unitAmount === undefined || unitAmount < 0)
        throw invalid('Invalid integer', `line_items[${i}][price_data][unit_amount]`);
      if (!str(obj(price.product_data)?.name))
        throw invalid(
          'Missing required param: product_data[name].',
          `line_items[${i}][price_data][product_data][name]`,
          'parameter_missing',
        );
      if (quantity === undefined || quantity < 1) throw invalid('Invalid integer', `line_items[${i}][quantity]`);
      if (!itemCurrency || !/^[a-z]{3}$/.test(itemCurrency))
        throw invalid('Invalid currency', `line_items[${i}][price_data][currency]`);
      if (currency !== undefined && currency !== itemCurrency)
        throw invalid('All line items must use the same currency.', 'line_items');
      currency = itemCurrency;
      total += unitAmount * quantity;
    });
    if (currency && THREE_DECIMAL.has(currency) && total % 10 !== 0) {
      throw invalid(
        `Invalid amount. ${currency.toUpperCase()} amounts must be rounded to the nearest ten `
          + '(the last digit must be 0).',
        'line_items',
        'amount_invalid',
      );
    }
    const sessionId = id('cs_test');
    const created = now();
    const session: Json = {
      id: sessionId,
      object: 'checkout.session',
      amount_subtotal: total,
      amount_total: total,
      cancel_url: str(body.cancel_url) ?? null,
      client_reference_id: str(body.client_reference_id) ?? null,
      created,
      currency,
      customer: null,
      customer_email: str(body.customer_email) ?? null,
      expires_at: created + 86_400,
      livemode: false,
      metadata: stringMap(body.metadata),
      mode: 'payment',
      payment_intent: null,
      payment_status: 'unpaid',
      status: 'open',
      success_url: str(body.success_url) ?? null,
      url: `https://checkout.stripe.test/c/pay/${sessionId}`,
    };
    const intentData = obj(body.payment_intent_data);
    const captureMethod = str(intentData?.capture_method) ?? 'automatic_async';
    if (captureMethod !== 'automatic' && captureMethod !== 'automatic_async' && captureMethod !== 'manual')
      throw invalid('Invalid capture_method', 'payment_intent_data[capture_method]');
    sessions.set(sessionId, session);
    paymentIntentData.set(sessionId, { metadata: stringMap(intentData?.metadata), captureMethod });
    return session;
  }

  function intentOr404(paymentIntentId: string): { intent: PaymentIntent; charge: Charge } {
    const intent = intents.get(paymentIntentId);
    const charge = charges.get(paymentIntentId);
    if (!intent || !charge)
      throw new StripeRefusal({
        status: 404,
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: 'intent',
        message: `No such payment_intent: '${paymentIntentId}'`,
      });
    return { intent, charge };
  }

  const unexpectedState = (message: string) =>
    new StripeRefusal({ status: 400, type: 'invalid_request_error', code: 'payment_intent_unexpected_state', message });

  /** Takes all or part of what is held; Stripe releases the rest and shows it refunded on the charge. */
  function capturePaymentIntent(paymentIntentId: string, body: FormObject): Json {
    const { intent, charge } = intentOr404(paymentIntentId);
    if (intent.status !== 'requires_capture')
      throw unexpectedState(
        `This PaymentIntent could not be captured because it has a status of ${intent.status}. `
          + 'Only a PaymentIntent with one of the following statuses may be captured: requires_capture.',
      );
    const amount = body.amount_to_capture === undefined ? intent.amount_capturable : int(body.amount_to_capture);
    if (amount === undefined || amount < 1) throw invalid('Invalid positive integer', 'amount_to_capture');
    if (amount > intent.amount_capturable)
      throw invalid(
        `The amount to capture (${amount}) must be less than or equal to the amount capturable `
          + `(${intent.amount_capturable}).`,
        'amount_to_capture',
        'amount_too_large',
      );
    if (THREE_DECIMAL.has(intent.currency) && amount % 10 !== 0)
      throw invalid(
        'Invalid amount: the last digit must be 0 for this currency.',
        'amount_to_capture',
        'amount_invalid',
      );
    Object.assign(charge, {
      captured: true,
      amount_captured: amount,
      amount_refunded: charge.amount - amount,
    });
    Object.assign(intent, { status: 'succeeded', amount_received: amount, amount_capturable: 0 });
    return structuredClone(intent) as unknown as Json;
  }

  /** Cancels a PaymentIntent that took nothing; a held amount is released (shown refunded on the charge). */
  function cancelPaymentIntent(paymentIntentId: string, body: FormObject): Json {
    const { intent, charge } = intentOr404(paymentIntentId);
    if (intent.status === 'succeeded' || intent.status === 'canceled')
      throw unexpectedState(
        `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. `
          + 'Only a PaymentIntent with one of the following statuses may be canceled: requires_payment_method, '
          + 'requires_capture, requires_confirmation, requires_action, processing.',
      );
    if (intent.status === 'requires_capture') Object.assign(charge, { amount_refunded: charge.amount, refunded: true });
    Object.assign(intent, {
      status: 'canceled',
      amount_capturable: 0,
      canceled_at: now(),
      cancellation_reason: str(body.cancellation_reason) ?? null,
    });
    return structuredClone(intent) as unknown as Json;
  }

  function expireOpenSession(sessionId: string): Json {
    const session = sessionOr404(sessionId);
    if (session.status !== 'open')
      throw new StripeRefusal({
        status: 400,
        type: 'invalid_request_error',
        message:
          'Only Checkout Sessions with a status in ["open"] can be expired. '
          + `This Checkout Session has a status of \`${String(session.status)}\`.`,
      });
    session.status = 'expired';
    session.url = null;
    return session;
  }

  function chargeById(chargeId: string): Json {
    const charge = [...charges.values()].find((c) => c.id === chargeId);
    if (!charge)
      throw new StripeRefusal({
        status: 404,
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: 'id',
        message: `No such charge: '${chargeId}'`,
      });
    return structuredClone(charge) as unknown as Json;
  }

  function createRefund(body: FormObject): Json {
    const paymentIntent = str(body.payment_intent);
    if (!paymentIntent)
      throw invalid('One of charge or payment_intent is required.', 'payment_intent', 'parameter_missing');
    const charge = charges.get(paymentIntent);
    if (!charge)
      throw new StripeRefusal({
        status: 400,
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: 'payment_intent',
        message: `No such payment_intent: '${paymentIntent}'`,
      });
    if (charge.status !== 'succeeded' || !charge.captured)
      throw invalid(
        `This PaymentIntent (${paymentIntent}) does not have a successful charge to refund.`,
        'payment_intent',
        'charge_not_refundable',
      );
    const remaining = charge.amount - charge.amount_refunded;
    const amount = body.amount === undefined ? remaining : int(body.amount);
    if (amount === undefined || amount < 1) throw invalid('Invalid positive integer', 'amount');
    if (remaining === 0)
      throw invalid(`Charge ${charge.id} has already been refunded.`, undefined, 'charge_already_refunded');
    if (amount > remaining)
      throw invalid(
        `Refund amount (${amount}) is greater than unrefunded amount on charge (${remaining})`,
        'amount',
        'amount_too_large',
      );
    if (THREE_DECIMAL.has(charge.currency) && amount % 10 !== 0)
      throw invalid('Invalid amount: the last digit must be 0 for this currency.', 'amount', 'amount_invalid');
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    const refund: Json = {
      id: id('re'),
      object: 'refund',
      amount,
      charge: charge.id,
      created: now(),
      currency: charge.currency,
      metadata: stringMap(body.metadata),
      payment_intent: paymentIntent,
      reason: str(body.reason) ?? null,
      status: 'succeeded',
    };
    refunds.push(refund);
    return refund;
  }

  /** Stripe's routes this stand-in knows: method, path pattern (its one id captured), and what answers it. */
  const routes: [string, RegExp, (id: string, body: FormObject) => Json][] = [
    ['POST', /^\/v1\/checkout\/sessions()$/, (_id, body) => createSession(body)],
    ['GET', /^\/v1\/checkout\/sessions\/([A-Za-z0-9_]+)$/, (id) => sessionOr404(id)],
    ['POST', /^\/v1\/refunds()$/, (_id, body) => createRefund(body)],
    ['POST', /^\/v1\/checkout\/sessions\/([A-Za-z0-9_]+)\/expire$/, (id) => expireOpenSession(id)],
    [
      'GET',
      /^\/v1\/payment_intents\/([A-Za-z0-9_]+)$/,
      (id) => structuredClone(intentOr404(id).intent) as unknown as Json,
    ],
    ['POST', /^\/v1\/payment_intents\/([A-Za-z0-9_]+)\/capture$/, (id, body) => capturePaymentIntent(id, body)],
    ['POST', /^\/v1\/payment_intents\/([A-Za-z0-9_]+)\/cancel$/, (id, body) => cancelPaymentIntent(id, body)],
    ['GET', /^\/v1\/charges\/([A-Za-z0-9_]+)$/, (id) => chargeById(id)],
  ];

  function route(method: string, path: string, body: FormObject): Json {
    for (const [routeMethod, pattern, handle] of routes) {
      const match = method === routeMethod ? pattern.exec(path) : null;
      if (match) return handle(match[1] ?? '', body);
    }
    throw new StripeRefusal({
      status: 404,
      type: 'invalid_request_error',
      message:
        `Unrecognized request URL (${method}: ${path}). `
        + 'Please see https://stripe.com/docs or we can help at https://support.stripe.com/.',
    });
  }

  function answer(
    res: http.ServerResponse,
    { status, body, headers = {} }: { status: number; body: Json; headers?: Record<string, string> },
  ): void {
    res.writeHead(status, {
      'content-type': 'application/json',
      'request-id': id('req'),
      'stripe-version': '2026-10-28.endive',
      ...headers,
    });
    res.end(JSON.stringify(body, null, 2));
  }

  const errorBody = (e: StripeError): Json => ({
    error: {
      type: e.type,
      message: e.message,
      ...(e.code ? { code: e.code } : {}),
      ...(e.param ? { param: e.param } : {}),
    },
  });

  /**
   * What Stripe answers before looking at the route: 401 for a wrong key, 400 for an idempotency key reused with
   * other parameters, the first answer again for a key reused with the same ones.
   */
  function refusedBeforeRouting(request: {
    authorization: string | undefined;
    key: string | undefined;
    routeKey: string;
    rawBody: string;
  }): { status: number; body: Json; headers?: Record<string, string>; replayed?: boolean } | undefined {
    const { key } = request;
    if (request.authorization !== `Bearer ${secretKey}`) {
      const given = /^Bearer (.*)$/.exec(request.authorization ?? '')?.[1] ?? '';
      const message = `Invalid API Key provided: ${given.slice(0, 8)}********${given.slice(-4)}`;
      return { status: 401, body: errorBody({ status: 401, type: 'invalid_request_error', message }) };
    }
    const earlier = key === undefined ? undefined : idempotent.get(key);
    if (key === undefined || !earlier) return undefined;
    if (earlier.route !== request.routeKey || earlier.rawBody !== request.rawBody) {
      const message =
        'Keys for idempotent requests can only be used with the same parameters they were first used with. '
        + `Try using a key other than '${key}' if you meant to execute a different request.`;
      return { status: 400, body: errorBody({ status: 400, type: 'idempotency_error', message }) };
    }
    const headers = { 'idempotent-replayed': 'true', 'idempotency-key': key };
    return { status: earlier.status, body: earlier.body, headers, replayed: true };
  }

  /** The route's answer, or the error it (or a refusal a test queued for it) makes, as Stripe writes errors. */
  function routeOrRefuse(request: { method: string; path: string; body: FormObject; routeKey: string }): {
    status: number;
    out: Json;
  } {
    const refusal = refusals.get(request.routeKey);
    try {
      if (refusal) {
        refusals.delete(request.routeKey);
        throw new StripeRefusal(refusal);
      }
      return { status: 200, out: route(request.method, request.path, request.body) };
    } catch (err) {
      const error: StripeError =
        err instanceof StripeRefusal
          ? err.error
          : { status: 500, type: 'api_error', message: `stand-in failure: ${String(err)}` };
      return { status: error.status, out: errorBody(error) };
    }
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const method = req.method ?? 'GET';
      const path = new URL(req.url ?? '/', 'http://standin').pathname;
      const routeKey = `${method} ${path}`;
      const key = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : undefined;
      const body = parseStripeForm(rawBody);
      const record = (status: number, replayed = false) =>
        requests.push({ method, path, headers: req.headers, idempotencyKey: key, rawBody, body, replayed, status });

      const refused = refusedBeforeRouting({ authorization: req.headers.authorization, key, routeKey, rawBody });
      if (refused) {
        record(refused.status, refused.replayed);
        answer(res, refused);
        return;
      }
      const { status, out } = routeOrRefuse({ method, path, body, routeKey });
      // Like Stripe, a request's answer is kept for its key, errors included (except server errors).
      if (key !== undefined && status < 500) idempotent.set(key, { route: routeKey, rawBody, status, body: out });
      record(status);
      // Tell the SDK not to retry injected failures, so error tests stay fast.
      answer(res, { status, body: out, headers: status >= 400 ? { 'stripe-should-retry': 'false' } : {} });
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  /**
   * The PaymentIntent and charge of a completed session: paid (card), pending (delayed method) or, with manual
   * capture, authorized (the charge succeeded uncaptured, the PaymentIntent requires_capture).
   */
  function chargeFor(sessionId: string, session: Json, paid: boolean): string {
    const paymentIntent = id('pi');
    const amount = Number(session.amount_total);
    const { metadata = {}, captureMethod = 'automatic_async' } = paymentIntentData.get(sessionId) ?? {};
    const authorized = captureMethod === 'manual';
    const created = now();
    const chargeId = id('ch');
    charges.set(paymentIntent, {
      id: chargeId,
      object: 'charge',
      amount,
      amount_captured: paid && !authorized ? amount : 0,
      amount_refunded: 0,
      captured: paid && !authorized,
      created,
      currency: String(session.currency),
      livemode: false,
      metadata,
      paid: paid || authorized,
      payment_intent: paymentIntent,
      payment_method_details: {
        type: 'card',
        card: authorized ? { capture_before: created + STANDIN_AUTHORIZATION_SECONDS } : {},
      },
      refunded: false,
      status: paid || authorized ? 'succeeded' : 'pending',
    });
    intents.set(paymentIntent, {
      id: paymentIntent,
      object: 'payment_intent',
      amount,
      amount_capturable: authorized ? amount : 0,
      amount_received: paid && !authorized ? amount : 0,
      canceled_at: null,
      cancellation_reason: null,
      capture_method: captureMethod,
      created,
      currency: String(session.currency),
      latest_charge: chargeId,
      livemode: false,
      metadata,
      status: authorized ? 'requires_capture' : paid ? 'succeeded' : 'processing',
    });
    return paymentIntent;
  }

  return {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    webhookSecret,
    env: (overrides = {}) => ({
      STRIPE_SECRET_KEY: secretKey,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_API_HOST: '127.0.0.1',
      STRIPE_API_PORT: String(port),
      STRIPE_API_PROTOCOL: 'http',
      ...overrides,
    }),
    requests,
    requestsTo: (routeKey) => requests.filter((r) => `${r.method} ${r.path}` === routeKey),
    session: (sessionId) => structuredClone(sessionOr404(sessionId)),
    completeSession(sessionId, { paid = true } = {}) {
      const session = sessionOr404(sessionId);
      session.status = 'complete';
      session.payment_intent = chargeFor(sessionId, session, paid);
      // An authorization is not a payment: Stripe completes a manual-capture session unpaid.
      session.payment_status = paid && paymentIntentData.get(sessionId)?.captureMethod !== 'manual' ? 'paid' : 'unpaid';
      return structuredClone(session);
    },
    settleSession(sessionId, outcome) {
      const session = sessionOr404(sessionId);
      const charge = charges.get(String(session.payment_intent));
      if (!charge) throw new Error(`session ${sessionId} was not completed`);
      charge.status = outcome === 'paid' ? 'succeeded' : 'failed';
      charge.paid = outcome === 'paid';
      charge.captured = outcome === 'paid';
      charge.amount_captured = outcome === 'paid' ? charge.amount : 0;
      const intent = intents.get(String(session.payment_intent));
      if (intent) {
        intent.status = outcome === 'paid' ? 'succeeded' : 'requires_payment_method';
        intent.amount_received = charge.amount_captured;
      }
      session.payment_status = outcome === 'paid' ? 'paid' : 'unpaid';
      return structuredClone(session);
    },
    expireSession(sessionId) {
      const session = sessionOr404(sessionId);
      session.status = 'expired';
      session.url = null;
      return structuredClone(session);
    },
    chargeOf(paymentIntentId) {
      const charge = charges.get(paymentIntentId);
      if (!charge) throw new Error(`no charge for ${paymentIntentId}`);
      return structuredClone(charge) as unknown as Json;
    },
    paymentIntentOf(paymentIntentId) {
      return structuredClone(intentOr404(paymentIntentId).intent) as unknown as Json;
    },
    refunds,
    refuseNext: (routeKey, error) => {
      refusals.set(routeKey, error);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/** A webhook event as Stripe sends it: the object as it is now, wrapped in an Event envelope. */
export function stripeEvent(
  type: string,
  object: Json,
  options: { id?: string; created?: number } = {},
): { id: string; payload: string } {
  const eventId = options.id ?? id('evt');
  const event = {
    id: eventId,
    object: 'event',
    api_version: '2026-10-28.endive',
    created: options.created ?? now(),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
  // Stripe pretty-prints its payloads; the signature covers exactly these bytes.
  return { id: eventId, payload: JSON.stringify(event, null, 2) };
}

/** The Stripe-Signature header for a payload, computed by the SDK's own test helper. */
export function stripeSignature(payload: string, options: { secret?: string; timestamp?: number } = {}): string {
  return Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? STANDIN_WEBHOOK_SECRET,
    ...(options.timestamp !== undefined ? { timestamp: options.timestamp } : {}),
  });
}
