import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTokenService } from '../src/auth/tokens.js';
import { hiddenFormFields, openAsBrowser } from './browser.js';
import { adminApi, placeGuestOrder } from './fixtures.js';
import { buildTestApp, expectProblem, json, type SignedIn, signInAdmin, signUp, type TestApp } from './helpers.js';

const address = {
  first_name: '<b>Sam</b>',
  last_name: "O'Guest",
  street_address: '1 Test Way & Sons',
  city: 'Austin',
  postal_code: '73301',
  state: 'TX',
  country: 'US',
  email: 'sam@example.com',
};

interface PlacedOrder {
  alias: string;
  token: string;
}

/** Moves the clock the service (and jose) read, leaving timers alone so the database keeps working. */
function advanceClock(ms: number): void {
  if (!vi.isFakeTimers()) vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + ms);
}

const MINUTE = 60_000;

/** The text with one character changed (inside a signature: a different signature). */
const flipAt = (text: string, at: number) => `${text.slice(0, at)}${text[at] === 'A' ? 'B' : 'A'}${text.slice(at + 1)}`;

describe('a guest back from paying', () => {
  let t: TestApp;
  let admin: SignedIn;
  let seq = 0;

  beforeAll(async () => {
    t = await buildTestApp({ config: { paymentPlugins: ['sandbox', 'cash_on_delivery'] } });
    admin = await signInAdmin(t);
  });
  afterAll(() => t.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  async function placeOrder(input: { name?: string; price?: string; quantity?: number } = {}): Promise<PlacedOrder> {
    seq += 1;
    const alias = `page-${seq}`;
    await adminApi(t, admin).product({
      name: input.name ?? `Page product ${seq}`,
      variants: [{ alias, name: input.name ?? alias, price: input.price ?? '5.00', stock: 100 }],
    });
    const order = await placeGuestOrder(t, {
      variants: [{ alias, quantity: input.quantity ?? 1 }],
      shipping_address: address,
    });
    return { alias: order.order_alias, token: order.order_token };
  }

  async function start(plugin: string, order: PlacedOrder, extra: object = {}) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/payment/storefront/api/start-payment/${plugin}/`,
      headers: { 'x-order-token': order.token },
      payload: { order_alias: order.alias, ...extra },
    });
    if (res.statusCode !== 200) throw new Error(res.body);
    return json(res) as { url: string; order_alias: string };
  }

  /** The sandbox checkout's signed form fields (entities undone), as the payer's browser sends them. */
  async function checkoutFields(url: string): Promise<URLSearchParams> {
    const { page } = await openAsBrowser(t, url);
    return hiddenFormFields(page?.body ?? '');
  }

  /** Pays (or declines) through the sandbox; returns the return link the sandbox sends the payer to. */
  async function sandboxDecision(order: PlacedOrder, decision: 'pay' | 'decline', extra: object = {}): Promise<string> {
    const fields = await checkoutFields((await start('sandbox', order, extra)).url);
    fields.set('decision', decision);
    const res = await t.app.inject({
      method: 'POST',
      url: '/payment/sandbox/checkout/',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: fields.toString(),
    });
    expect(res.statusCode, res.body).toBe(303);
    return String(res.headers.location);
  }

  /** The order page's link a payer is redirected to from a return link. */
  async function pageLinkFrom(returnLink: string): Promise<URL> {
    const landing = await openAsBrowser(t, returnLink);
    expect(landing.url.pathname).toMatch(/^\/order\/storefront\/orders\//);
    return landing.url;
  }

  const open = (url: URL | string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> => {
    const parsed = new URL(String(url));
    return t.app.inject({ method: 'GET', url: parsed.pathname + parsed.search, headers });
  };

  it('lands on the order page after paying through the sandbox with no return_url, every value escaped', async () => {
    const order = await placeOrder({ name: '<script>alert("x")</script> & Co', price: '12.34', quantity: 2 });
    const landing = await openAsBrowser(t, await sandboxDecision(order, 'pay'));

    const [back, shown, ...beyond] = landing.hops;
    expect(back?.statusCode).toBe(303);
    expect(back?.headers['cache-control']).toBe('no-store');
    expect(back?.headers['referrer-policy']).toBe('no-referrer');
    expect(shown?.statusCode).toBe(200);
    expect(beyond).toEqual([]);
    expect(landing.url.pathname).toBe(`/order/storefront/orders/${order.alias}/`);
    // A short-lived link, never the order token itself.
    expect(landing.url.searchParams.get('token')).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(landing.url.toString()).not.toContain(order.token);

    const res = landing.page;
    if (!res) throw new Error('no page');
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    const html = res.body;
    expect(html).toContain(`Order ${order.alias}`);
    expect(html).toContain('data-payment-outcome="succeeded"');
    expect(html).toContain('Payment received');
    expect(html).toContain('data-payment-status="paid"');
    // Paid: nothing due. No shop served here (an API-only service): no link to a shop page.
    expect(html).not.toContain('data-balance-due');
    expect(html).not.toContain('Open this order in the shop');
    // Each status in the shop's words, the date as the shop writes it.
    expect(html).toContain('data-order-status="approved">Confirmed</dd>');
    expect(html).toContain('data-payment-status="paid">Paid</dd>');
    expect(html).toContain('data-fulfillment-status="unfulfilled">Not shipped yet</dd>');
    expect(html).toMatch(/Placed [A-Z][a-z]{2} \d{1,2}, \d{4}</);
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co');
    expect(html).toMatch(/<td class="num">2<\/td>\s*<td class="num">12\.34 USD<\/td><td class="num">24\.68 USD<\/td>/);
    expect(html).toContain('<dt><strong>Total</strong></dt><dd><strong>24.68 USD</strong></dd>');
    expect(html).toContain(
      '&lt;b&gt;Sam&lt;/b&gt; O&#39;Guest<br>1 Test Way &amp; Sons<br>Austin, TX 73301<br>United States',
    );
    expect(html).not.toMatch(/<script|<b>|javascript:/i);
  });

  it('shows a declined payment as failed on the order page', async () => {
    const order = await placeOrder();
    const { page } = await openAsBrowser(t, await sandboxDecision(order, 'decline'));
    expect(page?.statusCode).toBe(200);
    expect(page?.body).toContain('data-payment-outcome="failed"');
    expect(page?.body).toContain('data-payment-status="unpaid"');
  });

  it("sends the payer to the storefront's return_url with order_alias and the outcome, query kept", async () => {
    const urls = {
      return_url: 'https://shop.example/thanks?ref=abc&lang=en',
      cancel_url: 'https://shop.example/cart?step=pay',
    };
    const outcome = async (link: string) => {
      const landing = await openAsBrowser(t, link);
      expect(landing.page).toBeUndefined();
      return landing.url;
    };

    const paid = await placeOrder();
    const thanks = await outcome(await sandboxDecision(paid, 'pay', urls));
    expect(thanks.origin + thanks.pathname).toBe('https://shop.example/thanks');
    expect(Object.fromEntries(thanks.searchParams)).toEqual({
      ref: 'abc',
      lang: 'en',
      order_alias: paid.alias,
      payment_status: 'succeeded',
    });

    const declined = await placeOrder();
    const cart = await outcome(await sandboxDecision(declined, 'decline', urls));
    expect(cart.origin + cart.pathname).toBe('https://shop.example/cart');
    expect(Object.fromEntries(cart.searchParams)).toEqual({
      step: 'pay',
      order_alias: declined.alias,
      payment_status: 'failed',
    });

    // A payer who leaves the checkout through its cancel link without deciding.
    const abandoned = await placeOrder();
    const cancelLink = (await checkoutFields((await start('sandbox', abandoned, urls)).url)).get('cancel_url') ?? '';
    expect(Object.fromEntries((await outcome(cancelLink)).searchParams)).toEqual({
      step: 'pay',
      order_alias: abandoned.alias,
      payment_status: 'cancelled',
    });

    // Cash on delivery: nothing paid yet.
    const cod = await placeOrder();
    const codStarted = await start('cash_on_delivery', cod, { return_url: 'https://shop.example/done' });
    const codReturn = await outcome(codStarted.url);
    expect(codReturn.toString()).toBe(`https://shop.example/done?order_alias=${cod.alias}&payment_status=pending`);
  });

  it('sends the payer to the URLs of the latest start when a payment is started again', async () => {
    const order = await placeOrder();
    const first = await start('sandbox', order, { return_url: 'https://old.example/x' });
    const again = await start('sandbox', order, { return_url: 'https://shop.example/thanks' });
    expect(again.url).toBe(first.url);
    const fields = await checkoutFields(again.url);
    fields.set('decision', 'pay');
    const res = await t.app.inject({
      method: 'POST',
      url: '/payment/sandbox/checkout/',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: fields.toString(),
    });
    const landing = await openAsBrowser(t, String(res.headers.location));
    expect(landing.url.origin + landing.url.pathname).toBe('https://shop.example/thanks');
  });

  it('refuses a return_url that is not a URL', async () => {
    const order = await placeOrder();
    for (const returnUrl of ['http://a b', 'https://', 'javascript:alert(1)']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/payment/storefront/api/start-payment/sandbox/',
        headers: { 'x-order-token': order.token },
        payload: { order_alias: order.alias, return_url: returnUrl },
      });
      expect(res.statusCode, returnUrl).toBe(422);
      expect(json(res).errors[0].field).toBe('return_url');
    }
  });

  it('refuses the order page link once it has expired (after 15 minutes)', async () => {
    const order = await placeOrder();
    const link = await pageLinkFrom(await sandboxDecision(order, 'pay'));
    advanceClock(14 * MINUTE);
    expect((await open(link)).statusCode).toBe(200);
    advanceClock(2 * MINUTE);
    const problem = expectProblem(await open(link), 410, 'order_link_expired');
    expect(problem.detail).toContain('expired');
    const page = await open(link, { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    expect(page.statusCode).toBe(410);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('order link has expired');
    expect(page.body).toContain('order_link_expired');
  });

  it('refuses a tampered, foreign, forged, missing or wrong-kind page link with 404 order_link_invalid', async () => {
    const order = await placeOrder();
    const other = await placeOrder();
    const link = await pageLinkFrom(await sandboxDecision(order, 'pay'));
    const otherLink = await pageLinkFrom(await sandboxDecision(other, 'pay'));
    const token = link.searchParams.get('token') ?? '';
    const pageOf = (alias: string, value: string | null) => {
      const path = `/order/storefront/orders/${alias}/`;
      return value === null ? path : `${path}?token=${value}`;
    };

    const [header, , signature] = token.split('.');
    const flipped = flipAt(signature ?? '', 10);
    const otherPayload = Buffer.from(JSON.stringify({ sub: other.alias })).toString('base64url');
    // Another store (another key) signing a link in the very same shape.
    const anotherStore = createTokenService('another-store-secret-of-at-least-32-bytes');
    const foreignKey = await anotherStore.signLink({ purpose: 'order-page', subject: order.alias, ttlSeconds: 900 });
    const customer = await signUp(t.app);
    const attempts = [
      pageOf(order.alias, `${header}.${token.split('.')[1]}.${flipped}`),
      pageOf(other.alias, `${header}.${otherPayload}.${signature}`),
      pageOf(other.alias, token),
      pageOf(order.alias, otherLink.searchParams.get('token')),
      pageOf(order.alias, foreignKey),
      pageOf(order.alias, customer.access),
      pageOf(order.alias, 'not-a-token'),
      pageOf(order.alias, null),
    ];
    for (const url of attempts) expectProblem(await t.app.inject({ method: 'GET', url }), 404, 'order_link_invalid');

    const page = await open(`http://x${pageOf(other.alias, token)}`, { accept: 'text/html' });
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('not valid');
    expect(page.body).not.toContain(other.alias);
  });

  it('refuses a tampered return link, and one replayed after its payment settled or past its expiry', async () => {
    const order = await placeOrder();
    const returnLink = new URL(await sandboxDecision(order, 'pay'));
    const token = returnLink.searchParams.get('token') ?? '';
    const withToken = (value: string) => `${returnLink.origin}${returnLink.pathname}?token=${value}`;
    expectProblem(await open(withToken(flipAt(token, token.length - 5))), 404, 'order_link_invalid');
    expectProblem(await open(`${returnLink.origin}${returnLink.pathname}`), 404, 'order_link_invalid');
    // A page link is not a return link, though both are signed with the same key.
    const pageToken = (await pageLinkFrom(returnLink.toString())).searchParams.get('token') ?? '';
    expectProblem(await open(withToken(pageToken)), 404, 'order_link_invalid');

    // Settled: the link works for a short while after, then no more.
    advanceClock(14 * MINUTE);
    expect((await open(returnLink)).statusCode).toBe(303);
    advanceClock(2 * MINUTE);
    expectProblem(await open(returnLink), 410, 'order_link_expired');

    // Still pending (cash on delivery): the link lasts as long as a gateway may keep the payer, 24 hours.
    vi.useRealTimers();
    const cod = await placeOrder();
    const codLink = (await start('cash_on_delivery', cod)).url;
    advanceClock(23 * 60 * MINUTE);
    expect((await open(codLink)).statusCode).toBe(303);
    advanceClock(2 * 60 * MINUTE);
    expectProblem(await open(codLink), 410, 'order_link_expired');
  });
});
