import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { GatewayError, type PluginContext, PluginConfigError, WebhookSignatureError } from '../../payment-plugin.js';
import { escapeHtml, renderCheckoutPage } from './checkout-page.js';
import { normaliseSandboxEvent } from './events.js';
import sandbox, { AUTHORIZATION_SECONDS, sandboxEvent, signSandboxWebhook, verifySandboxWebhook } from './index.js';
import type { SimulatedFailures } from './operations.js';
import { type CheckoutParams, signCheckout, verifyCheckout } from './signing.js';

const params: CheckoutParams = {
  reference: 'pay_1',
  amountMinor: 2468,
  currency: 'USD',
  exponent: 2,
  orderAlias: 'a1',
  returnUrl: 'https://shop.example/thanks?a=1&b=2',
  cancelUrl: 'https://shop.example/cart',
  captureMethod: 'automatic',
  expiresAt: Math.floor(Date.now() / 1000) + 600,
};

function gateway(
  deliver: PluginContext['deliverWebhook'] = async () => ({ status: 200 }),
  failures: SimulatedFailures = {},
) {
  return sandbox.create(
    { failures },
    {
      publicBaseUrl: 'https://shop.example/store',
      secret: (name) => `unit-secret-${name}-0123456789abcdef`,
      deliverWebhook: deliver,
    },
  );
}

describe('sandbox configuration', () => {
  it('is on by default on the embedded database, and elsewhere only when named', () => {
    expect(sandbox.configure({}, { explicit: false, embeddedDatabase: true })).toEqual({ failures: {} });
    expect(sandbox.configure({}, { explicit: false, embeddedDatabase: false })).toBeUndefined();
    expect(sandbox.configure({}, { explicit: true, embeddedDatabase: false })).toEqual({ failures: {} });
  });

  it('reads the operations SANDBOX_FAIL_OPERATIONS makes fail, and whether they are retryable', () => {
    const on = { explicit: true, embeddedDatabase: true };
    expect(sandbox.configure({ SANDBOX_FAIL_OPERATIONS: ' capture:retryable, void ,refund' }, on)).toEqual({
      failures: { capture: { retryable: true }, void: { retryable: false }, refund: { retryable: false } },
    });
    expect(sandbox.configure({ SANDBOX_FAIL_OPERATIONS: '' }, on)).toEqual({ failures: {} });
    for (const bad of ['capture:later', 'pay', 'capture,', 'void:retryable:again'])
      expect(() => sandbox.configure({ SANDBOX_FAIL_OPERATIONS: bad }, on), bad).toThrow(PluginConfigError);
    expect(() => sandbox.configure({ SANDBOX_FAIL_OPERATIONS: 'pay' }, on)).toThrow(/^SANDBOX_FAIL_OPERATIONS must/);
  });

  it('declares every capability, and has the method each one needs', () => {
    expect(sandbox.capabilities).toEqual([
      'authorize',
      'capture',
      'partial_capture',
      'void',
      'refund',
      'partial_refund',
    ]);
    const g = gateway();
    for (const method of ['capture', 'void', 'refund', 'cancelAttempt'] as const)
      expect(typeof g[method], method).toBe('function');
  });
});

