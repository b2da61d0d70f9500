import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startStripeStandIn,
  STANDIN_AUTHORIZATION_SECONDS,
  type StripeStandIn,
  stripeEvent,
  stripeSignature,
} from '../../../../test/stripe-standin.js';
import { GatewayError, type Money, type PaymentGateway, PluginConfigError } from '../../payment-plugin.js';
import stripePlugin from './index.js';
import { readStripeSettings } from './stripe-config.js';
import { normaliseStripeEvent } from './stripe-events.js';

const money = (amountMinor: number, currency: string, exponent: number): Money => ({ amountMinor, currency, exponent });
const keys = { STRIPE_SECRET_KEY: 'sk_test_abc123', STRIPE_WEBHOOK_SECRET: 'whsec_abc123' };
const implicit = { explicit: false, embeddedDatabase: true };

describe('Stripe settings', () => {
  it('is not configured without keys unless named in PAYMENT_PLUGINS', () => {
    expect(readStripeSettings({}, implicit)).toBeUndefined();
    expect(() => readStripeSettings({}, { ...implicit, explicit: true })).toThrow(/STRIPE_SECRET_KEY is required/);
  });

  it('reads keys, a default tolerance of 300 s, and an optional API address', () => {
    expect(readStripeSettings(keys, implicit)).toEqual({
      secretKey: 'sk_test_abc123',
      webhookSecret: 'whsec_abc123',
      toleranceSeconds: 300,
      api: {},
    });
    expect(
      readStripeSettings(
        {
          ...keys,
          STRIPE_API_HOST: '127.0.0.1',
          STRIPE_API_PORT: '12111',
          STRIPE_API_PROTOCOL: 'http',
          STRIPE_WEBHOOK_TOLERANCE_SECONDS: '60',
        },
        implicit,
      ),
    ).toMatchObject({ toleranceSeconds: 60, api: { host: '127.0.0.1', port: 12111, protocol: 'http' } });
    expect(readStripeSettings({ ...keys, STRIPE_SECRET_KEY: 'rk_live_restricted' }, implicit)?.secretKey).toBe(
      'rk_live_restricted',
    );
  });

  it('names the variable that is wrong', () => {
    const bad = (env: Record<string, string>) => () => readStripeSettings({ ...keys, ...env }, implicit);
    expect(bad({ STRIPE_SECRET_KEY: 'pk_live_x' })).toThrow(PluginConfigError);
    expect(bad({ STRIPE_SECRET_KEY: 'pk_live_x' })).toThrow(/^STRIPE_SECRET_KEY/);
    expect(bad({ STRIPE_WEBHOOK_SECRET: 'secret' })).toThrow(/^STRIPE_WEBHOOK_SECRET/);
    expect(bad({ STRIPE_API_HOST: 'https://api.example.com/' })).toThrow(/^STRIPE_API_HOST/);
    expect(bad({ STRIPE_API_PORT: 'eighty' })).toThrow(/^STRIPE_API_PORT/);
    expect(bad({ STRIPE_WEBHOOK_TOLERANCE_SECONDS: '-5' })).toThrow(/^STRIPE_WEBHOOK_TOLERANCE_SECONDS/);
    expect(bad({ STRIPE_SECRET_KEY: 'sk_live_abc', STRIPE_API_PROTOCOL: 'http' })).toThrow(
      /^STRIPE_API_PROTOCOL=http would send a live/,
    );
  });
});

