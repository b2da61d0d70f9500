import { and, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config.js';
import { paymentEvents, payments } from '../src/db/schema.js';
import { loadPaymentPlugins } from '../src/payments/plugin-registry.js';
import { openAsBrowser } from './browser.js';
import { adminApi, placeGuestOrder, guestAddress } from './fixtures.js';
import {
  bearer,
  buildTestApp,
  expectProblem,
  json,
  type SignedIn,
  signInAdmin,
  signUp,
  type TestApp,
} from './helpers.js';
import { type StripeStandIn, startStripeStandIn, stripeEvent, stripeSignature } from './stripe-standin.js';

/**
 * The stripe plugin end to end: the real `stripe` SDK inside the real app, talking to a local
 * stand-in for Stripe's API, and webhooks signed with the SDK's own test helper.
 */

const address = guestAddress;
const SESSIONS = 'POST /v1/checkout/sessions';
const REFUNDS = 'POST /v1/refunds';

let standin: StripeStandIn;

beforeAll(async () => {
  standin = await startStripeStandIn();
});
afterAll(() => standin.close());

/** A store (one app on its own database) with the stripe plugin pointed at the stand-in. */
function store(t: TestApp, admin: SignedIn) {
  let seq = 0;
  const inject = t.app.inject.bind(t.app);

  async function variant(price: string): Promise<string> {
    seq += 1;
    const alias = `stripe-${t.config.storeCurrency.toLowerCase()}-${seq}`;
    await adminApi(t, admin).product({
      name: `Stripe test ${seq}`,
      variants: [{ alias, name: alias, price, stock: 1000 }],
    });
    return alias;
  }

  /** A guest order for `quantity` of a variant at `price`: its alias, token and total. */
  async function guestOrder(price: string, quantity = 1) {
    const placed = await placeGuestOrder(t, {
      variants: [{ alias: await variant(price), quantity }],
      shipping_address: address,
    });
    return { alias: placed.order_alias, token: placed.order_token, total: placed.total };
  }

  const start = (orderAlias: string, headers: Record<string, string> = {}, plugin = 'stripe') =>
    inject({
      method: 'POST',
      url: `/payment/storefront/api/start-payment/${plugin}/`,
      payload: { order_alias: orderAlias },
      headers,
    });

  /** Starts paying a guest order through Stripe and returns the Checkout Session the stand-in made. */
  async function startedGuestOrder(price: string, quantity = 1) {
    const order = await guestOrder(price, quantity);
    const res = await start(order.alias, { 'x-order-token': order.token });
    if (res.statusCode !== 200) throw new Error(res.body);
    const body = json(res);
    const sessionId = /\/c\/pay\/(cs_test_[0-9a-f]+)$/.exec(body.url)?.[1];
    if (!sessionId) throw new Error(`no session id in ${body.url}`);
    return { ...order, paymentId: body.payment_id as number, sessionId };
  }

  const webhook = (payload: string, headers: Record<string, string>) =>
    inject({
      method: 'POST',
      url: '/payment/storefront/api/webhook-view/stripe/',
      payload,
      headers: { 'content-type': 'application/json', ...headers },
    });

  /** Delivers a Stripe event, correctly signed. */
  const deliver = (event: { payload: string }) =>
    webhook(event.payload, { 'stripe-signature': stripeSignature(event.payload) });

  const order = async (alias: string, token: string) =>
    json(
      await inject({
        method: 'GET',
        url: `/order/storefront/api/orders/${alias}/`,
        headers: { 'x-order-token': token },
      }),
    );
  const paymentsOf = async (alias: string) =>
    json(
      await inject({
        method: 'GET',
        url: `/payment/dashboard/api/orders/${alias}/payments/`,
        headers: bearer(admin.access),
      }),
    );
  const refund = (paymentId: number, payload?: object) =>
    inject({
      method: 'POST',
      url: `/payment/dashboard/api/payments/${paymentId}/refund/`,
      headers: bearer(admin.access),
      ...(payload ? { payload } : {}),
    });
  const paymentRow = async (id: number) => (await t.database.db.select().from(payments).where(eq(payments.id, id)))[0];

  return {
    inject,
    variant,
    guestOrder,
    start,
    startedGuestOrder,
    webhook,
    deliver,
    order,
    paymentsOf,
    refund,
    paymentRow,
  };
}

/** Checkout Session requests the stand-in received for one order (replays excluded). */
const sessionRequestsFor = (orderAlias: string) =>
  standin
    .requestsTo(SESSIONS)
    .filter((r) => !r.replayed && (r.body.metadata as Record<string, string> | undefined)?.order_alias === orderAlias);

describe('configuration', () => {
  const base = {
    embeddedDatabase: true,
    context: {
      publicBaseUrl: 'http://127.0.0.1:8000',
      secret: (n: string) => `secret-${n}-0123456789abcdef0123456789`,
    },
  };

  it('is off when no Stripe variable is set, and on with both keys', async () => {
    expect((await loadPaymentPlugins({ ...base, enabled: undefined, env: {} })).get('stripe')).toBeUndefined();
    expect((await loadPaymentPlugins({ ...base, enabled: undefined, env: standin.env() })).get('stripe')?.name).toBe(
      'Stripe',
    );
  });

  it('stops the service naming the variable that is missing or wrong', async () => {
    const failure = async (enabled: string[] | undefined, env: Record<string, string | undefined>) => {
      const err = await loadPaymentPlugins({ ...base, enabled, env }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ConfigError);
      return (err as ConfigError).message;
    };
    expect(await failure(['stripe'], {})).toMatch(/plugin stripe: STRIPE_SECRET_KEY is required/);
    expect(await failure(undefined, { STRIPE_WEBHOOK_SECRET: standin.webhookSecret })).toMatch(
      /STRIPE_SECRET_KEY is required/,
    );
    expect(await failure(undefined, { STRIPE_SECRET_KEY: standin.secretKey })).toMatch(
      /STRIPE_WEBHOOK_SECRET is required/,
    );
    expect(await failure(undefined, standin.env({ STRIPE_SECRET_KEY: 'pk_test_123' }))).toMatch(
      /STRIPE_SECRET_KEY must be a secret key starting with sk_/,
    );
    expect(await failure(undefined, standin.env({ STRIPE_WEBHOOK_SECRET: 'sk_test_swapped' }))).toMatch(
      /STRIPE_WEBHOOK_SECRET must be a webhook signing secret starting with whsec_/,
    );
    expect(await failure(undefined, standin.env({ STRIPE_API_PROTOCOL: 'ftp' }))).toMatch(
      /STRIPE_API_PROTOCOL must be http or https/,
    );
    expect(await failure(undefined, standin.env({ STRIPE_API_PORT: '70000' }))).toMatch(
      /STRIPE_API_PORT must be a whole number/,
    );
    expect(await failure(undefined, standin.env({ STRIPE_WEBHOOK_TOLERANCE_SECONDS: '0' }))).toMatch(
      /STRIPE_WEBHOOK_TOLERANCE_SECONDS must be a whole number from 1/,
    );
  });
});

describe('Stripe Checkout in a USD store', () => {
  let t: TestApp;
  let admin: SignedIn;
  let s: ReturnType<typeof store>;

  beforeAll(async () => {
    t = await buildTestApp({ config: { paymentPlugins: ['stripe', 'cash_on_delivery'] }, pluginEnv: standin.env() });
    admin = await signInAdmin(t);
    s = store(t, admin);
  });
  afterAll(() => t.close());

  it('lists Stripe among the enabled plugins', async () => {
    const res = await s.inject({ method: 'GET', url: '/payment/storefront/api/plugins/' });
    expect(json(res)).toEqual([
      { id: 'stripe', name: 'Stripe', manual_capture: false },
      { id: 'cash_on_delivery', name: 'Cash on delivery', manual_capture: true },
    ]);
  });

  it('opens a Checkout Session for the order total; a signed checkout.session.completed makes it paid', async () => {
    // Stripe sends the payer back to the service's return route, which knows the outcome by then.
    const returnLink = `${t.config.publicBaseUrl}/payment/storefront/return/?token=`;
    const order = await s.guestOrder('12.34', 2);
    expect(order.total).toBe('24.68');
    const res = await s.start(order.alias, { 'x-order-token': order.token });
    expect(res.statusCode).toBe(200);
    const started = json(res);
    expect(started).toMatchObject({
      order_alias: order.alias,
      amount: '24.68',
      currency: 'USD',
      url: expect.stringMatching(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/),
    });

    const [sent, ...more] = sessionRequestsFor(order.alias);
    expect(more).toEqual([]);
    const reference = sent?.body.client_reference_id as string;
    expect(reference).toMatch(/^pay_[0-9a-f]{32}$/);
    expect(sent?.idempotencyKey).toBe(`start-${reference}`);
    expect(sent?.body).toEqual({
      mode: 'payment',
      line_items: [
        {
          quantity: '1',
          price_data: { currency: 'usd', unit_amount: '2468', product_data: { name: `Order ${order.alias}` } },
        },
      ],
      success_url: expect.stringContaining(returnLink),
      cancel_url: expect.stringContaining(returnLink),
      client_reference_id: reference,
      metadata: { payment_reference: reference, order_alias: order.alias },
      payment_intent_data: { metadata: { payment_reference: reference, order_alias: order.alias } },
      customer_email: 'gus@example.com',
    });
    expect((await s.order(order.alias, order.token)).payment_status).toBe('unpaid');
    // Back before Stripe's webhook: the order page says the payment is being confirmed.
    const outcomeAt = async (url: unknown) => {
      const { page } = await openAsBrowser(t, String(url));
      return /data-payment-outcome="(\w+)"/.exec(page?.body ?? '')?.[1];
    };
    expect(await outcomeAt(sent?.body.success_url)).toBe('pending');
    expect(await outcomeAt(sent?.body.cancel_url)).toBe('cancelled');

    const sessionId = started.url.split('/').pop();
    const session = standin.completeSession(sessionId);
    const delivered = await s.deliver(stripeEvent('checkout.session.completed', session));
    expect(delivered.statusCode).toBe(200);
    expect(json(delivered)).toEqual({ received: 1 });

    expect((await s.order(order.alias, order.token)).payment_status).toBe('paid');
    expect(await s.paymentsOf(order.alias)).toEqual([
      expect.objectContaining({
        id: started.payment_id,
        plugin_id: 'stripe',
        status: 'succeeded',
        amount: '24.68',
        amount_captured: '24.68',
        amount_refunded: '0.00',
        currency: 'USD',
      }),
    ]);
    expect((await s.paymentRow(started.payment_id))?.gatewayPaymentRef).toBe(session.payment_intent);
    expect(await outcomeAt(sent?.body.success_url)).toBe('succeeded');
  });

  it('refuses a forged, missing, tampered or stale signature with 400 and changes nothing', async () => {
    const order = await s.startedGuestOrder('30.00');
    const event = stripeEvent('checkout.session.completed', standin.completeSession(order.sessionId));
    const before = await s.paymentRow(order.paymentId);

    const forged = stripeSignature(event.payload, { secret: 'whsec_not_the_store_secret_000000000000' });
    const signed = stripeSignature(event.payload);
    const tampered = event.payload.replace('"amount_total": 3000', '"amount_total": 1');
    expect(tampered).not.toBe(event.payload);
    const stale = stripeSignature(event.payload, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    const attempts = [
      s.webhook(event.payload, { 'stripe-signature': forged }),
      s.webhook(event.payload, {}),
      s.webhook(event.payload, { 'stripe-signature': '' }),
      s.webhook(event.payload, { 'stripe-signature': 'not a signature' }),
      s.webhook(tampered, { 'stripe-signature': signed }),
      s.webhook(event.payload, { 'stripe-signature': stale }),
    ];
    const details = [];
    for (const res of await Promise.all(attempts))
      details.push(expectProblem(res, 400, 'invalid_signature').detail as string);
    expect(details[1]).toMatch(/Stripe-Signature header is missing/);
    expect(details[5]).toMatch(/tolerance/);
    for (const detail of details) expect(detail).not.toContain('whsec_');

    expect(await s.paymentRow(order.paymentId)).toEqual(before);
    expect((await s.order(order.alias, order.token)).payment_status).toBe('unpaid');
    const stored = await t.database.db
      .select()
      .from(paymentEvents)
      .where(and(eq(paymentEvents.pluginId, 'stripe'), eq(paymentEvents.eventId, event.id)));
    expect(stored).toEqual([]);

    // The genuine delivery of the same event still counts.
    expect((await s.deliver(event)).statusCode).toBe(200);
    expect((await s.order(order.alias, order.token)).payment_status).toBe('paid');
  });

  it('answers a replayed event 200 and applies it once', async () => {
    const order = await s.startedGuestOrder('8.00');
    const event = stripeEvent('checkout.session.completed', standin.completeSession(order.sessionId));
    expect((await s.deliver(event)).statusCode).toBe(200);
    const afterFirst = await s.paymentRow(order.paymentId);
    const replay = await s.deliver(event);
    expect(replay.statusCode).toBe(200);
    expect(await s.paymentRow(order.paymentId)).toEqual(afterFirst);
    const stored = await t.database.db
      .select()
      .from(paymentEvents)
      .where(and(eq(paymentEvents.pluginId, 'stripe'), eq(paymentEvents.eventId, event.id)));
    expect(stored).toEqual([
      expect.objectContaining({ paymentId: order.paymentId, kind: 'succeeded', amount: 800, applied: true }),
    ]);
  });

  it('keeps a delayed payment pending until async_payment_succeeded, and never moves it back', async () => {
    const order = await s.startedGuestOrder('45.50');
    const completed = standin.completeSession(order.sessionId, { paid: false });
    expect((await s.deliver(stripeEvent('checkout.session.completed', completed))).statusCode).toBe(200);
    expect((await s.order(order.alias, order.token)).payment_status).toBe('unpaid');
    expect(await s.paymentRow(order.paymentId)).toMatchObject({
      status: 'pending',
      amountCaptured: 0,
      gatewayPaymentRef: completed.payment_intent,
    });

    expect(
      (
        await s.deliver(
          stripeEvent('checkout.session.async_payment_succeeded', standin.settleSession(order.sessionId, 'paid')),
        )
      ).statusCode,
    ).toBe(200);
    expect((await s.order(order.alias, order.token)).payment_status).toBe('paid');
    expect(await s.paymentRow(order.paymentId)).toMatchObject({ status: 'succeeded', amountCaptured: 4550 });

    // A late, differently-identified "completed, unpaid" must not undo it.
    expect((await s.deliver(stripeEvent('checkout.session.completed', completed))).statusCode).toBe(200);
    expect((await s.order(order.alias, order.token)).payment_status).toBe('paid');
  });

  it('marks the order failed when a delayed payment fails', async () => {
    const order = await s.startedGuestOrder('19.99');
    await s.deliver(
      stripeEvent('checkout.session.completed', standin.completeSession(order.sessionId, { paid: false })),
    );
    const res = await s.deliver(
      stripeEvent('checkout.session.async_payment_failed', standin.settleSession(order.sessionId, 'failed')),
    );
    expect(res.statusCode).toBe(200);
    expect((await s.order(order.alias, order.token)).payment_status).toBe('unpaid');
    expect((await s.paymentsOf(order.alias))[0]).toMatchObject({ status: 'failed', amount_captured: '0.00' });
  });

  it('records an expired session, after which start opens a new Checkout Session', async () => {
    const order = await s.startedGuestOrder('5.00');
    expect(
      (await s.deliver(stripeEvent('checkout.session.expired', standin.expireSession(order.sessionId)))).statusCode,
    ).toBe(200);
    expect((await s.paymentsOf(order.alias))[0]).toMatchObject({ id: order.paymentId, status: 'expired' });
    expect((await s.order(order.alias, order.token)).payment_status).toBe('unpaid');

    const again = json(await s.start(order.alias, { 'x-order-token': order.token }));
    expect(again.payment_id).not.toBe(order.paymentId);
    expect(again.url).not.toContain(order.sessionId);
    expect(sessionRequestsFor(order.alias)).toHaveLength(2);
  });

  it('refunds through Stripe: its webhook (a running total) changes nothing; a full refund closes it', async () => {
    const order = await s.startedGuestOrder('20.00');
    const session = standin.completeSession(order.sessionId);
    const paymentIntent = session.payment_intent as string;
    await s.deliver(stripeEvent('checkout.session.completed', session));

    const partial = await s.refund(order.paymentId, { amount: '5.00' });
    expect(partial.statusCode).toBe(200);
    expect(json(partial)).toMatchObject({ status: 'partially_refunded', amount_refunded: '5.00' });
    const [first] = standin.requestsTo(REFUNDS).filter((r) => r.body.payment_intent === paymentIntent);
    expect(first?.body).toMatchObject({ payment_intent: paymentIntent, amount: '500' });
    expect(first?.idempotencyKey).toMatch(/^refund-pay_[0-9a-f]+-[0-9a-f-]{36}$/);

    expect((await s.deliver(stripeEvent('charge.refunded', standin.chargeOf(paymentIntent)))).statusCode).toBe(200);
    expect(await s.paymentRow(order.paymentId)).toMatchObject({ status: 'partially_refunded', amountRefunded: 500 });
    expect((await s.order(order.alias, order.token)).payment_status).toBe('partially_refunded');

    const full = await s.refund(order.paymentId);
    expect(full.statusCode).toBe(200);
    expect(json(full)).toMatchObject({ status: 'refunded', amount_refunded: '20.00' });
    expect(
      standin
        .requestsTo(REFUNDS)
        .filter((r) => r.body.payment_intent === paymentIntent)
        .map((r) => r.body.amount),
    ).toEqual(['500', '1500']);
    expect(standin.chargeOf(paymentIntent)).toMatchObject({ amount_refunded: 2000, refunded: true });

    expect((await s.deliver(stripeEvent('charge.refunded', standin.chargeOf(paymentIntent)))).statusCode).toBe(200);
    expect(await s.paymentRow(order.paymentId)).toMatchObject({
      status: 'refunded',
      amountCaptured: 2000,
      amountRefunded: 2000,
    });
    expect((await s.order(order.alias, order.token)).payment_status).toBe('refunded');
  });

  it("records a refund made in Stripe's dashboard from its charge.refunded webhook", async () => {
    const order = await s.startedGuestOrder('40.00');
    const session = standin.completeSession(order.sessionId);
    await s.deliver(stripeEvent('checkout.session.completed', session));
    // The "dashboard": another Stripe client refunding straight at the stand-in.
    const dashboard = new Stripe(standin.secretKey, {
      host: '127.0.0.1',
      port: new URL(standin.url).port,
      protocol: 'http',
    });
    await dashboard.refunds.create({ payment_intent: session.payment_intent as string, amount: 1250 });
    expect(
      (await s.deliver(stripeEvent('charge.refunded', standin.chargeOf(session.payment_intent as string)))).statusCode,
    ).toBe(200);
    expect((await s.paymentsOf(order.alias))[0]).toMatchObject({
      status: 'partially_refunded',
      amount_refunded: '12.50',
    });
  });

  it("applies a refund whose webhook arrives before the payment's own completion event", async () => {
    const order = await s.startedGuestOrder('30.00');
    const session = standin.completeSession(order.sessionId);
    const paymentIntent = session.payment_intent as string;
    const dashboard = new Stripe(standin.secretKey, {
      host: '127.0.0.1',
      port: new URL(standin.url).port,
      protocol: 'http',
    });
    await dashboard.refunds.create({ payment_intent: paymentIntent, amount: 1000 });
    // Stripe does not promise order: the refund comes first and names a PaymentIntent unknown yet.
    expect((await s.deliver(stripeEvent('charge.refunded', standin.chargeOf(paymentIntent)))).statusCode).toBe(200);
    expect(await s.paymentRow(order.paymentId)).toMatchObject({ status: 'pending', amountRefunded: 0 });
    expect((await s.deliver(stripeEvent('checkout.session.completed', session))).statusCode).toBe(200);
    expect(await s.paymentRow(order.paymentId)).toMatchObject({
      status: 'partially_refunded',
      amountCaptured: 3000,
      amountRefunded: 1000,
    });
    expect((await s.order(order.alias, order.token)).payment_status).toBe('partially_refunded');
  });

  it('answers a refund Stripe refuses with 502 and records nothing', async () => {
    const order = await s.startedGuestOrder('15.00');
    await s.deliver(stripeEvent('checkout.session.completed', standin.completeSession(order.sessionId)));
    const before = await s.paymentRow(order.paymentId);
    standin.refuseNext(REFUNDS, {
      status: 400,
      type: 'invalid_request_error',
      code: 'charge_disputed',
      message: 'Charge ch_123 has been charged back; cannot issue a refund.',
    });
    const body = expectProblem(await s.refund(order.paymentId, { amount: '1.00' }), 502, 'payment_gateway_error');
    expect(body.detail).toMatch(/Stripe answered 400 \(charge_disputed\): Charge ch_123 has been charged back/);
    expect(await s.paymentRow(order.paymentId)).toEqual(before);
  });

  it('refuses to refund a payment Stripe has not reported a PaymentIntent for', async () => {
    const order = await s.startedGuestOrder('6.00');
    // A success that names the session only (as from an older integration), so no PaymentIntent is learnt.
    const session = standin.completeSession(order.sessionId);
    await s.deliver(stripeEvent('checkout.session.completed', { ...session, payment_intent: null }));
    expect((await s.paymentsOf(order.alias))[0]).toMatchObject({ status: 'succeeded' });
    const body = expectProblem(await s.refund(order.paymentId), 502, 'payment_gateway_error');
    expect(body.detail).toBe('the payment has no Stripe PaymentIntent yet');
  });

  it('reuses the open attempt when started twice without a key: same payment, one Checkout Session', async () => {
    const order = await s.guestOrder('9.99');
    const first = json(await s.start(order.alias, { 'x-order-token': order.token }));
    const second = json(await s.start(order.alias, { 'x-order-token': order.token }));
    expect(second).toEqual(first);
    expect(sessionRequestsFor(order.alias)).toHaveLength(1);
  });

  it('lets a signed-in customer pay their own order, and nobody else start it', async () => {
    const [owner, stranger] = [await signUp(t.app), await signUp(t.app)];
    const placed = await s.inject({
      method: 'POST',
      url: '/order/storefront/api/create/',
      headers: bearer(owner.access),
      payload: { variants: [{ alias: await s.variant('11.00') }] },
    });
    expect(placed.statusCode).toBe(201);
    const alias = json(placed).order_alias as string;

    expectProblem(await s.start(alias, bearer(stranger.access)), 404, 'order_not_found');
    expectProblem(await s.start(alias), 404, 'order_not_found');
    expect(sessionRequestsFor(alias)).toEqual([]);

    const res = await s.start(alias, bearer(owner.access));
    expect(res.statusCode).toBe(200);
    expect(sessionRequestsFor(alias)[0]?.body).toMatchObject({
      customer_email: owner.email,
      line_items: [{ price_data: { unit_amount: '1100' } }],
    });
  });

  it('answers an unknown plugin with 404 payment_plugin_not_found', async () => {
    const order = await s.guestOrder('1.00');
    expectProblem(
      await s.start(order.alias, { 'x-order-token': order.token }, 'paypal'),
      404,
      'payment_plugin_not_found',
    );
    expectProblem(
      await s.inject({
        method: 'POST',
        url: '/payment/storefront/api/webhook-view/paypal/',
        payload: '{}',
        headers: { 'content-type': 'application/json' },
      }),
      404,
      'payment_plugin_not_found',
    );
  });

  it('answers 409 order_already_paid for a paid order and asks Stripe for nothing', async () => {
    const order = await s.startedGuestOrder('3.00');
    await s.deliver(stripeEvent('checkout.session.completed', standin.completeSession(order.sessionId)));
    expectProblem(await s.start(order.alias, { 'x-order-token': order.token }), 409, 'order_already_paid');
    expect(sessionRequestsFor(order.alias)).toHaveLength(1);
  });

  it('stores and ignores event types it does not follow', async () => {
    const event = stripeEvent('customer.created', { id: 'cus_123', object: 'customer', email: 'someone@example.com' });
    expect((await s.deliver(event)).statusCode).toBe(200);
    const stored = await t.database.db
      .select()
      .from(paymentEvents)
      .where(and(eq(paymentEvents.pluginId, 'stripe'), eq(paymentEvents.eventId, event.id)));
    expect(stored).toEqual([expect.objectContaining({ kind: 'ignored', applied: false, paymentId: null })]);
  });
});

describe('when Stripe refuses the secret key', () => {
  let t: TestApp;
  let s: ReturnType<typeof store>;
  const wrongKey = 'sk_test_not_the_store_key_abcdefghijklmnop';

  beforeAll(async () => {
    t = await buildTestApp({
      config: { paymentPlugins: ['stripe'] },
      pluginEnv: standin.env({ STRIPE_SECRET_KEY: wrongKey }),
    });
    s = store(t, await signInAdmin(t));
  });
  afterAll(() => t.close());

  it('answers 502 payment_gateway_error without the key, and fails the attempt', async () => {
    const order = await s.guestOrder('10.00');
    const body = expectProblem(
      await s.start(order.alias, { 'x-order-token': order.token }),
      502,
      'payment_gateway_error',
    );
    expect(body.detail).toMatch(/^creating the Stripe Checkout Session failed: Stripe answered 401/);
    expect(body.detail).not.toContain(wrongKey.slice(-6));
    expect(body.detail).not.toMatch(/sk_(test|live)_/);
    expect((await s.paymentsOf(order.alias))[0]).toMatchObject({ status: 'failed', amount_captured: '0.00' });
  });
});

describe('amounts in currencies with other minor units', () => {
  it('sends a JPY total as whole yen', async () => {
    const t = await buildTestApp({
      config: { storeCurrency: 'JPY', paymentPlugins: ['stripe', 'cash_on_delivery'] },
      pluginEnv: standin.env(),
    });
    try {
      const s = store(t, await signInAdmin(t));
      const order = await s.startedGuestOrder('1500', 3);
      expect(order.total).toBe('4500');
      expect(sessionRequestsFor(order.alias)[0]?.body.line_items).toEqual([
        {
          quantity: '1',
          price_data: { currency: 'jpy', unit_amount: '4500', product_data: { name: `Order ${order.alias}` } },
        },
      ]);
      await s.deliver(stripeEvent('checkout.session.completed', standin.completeSession(order.sessionId)));
      expect((await s.paymentsOf(order.alias))[0]).toMatchObject({
        status: 'succeeded',
        amount_captured: '4500',
        currency: 'JPY',
      });
      expect((await s.order(order.alias, order.token)).payment_status).toBe('paid');
    } finally {
      await t.close();
    }
  });

  describe('KWD (three decimals; Stripe needs the last digit 0)', () => {
    let t: TestApp;
    let s: ReturnType<typeof store>;
    beforeAll(async () => {
      t = await buildTestApp({
        config: { storeCurrency: 'KWD', paymentPlugins: ['stripe', 'cash_on_delivery'] },
        pluginEnv: standin.env(),
      });
      s = store(t, await signInAdmin(t));
    });
    afterAll(() => t.close());

    it('sends a total ending in 0 fils as it is, and takes the payment', async () => {
      const order = await s.startedGuestOrder('12.340');
      expect(sessionRequestsFor(order.alias)[0]?.body.line_items).toEqual([
        {
          quantity: '1',
          price_data: { currency: 'kwd', unit_amount: '12340', product_data: { name: `Order ${order.alias}` } },
        },
      ]);
      await s.deliver(stripeEvent('checkout.session.completed', standin.completeSession(order.sessionId)));
      expect((await s.paymentsOf(order.alias))[0]).toMatchObject({
        status: 'succeeded',
        amount_captured: '12.340',
        currency: 'KWD',
      });

      // A refund Stripe can't represent is refused before reaching Stripe, never rounded: 422, nothing refunded.
      const refunds = standin.requestsTo(REFUNDS).length;
      const paymentId = (await s.paymentsOf(order.alias))[0].id;
      const body = expectProblem(await s.refund(paymentId, { amount: '1.005' }), 422, 'amount_not_chargeable');
      expect(body.detail).toMatch(/KWD amounts only in multiples of 0\.010.*1\.005 KWD/);
      expect(body).toMatchObject({ plugin: 'stripe', retryable: false });
      expect(standin.requestsTo(REFUNDS)).toHaveLength(refunds);
      expect((await s.paymentsOf(order.alias))[0]).toMatchObject({ amount_refunded: '0.000', refundable: '12.340' });
      // 1.010 can be refunded: Stripe gets 1010 fils.
      expect((await s.refund(paymentId, { amount: '1.010' })).statusCode).toBe(200);
      expect(standin.requestsTo(REFUNDS).at(-1)?.body).toMatchObject({ amount: '1010' });
    });

    it('refuses a total not ending in 0 fils with 422 before any attempt, and charges nothing', async () => {
      const order = await s.guestOrder('12.345');
      const before = standin.requestsTo(SESSIONS).length;
      const body = expectProblem(
        await s.start(order.alias, { 'x-order-token': order.token }),
        422,
        'amount_not_chargeable',
      );
      expect(body.detail).toMatch(
        /Stripe accepts KWD amounts only in multiples of 0\.010 .*12\.345 KWD can't be charged exactly/,
      );
      expect(body.plugin).toBe('stripe');
      expect(standin.requestsTo(SESSIONS)).toHaveLength(before);
      // Nothing written: no attempt, no event; the order can still be paid another way (cash on delivery).
      expect(await s.paymentsOf(order.alias)).toEqual([]);
      expect((await s.order(order.alias, order.token)).payment_status).toBe('unpaid');
      const cod = await s.start(order.alias, { 'x-order-token': order.token }, 'cash_on_delivery');
      expect(json(cod)).toMatchObject({ amount: '12.345', currency: 'KWD' });
    });
  });
});

describe('authorize, then capture through Stripe (PAYMENT_CAPTURE=manual)', () => {
  let t: TestApp;
  let admin: SignedIn;
  let s: ReturnType<typeof store>;

  beforeAll(async () => {
    t = await buildTestApp({
      config: { paymentPlugins: ['stripe', 'cash_on_delivery'], paymentCapture: 'manual' },
      pluginEnv: standin.env(),
    });
    admin = await signInAdmin(t);
    s = store(t, admin);
  });
  afterAll(() => t.close());

  /** A guest order authorized at Stripe: the session completed unpaid, then the PaymentIntent's capturable amount. */
  async function authorized(price: string) {
    const order = await s.startedGuestOrder(price);
    const session = standin.completeSession(order.sessionId);
    const paymentIntent = String(session.payment_intent);
    expect((await s.deliver(stripeEvent('checkout.session.completed', session))).statusCode).toBe(200);
    const intent = standin.paymentIntentOf(paymentIntent);
    expect((await s.deliver(stripeEvent('payment_intent.amount_capturable_updated', intent))).statusCode).toBe(200);
    return { ...order, paymentIntent };
  }
  const post = (url: string, payload?: object) =>
    s.inject({ method: 'POST', url, headers: bearer(admin.access), ...(payload ? { payload } : {}) });

  it('opens a manual-capture Checkout Session and holds the money: order authorized, nothing to pay', async () => {
    const order = await authorized('20.00');
    const [request] = sessionRequestsFor(order.alias);
    expect(request?.body).toMatchObject({ payment_intent_data: { capture_method: 'manual' } });
    expect(await s.order(order.alias, order.token)).toMatchObject({
      status: 'approved',
      payment_status: 'authorized',
      ledger: { authorized: '20.00', capturable: '20.00', captured: '0.00', to_pay: '0.00' },
    });
  });

  it('captures part through Stripe, and its webhooks (succeeded, charge.captured) add nothing more', async () => {
    const order = await authorized('20.00');
    const res = await post(`/payment/dashboard/api/payments/${order.paymentId}/capture/`, { amount: '15.00' });
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res)).toMatchObject({ amount_captured: '15.00', amount_voided: '5.00', capturable: '0.00' });
    const captures = standin.requests.filter(
      (r) => r.method === 'POST' && r.path === `/v1/payment_intents/${order.paymentIntent}/capture`,
    );
    expect(captures).toHaveLength(1);
    expect(captures[0]?.body).toMatchObject({ amount_to_capture: '1500' });
    expect(captures[0]?.idempotencyKey).toMatch(/^capture-pay_/);
    const intent = standin.paymentIntentOf(order.paymentIntent);
    await s.deliver(stripeEvent('payment_intent.succeeded', intent));
    await s.deliver(stripeEvent('charge.captured', standin.chargeOf(order.paymentIntent)));
    expect(await s.paymentRow(order.paymentId)).toMatchObject({ amountCaptured: 1500, amountVoided: 500 });
    expect(await s.order(order.alias, order.token)).toMatchObject({
      payment_status: 'partially_paid',
      ledger: { captured: '15.00', balance_due: '5.00', to_pay: '5.00' },
    });
    // Stripe shows the released 5.00 as "refunded" on the charge: that is not money given back.
    await s.deliver(stripeEvent('charge.refunded', standin.chargeOf(order.paymentIntent)));
    expect(await s.paymentRow(order.paymentId)).toMatchObject({ amountRefunded: 0 });
  });

  it('voids an authorization through Stripe: the PaymentIntent is cancelled and nothing is taken', async () => {
    const order = await authorized('9.00');
    const res = await post(`/payment/dashboard/api/payments/${order.paymentId}/void/`);
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res)).toMatchObject({ status: 'voided', amount_voided: '9.00' });
    expect(standin.paymentIntentOf(order.paymentIntent)).toMatchObject({ status: 'canceled' });
    await s.deliver(stripeEvent('payment_intent.canceled', standin.paymentIntentOf(order.paymentIntent)));
    expect(await s.order(order.alias, order.token)).toMatchObject({
      payment_status: 'unpaid',
      ledger: { captured: '0.00', capturable: '0.00', to_pay: '9.00' },
    });
  });

  it('expires the Checkout Session of an attempt the payer abandoned for cash on delivery', async () => {
    const order = await s.startedGuestOrder('7.00');
    const cod = await s.start(order.alias, { 'x-order-token': order.token }, 'cash_on_delivery');
    expect(cod.statusCode, cod.body).toBe(200);
    expect(standin.session(order.sessionId)).toMatchObject({ status: 'expired' });
    expect((await s.paymentsOf(order.alias))[0]).toMatchObject({ id: order.paymentId, status: 'superseded' });
  });
});