describe('checkout links', () => {
  it('verifies what it signed, and nothing altered, added twice or signed with another key', () => {
    const fields = signCheckout('k'.repeat(32), params);
    expect(verifyCheckout('k'.repeat(32), fields)).toEqual({ ok: true, params });
    expect(verifyCheckout('x'.repeat(32), fields).ok).toBe(false);
    const altered = new URLSearchParams(fields);
    altered.set('exponent', '0');
    expect(verifyCheckout('k'.repeat(32), altered).ok).toBe(false);
    const paidInstead = new URLSearchParams(signCheckout('k'.repeat(32), { ...params, captureMethod: 'manual' }));
    paidInstead.set('capture', 'automatic');
    expect(verifyCheckout('k'.repeat(32), paidInstead)).toEqual({
      ok: false,
      reason: "the link's signature does not match its contents",
    });
    const doubled = new URLSearchParams(fields);
    doubled.append('amount', '1');
    expect(verifyCheckout('k'.repeat(32), doubled)).toEqual({
      ok: false,
      reason: 'the link has amount more than once',
    });
  });

  it('refuses a link once it has expired, with a reason the payer understands', () => {
    const fields = signCheckout('k'.repeat(32), params);
    expect(verifyCheckout('k'.repeat(32), fields, (params.expiresAt - 1) * 1000).ok).toBe(true);
    expect(verifyCheckout('k'.repeat(32), fields, (params.expiresAt + 1) * 1000)).toEqual({
      ok: false,
      reason: 'the link has expired; start the payment again from the store',
    });
  });

  it('links to a page under PUBLIC_BASE_URL, and the page posts back there', async () => {
    const started = await gateway().start({
      reference: 'pay_9',
      order: { alias: 'o-9', email: null, totalItems: 1 },
      amount: { amountMinor: 5, currency: 'KWD', exponent: 3 },
      returnUrl: params.returnUrl,
      cancelUrl: params.cancelUrl,
      captureMethod: 'automatic',
      idempotencyKey: 'k',
    });
    expect(started.gatewayRef).toBe('sbx_pay_9');
    expect(started.redirectUrl).toMatch(
      new RegExp(
        '^https://shop\\.example/store/payment/sandbox/checkout/'
          + '\\?reference=pay_9&amount=5&currency=KWD&exponent=3&',
      ),
    );
    const app = Fastify();
    await gateway().routes?.(app);
    const url = new URL(started.redirectUrl);
    const page = await app.inject({ method: 'GET', url: url.pathname.replace('/store', '') + url.search });
    expect(page.body).toContain('0.005 KWD');
    expect(page.body).toContain('action="/store/payment/sandbox/checkout/"');
    await app.close();
  });
});

describe('checkout page', () => {
  it('escapes every value it shows or carries', () => {
    const evil = { ...params, orderAlias: '<script>alert(1)</script>', returnUrl: 'https://x.example/"><img src=x>' };
    const html = renderCheckoutPage({ params: evil, fields: signCheckout('k'.repeat(32), evil), action: '/a"b' });
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('action="/a&quot;b"');
    expect(escapeHtml('&<>"\'')).toBe('&amp;&lt;&gt;&quot;&#39;');
  });
});

describe('checkout decision', () => {
  it('shows an error page, not a redirect, when the service does not accept the webhook', async () => {
    const sent: { headers: Record<string, string>; rawBody: Buffer }[] = [];
    const g = gateway(async (request) => {
      sent.push(request);
      return { status: 500 };
    });
    const app = Fastify();
    await g.routes?.(app);
    const started = await g.start({
      reference: 'pay_2',
      order: { alias: 'o-2', email: null, totalItems: 1 },
      amount: { amountMinor: 100, currency: 'USD', exponent: 2 },
      returnUrl: params.returnUrl,
      cancelUrl: params.cancelUrl,
      captureMethod: 'automatic',
      idempotencyKey: 'k',
    });
    const form = new URL(started.redirectUrl).searchParams;
    form.set('decision', 'pay');
    const res = await app.inject({
      method: 'POST',
      url: '/payment/sandbox/checkout/',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    });
    expect(res.statusCode).toBe(502);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers.location).toBeUndefined();

    // What was sent is what parseWebhook accepts: a signed payment.succeeded for the reference.
    const [delivery] = sent;
    expect(delivery?.headers['content-type']).toBe('application/json');
    const events = await g.parseWebhook({
      headers: delivery?.headers ?? {},
      rawBody: delivery?.rawBody ?? Buffer.alloc(0),
    });
    expect(events).toEqual([
      {
        eventId: expect.stringMatching(/^evt_[0-9a-f]{24}$/),
        kind: 'succeeded',
        match: { reference: 'pay_2' },
        amount: { amountMinor: 100, currency: 'USD', exponent: 2 },
      },
    ]);
    await app.close();
  });
});