describe('Stripe events', () => {
  // Events as Stripe sends them, reduced to the fields the plugin reads.
  const event = (type: string, object: Record<string, unknown>) =>
    ({ id: 'evt_1', object: 'event', type, data: { object } }) as unknown as Stripe.Event;
  const session = {
    id: 'cs_1',
    object: 'checkout.session',
    client_reference_id: 'pay_1',
    metadata: { payment_reference: 'pay_1' },
    amount_total: 2468,
    currency: 'usd',
    payment_intent: 'pi_1',
  };

  it("maps Checkout Session events to normalised ones matched by the service's reference", () => {
    expect(normaliseStripeEvent(event('checkout.session.completed', { ...session, payment_status: 'paid' }))).toEqual({
      eventId: 'evt_1',
      kind: 'succeeded',
      match: { reference: 'pay_1' },
      gatewayPaymentRef: 'pi_1',
      amount: money(2468, 'USD', 2),
    });
    expect(
      normaliseStripeEvent(event('checkout.session.completed', { ...session, payment_status: 'unpaid' })),
    ).toMatchObject({ kind: 'pending', match: { reference: 'pay_1' } });
    expect(
      normaliseStripeEvent(event('checkout.session.async_payment_succeeded', { ...session, payment_status: 'paid' })),
    ).toMatchObject({ kind: 'succeeded', amount: money(2468, 'USD', 2) });
    expect(normaliseStripeEvent(event('checkout.session.async_payment_failed', session))).toMatchObject({
      kind: 'failed',
      match: { reference: 'pay_1' },
    });
    expect(normaliseStripeEvent(event('checkout.session.expired', { ...session, payment_intent: null }))).toEqual({
      eventId: 'evt_1',
      kind: 'expired',
      match: { reference: 'pay_1' },
    });
  });

  it('falls back to the metadata copy of the reference, then to the session id', () => {
    expect(
      normaliseStripeEvent(event('checkout.session.expired', { ...session, client_reference_id: null })).match,
    ).toEqual({ reference: 'pay_1' });
    expect(
      normaliseStripeEvent(event('checkout.session.expired', { ...session, client_reference_id: null, metadata: {} }))
        .match,
    ).toEqual({ gatewayRef: 'cs_1' });
  });

  it('reports charge.refunded as the running total refunded, matched by PaymentIntent', () => {
    const charge = {
      id: 'ch_1',
      object: 'charge',
      amount: 2000,
      amount_refunded: 1500,
      currency: 'usd',
      payment_intent: 'pi_1',
      metadata: { payment_reference: 'pay_1' },
    };
    expect(normaliseStripeEvent(event('charge.refunded', charge))).toEqual({
      eventId: 'evt_1',
      kind: 'refunded',
      match: { gatewayPaymentRef: 'pi_1' },
      amount: money(1500, 'USD', 2),
    });
    expect(normaliseStripeEvent(event('charge.refunded', { ...charge, payment_intent: null })).match).toEqual({
      reference: 'pay_1',
    });
  });

  it('ignores other types, and a success whose amount it cannot read exactly', () => {
    expect(normaliseStripeEvent(event('payment_intent.created', { id: 'pi_1' }))).toEqual({
      eventId: 'evt_1',
      kind: 'ignored',
      match: {},
    });
    expect(
      normaliseStripeEvent(event('checkout.session.completed', { ...session, payment_status: 'paid', currency: 'zzz' }))
        .kind,
    ).toBe('ignored');
  });
});

