import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { paymentEvents } from '../src/db/schema.js';
import { GatewayError } from '../src/payments/payment-plugin.js';
import { signSandboxWebhook } from '../src/payments/plugins/sandbox/index.js';
import { hiddenFormFields, openAsBrowser } from './browser.js';
import { adminApi, placeGuestOrder } from './fixtures.js';
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

/** buildTestApp's plugin secrets are `test-secret-<plugin>-<name>-…`: the sandbox's webhook key. */
const WEBHOOK_SECRET = 'test-secret-sandbox-webhook-0123456789abcdef0123456789';
const address = {
  first_name: 'Sam',
  last_name: 'Sandbox',
  street_address: '1 Test Way',
  city: 'Austin',
  postal_code: '73301',
  state: 'TX',
  country: 'US',
  email: 'sam@example.com',
};
const webhookUrl = '/payment/storefront/api/webhook-view/sandbox/';
/** The service's own page for an order, where a payer with no storefront return_url lands. */
const orderPagePath = (alias: string) => `/order/storefront/orders/${alias}/`;

interface PlacedOrder {
  alias: string;
  token: string;
  total: string;
}

/** One store (one app and database) and the moves a storefront and an admin make on it. */
function store(t: TestApp, admin: SignedIn) {
  let seq = 0;
  const inject = t.app.inject.bind(t.app);

  async function placeOrder(price: string, quantity = 1): Promise<PlacedOrder> {
    seq += 1;
    const alias = `sbx-${seq}`;
    await adminApi(t, admin).product({ name: `Sandbox ${seq}`, variants: [{ alias, name: alias, price, stock: 100 }] });
    const placed = await placeGuestOrder(t, { variants: [{ alias, quantity }], shipping_address: address });
    return { alias: placed.order_alias, token: placed.order_token, total: placed.total };
  }

  const start = (plugin: string, order: PlacedOrder, extra: object = {}) =>
    inject({
      method: 'POST',
      url: `/payment/storefront/api/start-payment/${plugin}/`,
      headers: { 'x-order-token': order.token },
      payload: { order_alias: order.alias, ...extra },
    });

  async function orderOf(order: PlacedOrder) {
    return json(
      await inject({
        method: 'GET',
        url: `/order/storefront/api/orders/${order.alias}/`,
        headers: { 'x-order-token': order.token },
      }),
    );
  }

  async function paymentsOf(order: PlacedOrder) {
    return json(
      await inject({
        method: 'GET',
        url: `/payment/dashboard/api/orders/${order.alias}/payments/`,
        headers: bearer(admin.access),
      }),
    );
  }

  /** The checkout page behind a start's url, opened as the payer's browser would (path and query). */
  const openCheckout = (url: string) => {
    const parsed = new URL(url);
    return inject({ method: 'GET', url: parsed.pathname + parsed.search });
  };

  const submit = (fields: URLSearchParams | string) =>
    inject({
      method: 'POST',
      url: '/payment/sandbox/checkout/',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: fields.toString(),
    });

  const sendWebhook = (body: string, headers: Record<string, string>) =>
    inject({
      method: 'POST',
      url: webhookUrl,
      headers: { 'content-type': 'application/json', ...headers },
      payload: body,
    });

  return { inject, placeOrder, start, orderOf, paymentsOf, openCheckout, submit, sendWebhook };
}

/** The fields the checkout page's form sends: its hidden inputs (entities undone). */
function formFields(page: LightMyRequestResponse): URLSearchParams {
  return hiddenFormFields(page.body);
}

const withDecision = (fields: URLSearchParams, decision: string) => {
  const copy = new URLSearchParams(fields);
  copy.set('decision', decision);
  return copy;
};

function referenceOf(url: string): string {
  const reference = new URL(url).searchParams.get('reference');
  if (!reference) throw new Error(`no reference in ${url}`);
  return reference;
}

/** A sandbox event body as the sandbox writes it. */
function eventBody(
  type: string,
  data: { reference: string; amount: number; currency?: string },
  id = `evt_test_${Math.random().toString(16).slice(2)}`,
): string {
  return JSON.stringify({ id, type, created: Math.floor(Date.now() / 1000), data: { currency: 'USD', ...data } });
}

const signed = (body: string, secret = WEBHOOK_SECRET, timestamp?: number) => ({
  'x-sandbox-signature': signSandboxWebhook(secret, body, timestamp),
});