describe('manual capture checkout', () => {
  async function manualCheckout() {
    const sent: { headers: Record<string, string>; rawBody: Buffer }[] = [];
    const g = gateway(async (request) => {
      sent.push(request);
      return { status: 200 };
    });
    const app = Fastify();
    await g.routes?.(app);
    const started = await g.start({
      reference: 'pay_3',
      order: { alias: 'o-3', email: null, totalItems: 1 },
      amount: { amountMinor: 4500, currency: 'JPY', exponent: 0 },
      returnUrl: params.returnUrl,
      cancelUrl: params.cancelUrl,
      captureMethod: 'manual',
      idempotencyKey: 'k',
    });
    const url = new URL(started.redirectUrl);
    const submit = (decision: string) => {
      const form = new URLSearchParams(url.searchParams);
      form.set('decision', decision);
      return app.inject({
        method: 'POST',
        url: '/payment/sandbox/checkout/',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: form.toString(),
      });
    };
    return { g, app, url, sent, submit };
  }

  it('offers Authorize instead of Pay, for a link signed with the manual capture method', async () => {
    const { app, url } = await manualCheckout();
    expect(url.searchParams.get('capture')).toBe('manual');
    const page = await app.inject({ method: 'GET', url: url.pathname.replace('/store', '') + url.search });
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/<button[^>]*value="authorize"[^>]*>Authorize<\/button>/);
    expect(page.body).not.toContain('>Pay<');
    expect(page.body).toContain('4500 JPY');
    await app.close();
  });

  it('sends a signed payment.authorized that lapses in 7 days, then returns the payer to the store', async () => {
    const { g, app, sent, submit } = await manualCheckout();
    const before = Math.floor(Date.now() / 1000);
    const res = await submit('authorize');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(params.returnUrl);
    const [delivery] = sent;
    const events = await g.parseWebhook({
      headers: delivery?.headers ?? {},
      rawBody: delivery?.rawBody ?? Buffer.alloc(0),
    });
    expect(events).toEqual([
      {
        eventId: expect.stringMatching(/^evt_[0-9a-f]{24}$/),
        kind: 'authorized',
        match: { reference: 'pay_3' },
        amount: { amountMinor: 4500, currency: 'JPY', exponent: 0 },
        authorizationExpiresAt: expect.any(Date),
      },
    ]);
    const expiresAt = (events[0]?.authorizationExpiresAt?.getTime() ?? 0) / 1000;
    expect(expiresAt - before).toBeGreaterThanOrEqual(AUTHORIZATION_SECONDS);
    expect(expiresAt - before).toBeLessThanOrEqual(AUTHORIZATION_SECONDS + 5);
    await app.close();
  });

  it('refuses Pay on an authorize-only link (and Authorize on a pay link), sending nothing', async () => {
    const { app, sent, submit } = await manualCheckout();
    const res = await submit('pay');
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Choose Authorize or Decline.');
    expect(sent).toEqual([]);
    await app.close();

    const g = gateway();
    const automatic = Fastify();
    await g.routes?.(automatic);
    const form = signCheckout('unit-secret-checkout-0123456789abcdef', params);
    form.set('decision', 'authorize');
    const refused = await automatic.inject({
      method: 'POST',
      url: '/payment/sandbox/checkout/',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('Choose Pay or Decline.');
    await automatic.close();
  });

  it('declines an authorize-only link as before: payment.failed, back through the cancel link', async () => {
    const { g, app, sent, submit } = await manualCheckout();
    const res = await submit('decline');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(params.cancelUrl);
    const events = await g.parseWebhook({
      headers: sent[0]?.headers ?? {},
      rawBody: sent[0]?.rawBody ?? Buffer.alloc(0),
    });
    expect(events).toMatchObject([{ kind: 'failed', match: { reference: 'pay_3' } }]);
    await app.close();
  });
});

describe('sandbox events', () => {
  const normalise = (event: object) => normaliseSandboxEvent(Buffer.from(JSON.stringify(event)));
  const usd = (amountMinor: number) => ({ amountMinor, currency: 'USD', exponent: 2 });

  it('normalises authorized, captured (a running total) and voided events', () => {
    const data = { reference: 'pay_1', amount: 1500, currency: 'USD' };
    expect(normalise({ ...sandboxEvent('payment.authorized', data), id: 'evt_a' })).toEqual([
      { eventId: 'evt_a', kind: 'authorized', match: { reference: 'pay_1' }, amount: usd(1500) },
    ]);
    expect(
      normalise({
        ...sandboxEvent('payment.authorized', { ...data, authorization_expires_at: 1_800_000_000 }),
        id: 'e',
      }),
    ).toMatchObject([{ kind: 'authorized', authorizationExpiresAt: new Date(1_800_000_000_000) }]);
    expect(normalise({ ...sandboxEvent('payment.captured', { ...data, amount: 1200 }), id: 'evt_c' })).toEqual([
      { eventId: 'evt_c', kind: 'captured', match: { reference: 'pay_1' }, amount: usd(1200) },
    ]);
    expect(normalise({ ...sandboxEvent('payment.voided', data), id: 'evt_v' })).toEqual([
      { eventId: 'evt_v', kind: 'voided', match: { reference: 'pay_1' } },
    ]);
    expect(
      normalise({
        ...sandboxEvent('payment.captured', { reference: 'pay_1', amount: 1230, currency: 'KWD' }),
        id: 'k',
      }),
    ).toMatchObject([{ amount: { amountMinor: 1230, currency: 'KWD', exponent: 3 } }]);
  });

  it('refuses an authorization expiry that is not Unix seconds', () => {
    for (const expiry of ['2030-01-01', 1.5, -1])
      expect(() =>
        normalise({
          id: 'evt_x',
          type: 'payment.authorized',
          created: 1,
          data: { reference: 'pay_1', amount: 1, currency: 'USD', authorization_expires_at: expiry },
        }),
      ).toThrow(WebhookSignatureError);
  });
});

describe('sandbox operations', () => {
  const attempt = { reference: 'pay_7', gatewayRef: 'sbx_pay_7', gatewayPaymentRef: null };
  const usd = (amountMinor: number) => ({ amountMinor, currency: 'USD', exponent: 2 });

  it('captures, refunds, voids and cancels without state, answering the same reference for the same key', async () => {
    const g = gateway();
    const capture = { ...attempt, amount: usd(700), final: true, idempotencyKey: 'capture-1' };
    const first = await g.capture?.(capture);
    expect(first?.gatewayRef).toMatch(/^sbx_cap_[0-9a-f]{24}$/);
    expect(await g.capture?.(capture)).toEqual(first);
    expect((await g.capture?.({ ...capture, idempotencyKey: 'capture-2' }))?.gatewayRef).not.toBe(first?.gatewayRef);
    expect((await g.refund?.({ ...attempt, amount: usd(300), idempotencyKey: 'refund-1' }))?.gatewayRef).toMatch(
      /^sbx_re_[0-9a-f]{24}$/,
    );
    await expect(g.void?.({ ...attempt, idempotencyKey: 'void-1' })).resolves.toBeUndefined();
    await expect(g.cancelAttempt?.(attempt)).resolves.toBeUndefined();
    await expect(g.cancelAttempt?.({ ...attempt, gatewayRef: null })).resolves.toBeUndefined();
  });

  it('refuses, for good, what is not a sandbox payment or not a whole positive amount in its currency', async () => {
    const g = gateway();
    const capture = { ...attempt, amount: usd(700), final: true, idempotencyKey: 'k' };
    const refused = [
      g.capture?.({ ...capture, gatewayRef: 'cs_test_1' }),
      g.capture?.({ ...capture, gatewayRef: null }),
      g.capture?.({ ...capture, amount: usd(0) }),
      g.capture?.({ ...capture, amount: usd(1.5) }),
      g.capture?.({ ...capture, amount: { amountMinor: 100, currency: 'JPY', exponent: 2 } }),
      g.capture?.({ ...capture, amount: { amountMinor: 100, currency: 'XYZ', exponent: 2 } }),
      g.capture?.({ ...capture, idempotencyKey: '' }),
      g.refund?.({ ...attempt, amount: usd(-5), idempotencyKey: 'k' }),
      g.void?.({ ...attempt, gatewayRef: 'sbx_pay_8', idempotencyKey: 'k' }),
      g.cancelAttempt?.({ ...attempt, gatewayRef: 'sbx_other' }),
    ];
    for (const [i, call] of refused.entries()) {
      const err = await call?.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err, String(i)).toBeInstanceOf(GatewayError);
      expect(err, String(i)).toMatchObject({ retryable: false });
    }
  });

  it('fails exactly the operations SANDBOX_FAIL_OPERATIONS names, retryable when it says so', async () => {
    const config = sandbox.configure(
      { SANDBOX_FAIL_OPERATIONS: 'capture:retryable,void,cancel_attempt,start' },
      { explicit: true, embeddedDatabase: true },
    );
    const g = gateway(undefined, config?.failures);
    const capture = { ...attempt, amount: usd(700), final: true, idempotencyKey: 'k' };
    await expect(g.capture?.(capture)).rejects.toMatchObject({
      name: 'GatewayError',
      retryable: true,
      message: 'the sandbox refused capture on purpose (SANDBOX_FAIL_OPERATIONS, retryable)',
    });
    await expect(g.void?.({ ...attempt, idempotencyKey: 'k' })).rejects.toMatchObject({ retryable: false });
    await expect(g.cancelAttempt?.(attempt)).rejects.toBeInstanceOf(GatewayError);
    await expect(
      g.start({
        reference: 'pay_7',
        order: { alias: 'o-7', email: null, totalItems: 1 },
        amount: usd(700),
        returnUrl: params.returnUrl,
        cancelUrl: params.cancelUrl,
        captureMethod: 'automatic',
        idempotencyKey: 'k',
      }),
    ).rejects.toBeInstanceOf(GatewayError);
    // Not named: works.
    await expect(g.refund?.({ ...attempt, amount: usd(100), idempotencyKey: 'k' })).resolves.toMatchObject({
      gatewayRef: expect.stringMatching(/^sbx_re_/),
    });
    // A bad input is still refused for what it is, before any simulated failure.
    await expect(g.capture?.({ ...capture, amount: usd(0) })).rejects.toMatchObject({ retryable: false });
  });
});