describe('Stripe events for manual capture', () => {
  const event = (type: string, object: Record<string, unknown>) =>
    ({ id: 'evt_2', object: 'event', type, data: { object } }) as unknown as Stripe.Event;
  // A manual-capture PaymentIntent as Stripe shows it once the payer has authorized, reduced to what the plugin reads.
  const intent = {
    id: 'pi_2',
    object: 'payment_intent',
    amount: 4500,
    amount_capturable: 4500,
    amount_received: 0,
    capture_method: 'manual',
    currency: 'jpy',
    latest_charge: 'ch_2',
    metadata: { payment_reference: 'pay_2', order_alias: 'o-2' },
    status: 'requires_capture',
  };
  const match = { reference: 'pay_2', gatewayPaymentRef: 'pi_2' };

  it('still teaches the payment its PaymentIntent from an unpaid checkout.session.completed', () => {
    const session = {
      id: 'cs_2',
      object: 'checkout.session',
      client_reference_id: 'pay_2',
      amount_total: 4500,
      currency: 'jpy',
      payment_intent: 'pi_2',
      payment_status: 'unpaid',
    };
    expect(normaliseStripeEvent(event('checkout.session.completed', session))).toEqual({
      eventId: 'evt_2',
      kind: 'pending',
      match: { reference: 'pay_2' },
      gatewayPaymentRef: 'pi_2',
    });
  });

  it('reports amount_capturable_updated as authorized for the amount held, in whole yen', () => {
    expect(normaliseStripeEvent(event('payment_intent.amount_capturable_updated', intent))).toEqual({
      eventId: 'evt_2',
      kind: 'authorized',
      match,
      gatewayPaymentRef: 'pi_2',
      amount: money(4500, 'JPY', 0),
    });
  });

  it("takes the authorization's expiry from the latest charge's card.capture_before when the event carries it", () => {
    const charge = {
      id: 'ch_2',
      object: 'charge',
      payment_method_details: { card: { capture_before: 1_800_000_000 } },
    };
    expect(
      normaliseStripeEvent(event('payment_intent.amount_capturable_updated', { ...intent, latest_charge: charge })),
    ).toMatchObject({ kind: 'authorized', authorizationExpiresAt: new Date(1_800_000_000_000) });
  });

  it('matches a PaymentIntent without the metadata reference by its id alone', () => {
    expect(
      normaliseStripeEvent(event('payment_intent.amount_capturable_updated', { ...intent, metadata: {} })).match,
    ).toEqual({ gatewayPaymentRef: 'pi_2' });
  });

  it('ignores amount_capturable_updated with nothing left to capture', () => {
    expect(
      normaliseStripeEvent(event('payment_intent.amount_capturable_updated', { ...intent, amount_capturable: 0 })).kind,
    ).toBe('ignored');
  });

  it('reports a manual PaymentIntent that succeeded as captured for the total received, in fils (KWD)', () => {
    const kwd = { ...intent, currency: 'kwd', amount: 12340, amount_capturable: 0, amount_received: 10000 };
    expect(normaliseStripeEvent(event('payment_intent.succeeded', { ...kwd, status: 'succeeded' }))).toEqual({
      eventId: 'evt_2',
      kind: 'captured',
      match,
      gatewayPaymentRef: 'pi_2',
      amount: money(10000, 'KWD', 3),
    });
  });

  it('leaves an automatically captured PaymentIntent to the Checkout Session events', () => {
    const paid = { ...intent, capture_method: 'automatic_async', amount_capturable: 0, amount_received: 4500 };
    expect(normaliseStripeEvent(event('payment_intent.succeeded', paid)).kind).toBe('ignored');
    expect(normaliseStripeEvent(event('payment_intent.succeeded', { ...paid, capture_method: 'automatic' })).kind).toBe(
      'ignored',
    );
  });

  it('reports charge.captured as the running total captured on the charge', () => {
    const charge = {
      id: 'ch_2',
      object: 'charge',
      amount: 12340,
      amount_captured: 10000,
      amount_refunded: 2340,
      captured: true,
      currency: 'kwd',
      payment_intent: 'pi_2',
      metadata: { payment_reference: 'pay_2' },
    };
    expect(normaliseStripeEvent(event('charge.captured', charge))).toEqual({
      eventId: 'evt_2',
      kind: 'captured',
      match: { gatewayPaymentRef: 'pi_2' },
      gatewayPaymentRef: 'pi_2',
      amount: money(10000, 'KWD', 3),
    });
    expect(
      normaliseStripeEvent(event('charge.captured', { ...charge, currency: 'jpy', amount_captured: 3000 })),
    ).toMatchObject({ kind: 'captured', amount: money(3000, 'JPY', 0) });
  });

  it("does not count a partial capture's released rest as refunded", () => {
    // 123.400 KWD held, 100.000 captured: Stripe shows the 23.400 released as refunded on the charge.
    const charge = {
      id: 'ch_2',
      object: 'charge',
      amount: 123400,
      amount_captured: 100000,
      amount_refunded: 23400,
      captured: true,
      currency: 'kwd',
      payment_intent: 'pi_2',
      metadata: {},
    };
    expect(normaliseStripeEvent(event('charge.refunded', charge)).kind).toBe('ignored');
    expect(normaliseStripeEvent(event('charge.refunded', { ...charge, amount_refunded: 33400 }))).toMatchObject({
      kind: 'refunded',
      amount: money(10000, 'KWD', 3),
    });
    // A released authorization is not a refund (payment_intent.canceled reports it).
    expect(
      normaliseStripeEvent(
        event('charge.refunded', { ...charge, captured: false, amount_captured: 0, amount_refunded: 123400 }),
      ).kind,
    ).toBe('ignored');
  });

  it('reports a canceled PaymentIntent as voided only when it had been authorized and took nothing', () => {
    const canceled = {
      ...intent,
      status: 'canceled',
      amount_capturable: 0,
      cancellation_reason: 'requested_by_customer',
    };
    expect(normaliseStripeEvent(event('payment_intent.canceled', canceled))).toEqual({
      eventId: 'evt_2',
      kind: 'voided',
      match,
      gatewayPaymentRef: 'pi_2',
    });
    for (const other of [
      { ...canceled, latest_charge: null },
      { ...canceled, capture_method: 'automatic' },
      { ...canceled, amount_received: 1000 },
      { ...canceled, latest_charge: { id: 'ch_2', object: 'charge', status: 'failed', captured: false } },
    ])
      expect(normaliseStripeEvent(event('payment_intent.canceled', other)).kind).toBe('ignored');
  });
});

