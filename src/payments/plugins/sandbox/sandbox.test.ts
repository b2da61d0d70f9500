import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { type PluginContext, WebhookSignatureError } from '../../payment-plugin.js';
import { escapeHtml, renderCheckoutPage } from './checkout-page.js';
import sandbox, { signSandboxWebhook, verifySandboxWebhook } from './index.js';
import { signCheckout, verifyCheckout } from './signing.js';

const params = {
  reference: 'pay_1',
  amountMinor: 2468,
  currency: 'USD',
  exponent: 2,
  orderAlias: 'a1',
  returnUrl: 'https://shop.example/thanks?a=1&b=2',
  cancelUrl: 'https://shop.example/cart',
  expiresAt: Math.floor(Date.now() / 1000) + 600,
};

function gateway(deliver: PluginContext['deliverWebhook'] = async () => ({ status: 200 })) {
  return sandbox.create(
    {},
    {
      publicBaseUrl: 'https://shop.example/store',
      secret: (name) => `unit-secret-${name}-0123456789abcdef`,
      deliverWebhook: deliver,
    },
  );
}

describe('sandbox configuration', () => {
  it('is on by default on the embedded database, and elsewhere only when named', () => {
    expect(sandbox.configure({}, { explicit: false, embeddedDatabase: true })).toEqual({});
    expect(sandbox.configure({}, { explicit: false, embeddedDatabase: false })).toBeUndefined();
    expect(sandbox.configure({}, { explicit: true, embeddedDatabase: false })).toEqual({});
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
      /^https:\/\/shop\.example\/store\/payment\/sandbox\/checkout\/\?reference=pay_9&amount=5&currency=KWD&exponent=3&/,
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