describe('webhook signatures', () => {
  const secret = 's'.repeat(40);
  const body = Buffer.from('{"id":"evt_1"}');
  const now = 1_800_000_000;

  it('accepts a fresh signature of the exact bytes, up to 5 minutes either way', () => {
    for (const t of [now, now - 300, now + 300])
      expect(() =>
        verifySandboxWebhook(secret, { header: signSandboxWebhook(secret, body, t), rawBody: body }, now * 1000),
      ).not.toThrow();
  });

  it('refuses anything else with WebhookSignatureError', () => {
    const good = signSandboxWebhook(secret, body, now);
    const cases: (string | string[] | undefined)[] = [
      undefined,
      '',
      [good, good],
      'garbage',
      `t=${now}`,
      `v1=${'a'.repeat(64)}`,
      `t=abc,${good.split(',')[1]}`,
      `t=${now},t=${now},${good.split(',')[1]}`,
      signSandboxWebhook(secret, body, now - 301),
      signSandboxWebhook(secret, body, now + 301),
      signSandboxWebhook('other'.repeat(8), body, now),
      good.replace(/.$/, (c) => (c === '0' ? '1' : '0')),
    ];
    for (const header of cases)
      expect(() => verifySandboxWebhook(secret, { header, rawBody: body }, now * 1000), String(header)).toThrow(
        WebhookSignatureError,
      );
    expect(() =>
      verifySandboxWebhook(secret, { header: good, rawBody: Buffer.from('{"id":"evt_2"}') }, now * 1000),
    ).toThrow(WebhookSignatureError);
  });

  it("accepts a rotated secret's extra v1 alongside the current one", () => {
    const good = signSandboxWebhook(secret, body, now);
    const header = `t=${now},v1=${'0'.repeat(64)},${good.split(',')[1]}`;
    expect(() => verifySandboxWebhook(secret, { header, rawBody: body }, now * 1000)).not.toThrow();
  });
});