describe('Stripe gateway', () => {
  it('turns an unreachable Stripe into a retryable GatewayError without the key', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const settings = readStripeSettings(
      { ...keys, STRIPE_API_HOST: '127.0.0.1', STRIPE_API_PORT: String(port), STRIPE_API_PROTOCOL: 'http' },
      implicit,
    );
    if (!settings) throw new Error('expected settings');
    const gateway = stripePlugin.create(settings, {
      publicBaseUrl: 'http://127.0.0.1',
      secret: () => 'x',
      deliverWebhook: async () => ({ status: 200 }),
    });
    const err = await gateway
      .start({
        reference: 'pay_1',
        order: { alias: 'a', email: null, totalItems: 1 },
        amount: money(100, 'USD', 2),
        returnUrl: 'http://127.0.0.1/r',
        cancelUrl: 'http://127.0.0.1/c',
        captureMethod: 'automatic',
        idempotencyKey: 'start-pay_1',
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ retryable: true, message: expect.stringMatching(/could not reach Stripe/) });
    expect((err as Error).message).not.toContain('sk_test_abc123');
  });

  it('refuses a refund before the PaymentIntent is known', async () => {
    const settings = readStripeSettings(keys, implicit);
    if (!settings) throw new Error('expected settings');
    const gateway = stripePlugin.create(settings, {
      publicBaseUrl: 'http://127.0.0.1',
      secret: () => 'x',
      deliverWebhook: async () => ({ status: 200 }),
    });
    await expect(
      gateway.refund?.({
        reference: 'pay_1',
        gatewayRef: 'cs_1',
        gatewayPaymentRef: null,
        amount: money(100, 'USD', 2),
        idempotencyKey: 'k',
      }),
    ).rejects.toThrow('the payment has no Stripe PaymentIntent yet');
  });
});

