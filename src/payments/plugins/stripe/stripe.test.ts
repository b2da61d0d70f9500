import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { GatewayError, type Money, PluginConfigError } from '../../payment-plugin.js';
import stripePlugin from './index.js';
import { fromStripeAmount, toStripeAmount } from './stripe-amounts.js';
import { readStripeSettings } from './stripe-config.js';
import { normaliseStripeEvent } from './stripe-events.js';

const money = (amountMinor: number, currency: string, exponent: number): Money => ({ amountMinor, currency, exponent });
const keys = { STRIPE_SECRET_KEY: 'sk_test_abc123', STRIPE_WEBHOOK_SECRET: 'whsec_abc123' };
const implicit = { explicit: false, embeddedDatabase: true };

describe('Stripe amounts', () => {
  it('sends two- and zero-decimal currencies as they are', () => {
    expect(toStripeAmount(money(2468, 'USD', 2))).toBe(2468);
    expect(toStripeAmount(money(4500, 'JPY', 0))).toBe(4500);
  });

  it('sends three-decimal currencies only when the last digit is 0, never rounding', () => {
    expect(toStripeAmount(money(12340, 'KWD', 3))).toBe(12340);
    expect(() => toStripeAmount(money(12345, 'KWD', 3))).toThrow(GatewayError);
    expect(() => toStripeAmount(money(1001, 'BHD', 3))).toThrow(/multiples of 0\.010.*1\.001 BHD/);
  });

  it('scales currencies Stripe keeps two-decimal where the service counts whole units (ISK, HUF)', () => {
    expect(toStripeAmount(money(500, 'ISK', 0))).toBe(50_000);
    expect(toStripeAmount(money(1200, 'HUF', 0))).toBe(120_000);
    expect(fromStripeAmount(50_000, 'isk')).toEqual(money(500, 'ISK', 0));
    expect(fromStripeAmount(50_050, 'isk')).toBeUndefined();
  });

  it("reads Stripe amounts back in the service's minor units and upper-case currency", () => {
    expect(fromStripeAmount(2468, 'usd')).toEqual(money(2468, 'USD', 2));
    expect(fromStripeAmount(4500, 'jpy')).toEqual(money(4500, 'JPY', 0));
    expect(fromStripeAmount(12340, 'kwd')).toEqual(money(12340, 'KWD', 3));
    expect(fromStripeAmount(100, 'zzz')).toBeUndefined();
    expect(fromStripeAmount(null, 'usd')).toBeUndefined();
  });
});

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