describe('sandbox and cash on delivery (USD store)', () => {
  let t: TestApp;
  let admin: SignedIn;
  let s: ReturnType<typeof store>;

  beforeAll(async () => {
    t = await buildTestApp({ config: { paymentPlugins: ['sandbox', 'cash_on_delivery'] } });
    admin = await signInAdmin(t);
    s = store(t, admin);
  });
  afterAll(() => t.close());

  /** A started sandbox payment and its checkout page. */
  async function startSandbox(order: PlacedOrder, extra: object = {}) {
    const res = await s.start('sandbox', order, extra);
    expect(res.statusCode, res.body).toBe(200);
    const started = json(res);
    const page = await s.openCheckout(started.url);
    return { started, page, fields: formFields(page), reference: referenceOf(started.url) };
  }

  describe('checkout', () => {
    it('is listed among the enabled plugins', async () => {
      const ids = json(await s.inject({ method: 'GET', url: '/payment/storefront/api/plugins/' })).map(
        (p: { id: string }) => p.id,
      );
      expect(ids.sort()).toEqual(['cash_on_delivery', 'sandbox']);
    });

    it('takes a payment end to end: start, checkout page, Pay, back to the return URL, order paid', async () => {
      const order = await s.placeOrder('12.34', 2);
      expect(order.total).toBe('24.68');
      const { started, page, fields } = await startSandbox(order);
      expect(started).toMatchObject({ order_alias: order.alias, amount: '24.68', currency: 'USD' });
      expect(started.url.startsWith(`${t.config.publicBaseUrl}/payment/sandbox/checkout/?`)).toBe(true);
      expect((await s.orderOf(order)).payment_status).toBe('unpaid');

      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['content-security-policy']).toContain("default-src 'none'");
      expect(page.body).toContain('24.68 USD');
      expect(page.body).toContain(order.alias);
      expect(page.body).toMatch(/<button[^>]*value="pay"[^>]*>Pay<\/button>/);
      expect(page.body).toMatch(/<button[^>]*value="decline"[^>]*>Decline<\/button>/);
      expect(page.body).toContain('<form method="post" action="/payment/sandbox/checkout/">');
      const ownHost = new URL(t.config.publicBaseUrl).host;
      const foreign = [...page.body.matchAll(/https?:\/\/([^/"'\s<>]+)/g)]
        .map((m) => m[1])
        .filter((host) => host !== ownHost);
      expect(foreign).toEqual([]);
      expect(page.body).not.toMatch(/<script|<link|<img|@import/i);

      const paid = await s.submit(withDecision(fields, 'pay'));
      expect(paid.statusCode).toBe(303);
      const returnRoute = `${t.config.publicBaseUrl}/payment/storefront/return/?token=`;
      expect(String(paid.headers.location).startsWith(returnRoute)).toBe(true);
      const landing = await openAsBrowser(t, String(paid.headers.location));
      expect(landing.url.pathname).toBe(orderPagePath(order.alias));
      expect(landing.page?.statusCode).toBe(200);
      expect(landing.page?.body).toContain('data-payment-outcome="succeeded"');
      expect((await s.orderOf(order)).payment_status).toBe('paid');
      const [payment] = await s.paymentsOf(order);
      expect(payment).toMatchObject({
        id: started.payment_id,
        plugin_id: 'sandbox',
        status: 'succeeded',
        amount: '24.68',
        amount_captured: '24.68',
      });
      expectProblem(await s.start('sandbox', order), 409, 'order_already_paid');
    });

    it("returns the payer to the store's own return and cancel URLs, with the order and the outcome", async () => {
      const urls = { return_url: 'https://shop.example/thanks?order=1', cancel_url: 'https://shop.example/cart' };
      const declined = await startSandbox(await s.placeOrder('5.00'), urls);
      const backFrom = async (fields: URLSearchParams, decision: string) => {
        const sent = await s.submit(withDecision(fields, decision));
        return (await openAsBrowser(t, String(sent.headers.location))).url.toString();
      };
      const declinedAlias = declined.started.order_alias;
      expect(await backFrom(declined.fields, 'decline')).toBe(
        `${urls.cancel_url}?order_alias=${declinedAlias}&payment_status=failed`,
      );
      const paid = await startSandbox(await s.placeOrder('5.00'), urls);
      const paidAlias = paid.started.order_alias;
      expect(await backFrom(paid.fields, 'pay')).toBe(
        `${urls.return_url}&order_alias=${paidAlias}&payment_status=succeeded`,
      );
    });

    it('declines: the payment fails, the order is failed, and a new start opens an attempt that can pay', async () => {
      const order = await s.placeOrder('7.50');
      const first = await startSandbox(order);
      const declined = await s.submit(withDecision(first.fields, 'decline'));
      expect(declined.statusCode).toBe(303);
      const landing = await openAsBrowser(t, String(declined.headers.location));
      expect(landing.url.pathname).toBe(orderPagePath(order.alias));
      expect(landing.page?.body).toContain('data-payment-outcome="failed"');
      expect((await s.orderOf(order)).payment_status).toBe('unpaid');
      expect((await s.paymentsOf(order))[0]).toMatchObject({ id: first.started.payment_id, status: 'failed' });

      const second = await startSandbox(order);
      expect(second.started.payment_id).not.toBe(first.started.payment_id);
      expect(second.reference).not.toBe(first.reference);
      expect((await s.orderOf(order)).payment_status).toBe('unpaid');
      expect((await s.submit(withDecision(second.fields, 'pay'))).statusCode).toBe(303);
      expect((await s.orderOf(order)).payment_status).toBe('paid');
      const statuses = (await s.paymentsOf(order)).map((p: { id: number; status: string }) => [p.id, p.status]);
      expect(statuses).toEqual(
        expect.arrayContaining([
          [first.started.payment_id, 'failed'],
          [second.started.payment_id, 'succeeded'],
        ]),
      );
    });

    it('reuses the open attempt when start is called twice', async () => {
      const order = await s.placeOrder('3.00');
      const a = json(await s.start('sandbox', order));
      const b = json(await s.start('sandbox', order));
      expect(b).toEqual(a);
    });

    it('refuses a tampered or unsigned checkout with a 400 page and changes nothing', async () => {
      const order = await s.placeOrder('9.99');
      const { started, fields } = await startSandbox(order);
      const url = new URL(started.url);
      const tampered = (key: string, value: string | null) => {
        const copy = new URLSearchParams(url.searchParams);
        if (value === null) copy.delete(key);
        else copy.set(key, value);
        return copy;
      };

      for (const query of [
        tampered('amount', '1'),
        tampered('reference', 'pay_someone_else'),
        tampered('currency', 'JPY'),
        tampered('return_url', 'https://evil.example/'),
        tampered('signature', null),
        tampered('signature', 'f'.repeat(64)),
        tampered('signature', 'nothex'),
      ]) {
        const page = await s.inject({ method: 'GET', url: `${url.pathname}?${query.toString()}` });
        expect(page.statusCode, query.toString()).toBe(400);
        expect(page.headers['content-type']).toMatch(/^text\/html/);
        expect(page.body).toContain('not valid');
        expect(page.body).not.toContain('evil.example');
      }
      expect((await s.inject({ method: 'GET', url: '/payment/sandbox/checkout/' })).statusCode).toBe(400);

      const cheaper = withDecision(fields, 'pay');
      cheaper.set('amount', '1');
      const twice = withDecision(fields, 'pay');
      twice.append('amount', '999');
      for (const form of [cheaper, twice, withDecision(fields, 'steal'), fields, 'decision=pay', '']) {
        const res = await s.submit(form);
        expect(res.statusCode, form.toString()).toBe(400);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
      }
      const asJson = await s.inject({
        method: 'POST',
        url: '/payment/sandbox/checkout/',
        payload: Object.fromEntries(withDecision(fields, 'pay')),
      });
      expectProblem(asJson, 415, 'unsupported_media_type');

      expect((await s.orderOf(order)).payment_status).toBe('unpaid');
      expect((await s.paymentsOf(order))[0]).toMatchObject({ status: 'pending', amount_captured: '0.00' });
      expect(
        await t.database.db
          .select()
          .from(paymentEvents)
          .where(eq(paymentEvents.pluginId, 'sandbox'))
          .then((rows) => rows.some((r) => r.paymentId === started.payment_id)),
      ).toBe(false);
    });
  });

  describe('webhooks', () => {
    async function eventsFor(eventId: string) {
      return t.database.db
        .select()
        .from(paymentEvents)
        .where(and(eq(paymentEvents.pluginId, 'sandbox'), eq(paymentEvents.eventId, eventId)));
    }

    it('refuses a forged, missing, malformed, tampered, stale or future signature (400): changes nothing', async () => {
      const order = await s.placeOrder('4.00');
      const { reference } = await startSandbox(order);
      const body = eventBody('payment.succeeded', { reference, amount: 400 }, 'evt_forged_1');
      const now = Math.floor(Date.now() / 1000);
      const attempts: [string, string, Record<string, string>][] = [
        ['forged', body, signed(body, 'not-the-sandbox-secret-0123456789abcdef')],
        ['missing', body, {}],
        ['empty', body, { 'x-sandbox-signature': '' }],
        ['malformed', body, { 'x-sandbox-signature': 'sha256=abc' }],
        ['no v1', body, { 'x-sandbox-signature': `t=${now}` }],
        ['short v1', body, { 'x-sandbox-signature': `t=${now},v1=abcd` }],
        ['tampered body', body.replace('"amount":400', '"amount":4000'), signed(body)],
        ['stale', body, signed(body, WEBHOOK_SECRET, now - 301)],
        // Well past the tolerance: the clock moves on while the attempts before it are answered.
        ['future', body, signed(body, WEBHOOK_SECRET, now + 330)],
      ];
      for (const [what, sent, headers] of attempts) {
        const res = await s.sendWebhook(sent, headers);
        expect(res.statusCode, what).toBe(400);
        expectProblem(res, 400, 'invalid_signature');
      }
      expect(await eventsFor('evt_forged_1')).toEqual([]);
      expect((await s.orderOf(order)).payment_status).toBe('unpaid');

      const ok = await s.sendWebhook(body, signed(body, WEBHOOK_SECRET, now - 240));
      expect(ok.statusCode).toBe(200);
      expect((await s.orderOf(order)).payment_status).toBe('paid');
    });

    it('answers a replayed event 200 and applies it once', async () => {
      const order = await s.placeOrder('6.00');
      const { reference, started } = await startSandbox(order);
      const body = eventBody('payment.refunded', { reference, amount: 200 }, 'evt_replay_1');
      const pay = eventBody('payment.succeeded', { reference, amount: 600 });
      expect((await s.sendWebhook(pay, signed(pay))).statusCode).toBe(200);
      const headers = signed(body);
      for (let i = 0; i < 3; i += 1) {
        const res = await s.sendWebhook(body, headers);
        expect(res.statusCode).toBe(200);
        expect(json(res)).toEqual({ received: 1 });
      }
      expect(await eventsFor('evt_replay_1')).toEqual([
        expect.objectContaining({ paymentId: started.payment_id, applied: true }),
      ]);
      expect((await s.paymentsOf(order))[0]).toMatchObject({ status: 'partially_refunded', amount_refunded: '2.00' });
      expect((await s.orderOf(order)).payment_status).toBe('partially_refunded');
    });

    it('never moves a payment back: a late failure after success leaves the order paid', async () => {
      const order = await s.placeOrder('8.00');
      const { reference } = await startSandbox(order);
      const succeeded = eventBody('payment.succeeded', { reference, amount: 800 });
      const failed = eventBody('payment.failed', { reference, amount: 800 });
      expect((await s.sendWebhook(succeeded, signed(succeeded))).statusCode).toBe(200);
      expect((await s.sendWebhook(failed, signed(failed))).statusCode).toBe(200);
      expect((await s.paymentsOf(order))[0]).toMatchObject({ status: 'succeeded' });
      expect((await s.orderOf(order)).payment_status).toBe('paid');
    });

    it('applies refunds as running totals, in any order', async () => {
      const order = await s.placeOrder('10.00');
      const { fields, reference } = await startSandbox(order);
      await s.submit(withDecision(fields, 'pay'));
      const all = eventBody('payment.refunded', { reference, amount: 1000 });
      const part = eventBody('payment.refunded', { reference, amount: 300 });
      expect((await s.sendWebhook(all, signed(all))).statusCode).toBe(200);
      expect((await s.sendWebhook(part, signed(part))).statusCode).toBe(200);
      expect((await s.paymentsOf(order))[0]).toMatchObject({ status: 'refunded', amount_refunded: '10.00' });
      expect((await s.orderOf(order)).payment_status).toBe('refunded');
    });

    it('stores and ignores unknown event types, events for no payment, and another currency', async () => {
      const order = await s.placeOrder('2.00');
      const { reference } = await startSandbox(order);
      for (const body of [
        eventBody('payment.disputed', { reference, amount: 200 }),
        eventBody('payment.succeeded', { reference: 'pay_nobody', amount: 200 }),
        eventBody('payment.succeeded', { reference, amount: 200, currency: 'EUR' }),
      ]) {
        const res = await s.sendWebhook(body, signed(body));
        expect(res.statusCode, body).toBe(200);
      }
      expect((await s.orderOf(order)).payment_status).toBe('unpaid');
    });

    it('refuses a signed body that is not a sandbox event', async () => {
      for (const body of [
        'not json',
        '[]',
        JSON.stringify({
          id: 'evt_x',
          type: 'payment.succeeded',
          data: { reference: 'r', amount: 1.5, currency: 'USD' },
        }),
      ]) {
        expectProblem(await s.sendWebhook(body, signed(body)), 400, 'invalid_signature');
      }
    });

    it('refunds a sandbox payment through the sandbox (which moves no money) and records it', async () => {
      const order = await s.placeOrder('5.00');
      const { fields, started } = await startSandbox(order);
      await s.submit(withDecision(fields, 'pay'));
      const res = await s.inject({
        method: 'POST',
        url: `/payment/dashboard/api/payments/${started.payment_id}/refund/`,
        headers: bearer(admin.access),
        payload: { amount: '1.25' },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(json(res)).toMatchObject({ status: 'partially_refunded', amount_refunded: '1.25' });
      const refunded = await s.orderOf(order);
      // A goodwill refund is a credit: nothing becomes due, and the order cannot be billed again.
      expect(refunded).toMatchObject({ payment_status: 'partially_refunded' });
      expect(refunded.ledger).toMatchObject({
        refunded: '1.25',
        credited: '1.25',
        balance_due: '0.00',
        to_pay: '0.00',
      });
      expectProblem(await s.start('sandbox', order), 409, 'order_already_paid');
    });
  });

  describe("the customer's view of an order's payments", () => {
    it('shows the order token holder the payments with what was taken and refunded, and nobody else', async () => {
      const order = await s.placeOrder('8.00');
      const { fields, started } = await startSandbox(order);
      await s.submit(withDecision(fields, 'pay'));
      await s.inject({
        method: 'POST',
        url: `/payment/dashboard/api/payments/${started.payment_id}/refund/`,
        headers: bearer(admin.access),
        payload: { amount: '3.00' },
      });
      const url = `/payment/storefront/api/orders/${order.alias}/payments/`;
      const res = await s.inject({ method: 'GET', url, headers: { 'x-order-token': order.token } });
      expect(res.statusCode, res.body).toBe(200);
      expect(json(res)).toEqual([
        expect.objectContaining({
          id: started.payment_id,
          plugin_id: 'sandbox',
          status: 'partially_refunded',
          amount_captured: order.total,
          amount_refunded: '3.00',
        }),
      ]);
      expectProblem(await s.inject({ method: 'GET', url }), 404, 'order_not_found');
      expectProblem(
        await s.inject({ method: 'GET', url, headers: { 'x-order-token': 'not-the-token' } }),
        404,
        'order_not_found',
      );
      const stranger = await signUp(t.app);
      expectProblem(await s.inject({ method: 'GET', url, headers: bearer(stranger.access) }), 404, 'order_not_found');
    });
  });

  describe('cash on delivery', () => {
    it('stays pending until an admin records the cash, then refunds in part and in full', async () => {
      const order = await s.placeOrder('15.00');
      const res = await s.start('cash_on_delivery', order);
      expect(res.statusCode, res.body).toBe(200);
      const started = json(res);
      expect(started).toMatchObject({ amount: '15.00', currency: 'USD' });
      const landing = await openAsBrowser(t, started.url);
      expect(landing.url.pathname).toBe(orderPagePath(order.alias));
      expect(landing.page?.body).toContain('data-payment-outcome="pending"');
      expect((await s.paymentsOf(order))[0]).toMatchObject({
        id: started.payment_id,
        plugin_id: 'cash_on_delivery',
        status: 'pending',
      });
      expect((await s.orderOf(order)).payment_status).toBe('unpaid');

      const capture = `/payment/dashboard/api/payments/${started.payment_id}/capture/`;
      const customer = await signUp(t.app);
      expectProblem(
        await s.inject({ method: 'POST', url: capture, headers: bearer(customer.access) }),
        403,
        'forbidden',
      );
      expectProblem(await s.inject({ method: 'POST', url: capture }), 401, 'unauthorized');
      expect((await s.orderOf(order)).payment_status).toBe('unpaid');

      const captured = await s.inject({ method: 'POST', url: capture, headers: bearer(admin.access) });
      expect(captured.statusCode, captured.body).toBe(200);
      expect(json(captured)).toMatchObject({ status: 'succeeded', amount_captured: '15.00' });
      expect((await s.orderOf(order)).payment_status).toBe('paid');
      expectProblem(
        await s.inject({ method: 'POST', url: capture, headers: bearer(admin.access) }),
        409,
        'invalid_transition',
      );

      const refund = `/payment/dashboard/api/payments/${started.payment_id}/refund/`;
      const part = await s.inject({
        method: 'POST',
        url: refund,
        headers: bearer(admin.access),
        payload: { amount: '5.00' },
      });
      expect(json(part)).toMatchObject({ status: 'partially_refunded', amount_refunded: '5.00' });
      expect((await s.orderOf(order)).payment_status).toBe('partially_refunded');
      const rest = await s.inject({ method: 'POST', url: refund, headers: bearer(admin.access), payload: {} });
      expect(json(rest)).toMatchObject({ status: 'refunded', amount_refunded: '15.00' });
      expect((await s.orderOf(order)).payment_status).toBe('refunded');
    });

    it("cannot be captured through the sandbox's own payments", async () => {
      const order = await s.placeOrder('1.00');
      const { started } = await startSandbox(order);
      expectProblem(
        await s.inject({
          method: 'POST',
          url: `/payment/dashboard/api/payments/${started.payment_id}/capture/`,
          headers: bearer(admin.access),
        }),
        409,
        'invalid_transition',
      );
    });
  });
});

describe.each([
  { currency: 'JPY', price: '2335', quantity: 1, shown: '2335 JPY', minor: 2335 },
  { currency: 'KWD', price: '1174.300', quantity: 2, shown: '2348.600 KWD', minor: 2_348_600 },
])('sandbox in a $currency store', ({ currency, price, quantity, shown, minor }) => {
  let t: TestApp;
  let s: ReturnType<typeof store>;
  beforeAll(async () => {
    t = await buildTestApp({ config: { paymentPlugins: ['sandbox', 'cash_on_delivery'], storeCurrency: currency } });
    s = store(t, await signInAdmin(t));
  });
  afterAll(() => t.close());

  it(`charges and shows the order total with the currency's exact precision (${shown})`, async () => {
    const order = await s.placeOrder(price, quantity);
    expect(`${order.total} ${currency}`).toBe(shown);
    const started = json(await s.start('sandbox', order));
    expect(`${started.amount} ${started.currency}`).toBe(shown);
    const url = new URL(started.url);
    expect(url.searchParams.get('amount')).toBe(String(minor));
    const page = await s.openCheckout(started.url);
    expect(page.body).toContain(shown);
    const paid = await s.submit(withDecision(formFields(page), 'pay'));
    expect(paid.statusCode).toBe(303);
    const landing = await openAsBrowser(t, String(paid.headers.location));
    expect(landing.page?.statusCode).toBe(200);
    expect(landing.page?.body).toContain(`<strong>${shown}</strong>`);
    expect((await s.orderOf(order)).payment_status).toBe('paid');
    expect((await s.paymentsOf(order))[0]).toMatchObject({ status: 'succeeded', amount_captured: order.total });

    const cod = await s.placeOrder(price, quantity);
    expect(json(await s.start('cash_on_delivery', cod))).toMatchObject({ amount: order.total, currency });
  });
});

describe('sandbox told to fail, in a store that authorizes only (PAYMENT_CAPTURE=manual)', () => {
  let t: TestApp;
  let admin: SignedIn;
  let s: ReturnType<typeof store>;
  beforeAll(async () => {
    t = await buildTestApp({
      config: { paymentPlugins: ['sandbox'], paymentCapture: 'manual' },
      pluginEnv: { SANDBOX_FAIL_OPERATIONS: 'refund' },
    });
    admin = await signInAdmin(t);
    s = store(t, admin);
  });
  afterAll(() => t.close());

  it('links to a checkout signed for authorizing only, whose page offers Authorize instead of Pay', async () => {
    const order = await s.placeOrder('8.00');
    const started = json(await s.start('sandbox', order));
    expect(new URL(started.url).searchParams.get('capture')).toBe('manual');
    const page = await s.openCheckout(started.url);
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/<button[^>]*value="authorize"[^>]*>Authorize<\/button>/);
    expect(page.body).not.toMatch(/>Pay<\/button>/);
    // Switching the signed link to paying at once is refused.
    const fields = withDecision(formFields(page), 'pay');
    expect((await s.submit(fields)).statusCode).toBe(400);
    fields.set('capture', 'automatic');
    expect((await s.submit(fields)).statusCode).toBe(400);
  });

  it('answers a refund the sandbox refuses (SANDBOX_FAIL_OPERATIONS=refund) with 502, recording nothing', async () => {
    const order = await s.placeOrder('6.00');
    const started = json(await s.start('sandbox', order));
    // Paid by the sandbox's own succeeded event (this store's checkout only authorizes).
    const body = eventBody('payment.succeeded', { reference: referenceOf(started.url), amount: 600 });
    expect((await s.sendWebhook(body, signed(body))).statusCode).toBe(200);
    const res = await s.inject({
      method: 'POST',
      url: `/payment/dashboard/api/payments/${started.payment_id}/refund/`,
      headers: bearer(admin.access),
      payload: { amount: '1.00' },
    });
    expectProblem(res, 502, 'payment_gateway_error');
    expect(json(res).detail).toMatch(/refused refund on purpose \(SANDBOX_FAIL_OPERATIONS\)/);
    expect((await s.paymentsOf(order))[0]).toMatchObject({ status: 'succeeded', amount_refunded: '0.00' });
  });
});

describe('authorize, then capture (PAYMENT_CAPTURE=manual, sandbox)', () => {
  let t: TestApp;
  let admin: SignedIn;
  let s: ReturnType<typeof store>;
  beforeAll(async () => {
    t = await buildTestApp({ config: { paymentPlugins: ['sandbox'], paymentCapture: 'manual' } });
    admin = await signInAdmin(t);
    s = store(t, admin);
  });
  afterAll(() => t.close());

  /** An order of `total` authorized through the sandbox's checkout page. */
  async function authorized(total: string) {
    const order = await s.placeOrder(total);
    const started = json(await s.start('sandbox', order));
    const page = await s.openCheckout(started.url);
    expect((await s.submit(withDecision(formFields(page), 'authorize'))).statusCode).toBe(303);
    return { order, paymentId: started.payment_id as number, reference: referenceOf(started.url) };
  }
  const admin$ = (url: string, payload?: object, headers: Record<string, string> = {}) =>
    s.inject({ method: 'POST', url, headers: { ...bearer(admin.access), ...headers }, payload: payload ?? {} });
  const capture = (id: number, payload?: object, headers?: Record<string, string>) =>
    admin$(`/payment/dashboard/api/payments/${id}/capture/`, payload, headers);
  const types = async (order: PlacedOrder) => {
    const page = json(
      await s.inject({
        method: 'GET',
        url: `/event/dashboard/api/events/?order_alias=${order.alias}&limit=100`,
        headers: bearer(admin.access),
      }),
    );
    return (page.items as { type: string }[]).map((e) => e.type).reverse();
  };

  it('holds the money: the order is authorized and approved, nothing to pay, the expiry shown', async () => {
    const { order, paymentId } = await authorized('25.00');
    const held = await s.orderOf(order);
    expect(held).toMatchObject({ status: 'approved', payment_status: 'authorized' });
    expect(held.ledger).toMatchObject({ authorized: '25.00', captured: '0.00', capturable: '25.00', to_pay: '0.00' });
    expect((await s.paymentsOf(order))[0]).toMatchObject({ id: paymentId, status: 'authorized', capturable: '25.00' });
    expect((await s.paymentsOf(order))[0].authorization_expires_at).toMatch(/^\d{4}-/);
    expectProblem(await s.start('sandbox', order), 409, 'order_already_paid');
    expect(await types(order)).toEqual(['order.placed', 'payment.authorized', 'order.status_changed']);
  });

  it('captures part of it, releasing the rest; the customer then pays the remainder', async () => {
    const { order, paymentId } = await authorized('25.00');
    const res = await capture(paymentId, { amount: '10.00' });
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res)).toMatchObject({
      status: 'succeeded',
      amount_authorized: '25.00',
      amount_captured: '10.00',
      amount_voided: '15.00',
      capturable: '0.00',
    });
    const after = await s.orderOf(order);
    expect(after).toMatchObject({ payment_status: 'partially_paid' });
    expect(after.ledger).toMatchObject({ captured: '10.00', balance_due: '15.00', to_pay: '15.00' });
    expect(json(await s.start('sandbox', order))).toMatchObject({ amount: '15.00' });
    expect((await types(order)).slice(-2)).toEqual(['payment.succeeded', 'payment.captured']);
  });

  it('refuses a capture above what is held with 422 naming the figure, and one of nothing left with 409', async () => {
    const { paymentId } = await authorized('25.00');
    const over = await capture(paymentId, { amount: '25.01' });
    expectProblem(over, 422, 'capture_exceeds_capturable');
    expect(json(over)).toMatchObject({ capturable: '25.00' });
    expect((await capture(paymentId)).statusCode).toBe(200);
    expectProblem(await capture(paymentId), 409, 'invalid_transition');
  });

  it('voids an authorization: nothing taken, the order unpaid again, payment.voided recorded', async () => {
    const { order, paymentId } = await authorized('12.00');
    const res = await admin$(`/payment/dashboard/api/payments/${paymentId}/void/`);
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res)).toMatchObject({ status: 'voided', amount_voided: '12.00', capturable: '0.00' });
    expect(await s.orderOf(order)).toMatchObject({ payment_status: 'unpaid', ledger: { to_pay: '12.00' } });
    expect((await types(order)).at(-1)).toBe('payment.voided');
    expectProblem(await capture(paymentId), 409, 'invalid_transition');
  });

  it('captures once when a capture is retried after a timeout with the same Idempotency-Key', async () => {
    const { order, paymentId } = await authorized('20.00');
    const gateway = t.payments.get('sandbox')?.gateway;
    if (!gateway?.capture) throw new Error('the sandbox has no capture');
    const real = gateway.capture.bind(gateway);
    const keys: string[] = [];
    const spy = vi.spyOn(gateway, 'capture').mockImplementation(async (input) => {
      keys.push(input.idempotencyKey);
      // The first call times out after the gateway took the money: its outcome is unknown to the store.
      if (keys.length === 1) {
        await real(input);
        throw new GatewayError('the gateway did not answer in time', true);
      }
      return real(input);
    });
    try {
      const first = await capture(paymentId, { amount: '20.00' }, { 'idempotency-key': 'cap-1' });
      expectProblem(first, 502, 'payment_gateway_error');
      expect(json(first)).toMatchObject({ retryable: true });
      // The record stays open and holds its amount: another capture without the key finds nothing to take.
      expectProblem(await capture(paymentId), 409, 'invalid_transition');
      const again = await capture(paymentId, { amount: '20.00' }, { 'idempotency-key': 'cap-1' });
      expect(again.statusCode, again.body).toBe(200);
      expect(json(again)).toMatchObject({ amount_captured: '20.00' });
      expect(keys).toHaveLength(2);
      expect(keys[1]).toBe(keys[0]);
      const third = await capture(paymentId, { amount: '20.00' }, { 'idempotency-key': 'cap-1' });
      expect(json(third)).toMatchObject({ amount_captured: '20.00' });
      expect(keys).toHaveLength(2);
      expect(await s.orderOf(order)).toMatchObject({ payment_status: 'paid', ledger: { captured: '20.00' } });
    } finally {
      spy.mockRestore();
    }
  });

  it('converges when the capture and refund webhooks arrive before the authorization, and repeats', async () => {
    const order = await s.placeOrder('30.00');
    const started = json(await s.start('sandbox', order));
    const reference = referenceOf(started.url);
    const events = [
      eventBody('payment.refunded', { reference, amount: 500 }),
      eventBody('payment.captured', { reference, amount: 3000 }),
      eventBody('payment.authorized', { reference, amount: 3000 }),
    ];
    for (const body of [...events, ...events]) expect((await s.sendWebhook(body, signed(body))).statusCode).toBe(200);
    expect((await s.paymentsOf(order))[0]).toMatchObject({
      status: 'partially_refunded',
      amount_authorized: '30.00',
      amount_captured: '30.00',
      amount_refunded: '5.00',
    });
    expect(await s.orderOf(order)).toMatchObject({
      payment_status: 'partially_refunded',
      ledger: { captured: '30.00', refunded: '5.00', credited: '5.00', balance_due: '0.00' },
    });
  });
});