describe('Stripe gateway with manual capture, against the local stand-in', () => {
  let standin: StripeStandIn;
  let gateway: PaymentGateway;
  let seq = 0;

  beforeAll(async () => {
    standin = await startStripeStandIn();
    const settings = readStripeSettings(standin.env(), implicit);
    if (!settings) throw new Error('expected settings');
    gateway = stripePlugin.create(settings, {
      publicBaseUrl: 'http://127.0.0.1',
      secret: () => 'x',
      deliverWebhook: async () => ({ status: 200 }),
    });
  });
  afterAll(() => standin.close());

  /** Starts an attempt for `amount`, has the payer complete Stripe's page, and answers the ids. */
  async function authorized(amount: Money, captureMethod: 'manual' | 'automatic' = 'manual') {
    seq += 1;
    const reference = `pay_m${seq}`;
    const started = await gateway.start({
      reference,
      order: { alias: `o-m${seq}`, email: null, totalItems: 1 },
      amount,
      returnUrl: 'http://127.0.0.1/r',
      cancelUrl: 'http://127.0.0.1/c',
      captureMethod,
      idempotencyKey: `start-${reference}`,
    });
    const session = standin.completeSession(started.gatewayRef);
    const paymentIntent = String(session.payment_intent);
    return { reference, sessionId: started.gatewayRef, session, paymentIntent };
  }

  /** A Stripe event about the object as it is now, signed and parsed by the gateway. */
  async function parsed(type: string, object: Record<string, unknown>) {
    const { payload } = stripeEvent(type, object);
    const [event] = await gateway.parseWebhook({
      headers: { 'stripe-signature': stripeSignature(payload) },
      rawBody: Buffer.from(payload),
    });
    return event;
  }

  const operation = (a: { reference: string; sessionId: string; paymentIntent: string }, idempotencyKey: string) => ({
    reference: a.reference,
    gatewayRef: a.sessionId,
    gatewayPaymentRef: a.paymentIntent,
    idempotencyKey,
  });

  const failure = (promise: Promise<unknown> | undefined) =>
    (promise ?? Promise.resolve()).then(
      () => undefined,
      (e: unknown) => e,
    );

  it('declares every capability', () => {
    expect(stripePlugin.capabilities).toEqual([
      'authorize',
      'capture',
      'partial_capture',
      'void',
      'refund',
      'partial_refund',
    ]);
  });

  it('opens a manual-capture session, which completes unpaid with its PaymentIntent holding the amount', async () => {
    const a = await authorized(money(2468, 'USD', 2));
    const [sent] = standin
      .requestsTo('POST /v1/checkout/sessions')
      .filter((r) => r.body.client_reference_id === a.reference);
    expect(sent?.body.payment_intent_data).toEqual({
      metadata: { payment_reference: a.reference, order_alias: expect.any(String) },
      capture_method: 'manual',
    });
    expect(a.session.payment_status).toBe('unpaid');
    expect(await parsed('checkout.session.completed', a.session)).toMatchObject({
      kind: 'pending',
      match: { reference: a.reference },
      gatewayPaymentRef: a.paymentIntent,
    });
    expect(standin.paymentIntentOf(a.paymentIntent)).toMatchObject({
      status: 'requires_capture',
      amount_capturable: 2468,
    });
  });

  it('sends no capture method for automatic capture', async () => {
    const a = await authorized(money(100, 'USD', 2), 'automatic');
    const [sent] = standin
      .requestsTo('POST /v1/checkout/sessions')
      .filter((r) => r.body.client_reference_id === a.reference);
    expect(sent?.body.payment_intent_data).toEqual({ metadata: expect.any(Object) });
    expect(a.session.payment_status).toBe('paid');
  });

  it("reports the authorization with its charge's capture_before (asked of Stripe: a webhook has the id)", async () => {
    const a = await authorized(money(4500, 'JPY', 0));
    const intent = standin.paymentIntentOf(a.paymentIntent);
    expect(typeof intent.latest_charge).toBe('string');
    const captureBefore = Number(
      (standin.chargeOf(a.paymentIntent).payment_method_details as { card: { capture_before: number } }).card
        .capture_before,
    );
    expect(captureBefore - Math.floor(Date.now() / 1000)).toBeGreaterThan(STANDIN_AUTHORIZATION_SECONDS - 10);
    expect(await parsed('payment_intent.amount_capturable_updated', intent)).toEqual({
      eventId: expect.stringMatching(/^evt_/),
      kind: 'authorized',
      match: { reference: a.reference, gatewayPaymentRef: a.paymentIntent },
      gatewayPaymentRef: a.paymentIntent,
      amount: money(4500, 'JPY', 0),
      authorizationExpiresAt: new Date(captureBefore * 1000),
    });
  });

  it('reports the authorization without expiry when Stripe does not answer about the charge', async () => {
    const a = await authorized(money(300, 'USD', 2));
    standin.refuseNext(`GET /v1/charges/${standin.chargeOf(a.paymentIntent).id}`, {
      status: 500,
      type: 'api_error',
      message: 'down',
    });
    const event = await parsed('payment_intent.amount_capturable_updated', standin.paymentIntentOf(a.paymentIntent));
    expect(event).toMatchObject({ kind: 'authorized', amount: money(300, 'USD', 2) });
    expect(event?.authorizationExpiresAt).toBeUndefined();
  });

  it('captures part of a KWD authorization once, replays the key, no second capture, releases the rest', async () => {
    const a = await authorized(money(12340, 'KWD', 3));
    const capture = { ...operation(a, `capture-${a.reference}-1`), amount: money(10000, 'KWD', 3), final: true };
    const first = await gateway.capture?.(capture);
    const charge = standin.chargeOf(a.paymentIntent);
    expect(first).toEqual({ gatewayRef: charge.id });
    const again = await gateway.capture?.(capture);
    expect(again).toEqual(first);
    const sent = standin.requestsTo(`POST /v1/payment_intents/${a.paymentIntent}/capture`);
    expect(sent.map((r) => [r.body.amount_to_capture, r.idempotencyKey, r.replayed, r.status])).toEqual([
      ['10000', capture.idempotencyKey, false, 200],
      ['10000', capture.idempotencyKey, true, 200],
    ]);
    const intent = standin.paymentIntentOf(a.paymentIntent);
    expect(intent).toMatchObject({ status: 'succeeded', amount_received: 10000, amount_capturable: 0 });

    // What Stripe then says: captured (totals), and a charge whose released rest is not a refund.
    expect(await parsed('payment_intent.succeeded', intent)).toMatchObject({
      kind: 'captured',
      amount: money(10000, 'KWD', 3),
    });
    const captured = standin.chargeOf(a.paymentIntent);
    expect(captured).toMatchObject({ amount_captured: 10000, amount_refunded: 2340 });
    expect(await parsed('charge.captured', captured)).toMatchObject({
      kind: 'captured',
      match: { gatewayPaymentRef: a.paymentIntent },
      amount: money(10000, 'KWD', 3),
    });
    expect((await parsed('charge.refunded', captured))?.kind).toBe('ignored');

    // A refund afterwards reports only the captured money given back.
    await gateway.refund?.({ ...operation(a, `refund-${a.reference}-3000`), amount: money(3000, 'KWD', 3) });
    expect(await parsed('charge.refunded', standin.chargeOf(a.paymentIntent))).toMatchObject({
      kind: 'refunded',
      amount: money(3000, 'KWD', 3),
    });

    // Captured already: Stripe refuses a second capture with another key.
    const err = await failure(gateway.capture?.({ ...capture, idempotencyKey: `capture-${a.reference}-2` }));
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ retryable: false, message: expect.stringMatching(/payment_intent_unexpected_state/) });
  });

  it('captures whole yen, and refuses more than was authorized with a Stripe error that is not retryable', async () => {
    const a = await authorized(money(4500, 'JPY', 0));
    const err = await failure(
      gateway.capture?.({ ...operation(a, 'capture-too-much'), amount: money(4501, 'JPY', 0), final: true }),
    );
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ retryable: false, message: expect.stringMatching(/400 \(amount_too_large\)/) });
    await gateway.capture?.({ ...operation(a, 'capture-all'), amount: money(4500, 'JPY', 0), final: true });
    expect(standin.paymentIntentOf(a.paymentIntent)).toMatchObject({ status: 'succeeded', amount_received: 4500 });
  });

  it('refuses, not asking Stripe, a capture it cannot express: no PaymentIntent, not final, 0.005 KWD', async () => {
    const before = standin.requests.length;
    const base = {
      reference: 'pay_x',
      gatewayRef: 'cs_x',
      gatewayPaymentRef: 'pi_x',
      idempotencyKey: 'k',
      final: true,
    };
    for (const input of [
      { ...base, gatewayPaymentRef: null, amount: money(100, 'USD', 2) },
      { ...base, final: false, amount: money(100, 'USD', 2) },
      { ...base, amount: money(12345, 'KWD', 3) },
    ])
      expect(await failure(gateway.capture?.(input))).toBeInstanceOf(GatewayError);
    expect(standin.requests.length).toBe(before);
  });

  it('voids an authorization: the PaymentIntent is canceled, reported voided, and can be voided no more', async () => {
    const a = await authorized(money(5000, 'USD', 2));
    await gateway.void?.(operation(a, `void-${a.reference}`));
    const [sent] = standin.requestsTo(`POST /v1/payment_intents/${a.paymentIntent}/cancel`);
    expect(sent?.idempotencyKey).toBe(`void-${a.reference}`);
    const intent = standin.paymentIntentOf(a.paymentIntent);
    expect(intent).toMatchObject({ status: 'canceled', amount_capturable: 0 });
    expect(await parsed('payment_intent.canceled', intent)).toEqual({
      eventId: expect.stringMatching(/^evt_/),
      kind: 'voided',
      match: { reference: a.reference, gatewayPaymentRef: a.paymentIntent },
      gatewayPaymentRef: a.paymentIntent,
    });
    // Stripe shows the released hold as refunded on the uncaptured charge: not a refund.
    expect((await parsed('charge.refunded', standin.chargeOf(a.paymentIntent)))?.kind).toBe('ignored');
    const err = await failure(gateway.void?.(operation(a, `void-${a.reference}-again`)));
    expect(err).toMatchObject({
      name: 'GatewayError',
      message: expect.stringMatching(/payment_intent_unexpected_state/),
    });
  });

  it('expires an abandoned Checkout Session, and leaves one already expired or completed as it is', async () => {
    seq += 1;
    const started = await gateway.start({
      reference: `pay_c${seq}`,
      order: { alias: `o-c${seq}`, email: null, totalItems: 1 },
      amount: money(700, 'USD', 2),
      returnUrl: 'http://127.0.0.1/r',
      cancelUrl: 'http://127.0.0.1/c',
      captureMethod: 'automatic',
      idempotencyKey: `start-pay_c${seq}`,
    });
    const attempt = { reference: `pay_c${seq}`, gatewayRef: started.gatewayRef, gatewayPaymentRef: null };
    await gateway.cancelAttempt?.(attempt);
    expect(standin.session(started.gatewayRef)).toMatchObject({ status: 'expired', url: null });
    await expect(gateway.cancelAttempt?.(attempt)).resolves.toBeUndefined();

    const paid = await authorized(money(800, 'USD', 2), 'automatic');
    await expect(
      gateway.cancelAttempt?.({ reference: paid.reference, gatewayRef: paid.sessionId, gatewayPaymentRef: null }),
    ).resolves.toBeUndefined();
    expect(standin.session(paid.sessionId).status).toBe('complete');
    // Nothing to expire without a session.
    await expect(gateway.cancelAttempt?.({ ...attempt, gatewayRef: null })).resolves.toBeUndefined();
  });

  it('reports a session Stripe does not know as a GatewayError', async () => {
    const err = await failure(
      gateway.cancelAttempt?.({ reference: 'pay_none', gatewayRef: 'cs_test_unknown', gatewayPaymentRef: null }),
    );
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ message: expect.stringMatching(/404 \(resource_missing\)/) });
  });
});
