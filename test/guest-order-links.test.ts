import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTokenService } from '../src/auth/tokens.js';
import { adminApi, apiAs, guestAddress, type PlacedOrder, placeGuestOrder } from './fixtures.js';
import {
  buildTestApp,
  expectProblem,
  json,
  type SignedIn,
  signInAdmin,
  signUp,
  TEST_JWT_SECRET,
  type TestApp,
} from './helpers.js';
import { payWithSandbox } from './sandbox-gateway.js';
import { type SmtpSink, startSmtpSink } from './smtp-sink.js';

// Issue #27, decision 0030: a guest who opens an order email's link in a browser that never saw the order (no order
// token kept) follows its shipments, returns shipped units and pays what is due, with the link's signed token sent as
// X-Order-Token; the token opens that order only, and is refused once tampered with or expired.

let t: TestApp;
let admin: SignedIn;
let sink: SmtpSink;
let buyers = 0;

const DAY = 86_400_000;
/** A shop served by the service: the order page then links to the shop's page of the order. */
const SHOP = { storefront: '<!doctype html><title>Shop</title>', admin: '<!doctype html>', assetsDir: '/nonexistent' };

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await buildTestApp({
    config: { smtpUrl: sink.url, jobsPollMs: 50, paymentPlugins: ['sandbox'] },
    webApps: SHOP,
  });
  admin = await signInAdmin(t);
  await adminApi(t, admin).product({
    name: 'Linked mug',
    variants: [
      { alias: 'link-mug', name: 'Mug', price: '8.00', stock: 1000 },
      { alias: 'link-pot', name: 'Pot', price: '30.00', stock: 1000 },
    ],
  });
}, 60_000);
afterAll(async () => {
  await t.close();
  await sink.close();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Moves the clock the service (and jose) read, leaving timers alone so the database keeps working. */
function advanceClock(ms: number): void {
  if (!vi.isFakeTimers()) vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + ms);
}

/** A guest's order of two mugs and a pot, with its own email address. */
async function guestOrder(): Promise<PlacedOrder & { email: string }> {
  buyers += 1;
  const email = `linked-${buyers}@links.example`;
  const order = await placeGuestOrder(t, {
    variants: [
      { alias: 'link-mug', quantity: 2 },
      { alias: 'link-pot', quantity: 1 },
    ],
    shipping_address: { ...guestAddress, email },
  });
  return { ...order, email };
}

async function shipWhole(order: PlacedOrder): Promise<void> {
  const url = `/order/dashboard/api/orders/${order.order_alias}/fulfillments/`;
  const parcel = await apiAs(t, admin).post(url, { carrier: 'ups', tracking_number: '1Z999AA10123456784' });
  await apiAs(t, admin).post(`${url}${parcel.id}/ship/`, {}, 200);
}

/** The order link of the email with this subject sent to `email` (waiting for it), and its token. */
async function emailLink(email: string, subject: string): Promise<{ url: URL; token: string }> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found = sink.received.find((e) => e.rcptTo.includes(email) && e.headers.get('subject')?.includes(subject));
    const link = [...(found?.text ?? '').matchAll(/https?:\/\/\S+/g)]
      .map((m) => new URL(m[0]))
      .find((u) => u.pathname.startsWith('/order/storefront/orders/'));
    if (link) return { url: link, token: link.searchParams.get('token') ?? '' };
    if (Date.now() > deadline) throw new Error(`no "${subject}" email with an order link to ${email}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A storefront request with the token in X-Order-Token, as the shop sends what it kept. */
const withToken = (token: string, request: { method?: 'GET' | 'POST'; url: string; payload?: object }) =>
  t.app.inject({
    method: request.method ?? (request.payload ? 'POST' : 'GET'),
    url: request.url,
    headers: { 'x-order-token': token },
    ...(request.payload ? { payload: request.payload } : {}),
  });

const orderUrl = (alias: string) => `/order/storefront/api/orders/${alias}/`;
const returnsUrl = (alias: string) => `/order/storefront/api/orders/${alias}/returns/`;
const paymentsUrl = (alias: string) => `/payment/storefront/api/orders/${alias}/payments/`;
const mugReturn = { lines: [{ alias: 'link-mug', quantity: 1, reason: 'damaged' }] };

/** Every storefront request the token could open the order `alias` with, as the shop makes them. */
function everyRequest(alias: string) {
  return [
    { url: orderUrl(alias) },
    { url: returnsUrl(alias) },
    { url: returnsUrl(alias), payload: mugReturn },
    { method: 'POST' as const, url: `${returnsUrl(alias)}1/cancel/` },
    { url: paymentsUrl(alias) },
    { url: '/payment/storefront/api/start-payment/sandbox/', payload: { order_alias: alias } },
  ];
}

describe("a guest with only the shipped email's link", () => {
  it('follows the link to the shop, lists returns, returns a shipped mug and sees it requested', async () => {
    const order = await guestOrder();
    await payWithSandbox(t, order);
    await shipWhole(order);
    const { url, token } = await emailLink(order.email, `Order ${order.order_alias} has shipped`);
    expect(token).not.toBe(order.order_token);

    // The email's page shows the parcel with its tracking, and leads to the shop's page with the same token.
    const page = await t.app.inject({
      method: 'GET',
      url: url.pathname + url.search,
      headers: { accept: 'text/html' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Track this shipment');
    expect(page.body).toContain(
      `<a href="/orders/${order.order_alias}?token=${token}">Open this order in the shop</a>`,
    );
    expect(page.body).not.toContain('data-balance-due');

    const seen = json(await withToken(token, { url: orderUrl(order.order_alias) }));
    expect(seen).toMatchObject({ order_alias: order.order_alias, fulfillment_status: 'shipped' });
    expect(seen.fulfillments[0]).toMatchObject({ status: 'shipped', tracking_number: '1Z999AA10123456784' });
    expect(seen.fulfillments[0].tracking_url).toMatch(/^https:\/\//);

    const offer = json(await withToken(token, { url: returnsUrl(order.order_alias) }));
    expect(offer.items).toEqual([]);
    expect(offer.returnable).toMatchObject([
      { alias: 'link-mug', returnable: 2 },
      { alias: 'link-pot', returnable: 1 },
    ]);

    const asked = await withToken(token, { url: returnsUrl(order.order_alias), payload: mugReturn });
    expect(asked.statusCode, asked.body).toBe(201);
    expect(json(asked)).toMatchObject({ status: 'requested', requested_by: 'customer', lines: [{ quantity: 1 }] });

    const after = json(await withToken(token, { url: returnsUrl(order.order_alias) }));
    expect(after.items).toMatchObject([{ id: json(asked).id, status: 'requested' }]);
    expect(after.returnable).toMatchObject([{ alias: 'link-mug', returnable: 1 }, { returnable: 1 }]);

    // The return emails carry a link too; with it the guest cancels the return not yet received.
    const { token: fromReturnEmail } = await emailLink(order.email, `Return requested for order ${order.order_alias}`);
    const cancelled = await withToken(fromReturnEmail, {
      method: 'POST',
      url: `${returnsUrl(order.order_alias)}${json(asked).id}/cancel/`,
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(json(cancelled).status).toBe('cancelled');
    expect((await withToken(token, { url: paymentsUrl(order.order_alias) })).statusCode).toBe(200);
    // The order token placement gave keeps working beside the links.
    expect((await withToken(order.order_token, { url: returnsUrl(order.order_alias) })).statusCode).toBe(200);
  });

  it("pays what is due with the confirmation email's link; the page says the balance due", async () => {
    const order = await guestOrder();
    const { url, token } = await emailLink(order.email, `Order ${order.order_alias} received`);
    const page = await t.app.inject({
      method: 'GET',
      url: url.pathname + url.search,
      headers: { accept: 'text/html' },
    });
    expect(page.body).toContain(`<dd data-balance-due><strong>${order.total} USD</strong></dd>`);

    const started = await withToken(token, {
      url: '/payment/storefront/api/start-payment/sandbox/',
      payload: { order_alias: order.order_alias },
    });
    expect(started.statusCode, started.body).toBe(200);
    expect(json(started)).toMatchObject({ order_alias: order.order_alias, amount: order.total });
  });
});

describe('an order link opens its own order only', () => {
  it("refuses one order's link on another with 404 order_link_invalid, changing nothing", async () => {
    const mine = await guestOrder();
    const theirs = await guestOrder();
    await payWithSandbox(t, theirs);
    await shipWhole(theirs);
    const { token } = await emailLink(mine.email, `Order ${mine.order_alias} received`);
    for (const request of everyRequest(theirs.order_alias)) {
      expectProblem(await withToken(token, request), 404, 'order_link_invalid');
    }
    // The same answer for an order that does not exist: the link says nothing of other orders.
    for (const request of everyRequest('00000000-0000-4000-8000-000000000000')) {
      expectProblem(await withToken(token, request), 404, 'order_link_invalid');
    }
    const returns = await apiAs(t, admin).get(`/order/dashboard/api/orders/${theirs.order_alias}/returns/`);
    expect(returns.items).toEqual([]);
  });

  it('refuses a tampered, forged or wrong-kind token with 404 order_link_invalid, as problem+json', async () => {
    const order = await guestOrder();
    const { token } = await emailLink(order.email, `Order ${order.order_alias} received`);
    const [header, payload, signature = ''] = token.split('.');
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    const anotherStore = createTokenService('another-store-secret-of-at-least-32-bytes');
    const customer = await signUp(t.app);
    // The claims rewritten to last a year, under the signature of the original ones.
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString());
    const longer = JSON.stringify({ ...claims, exp: claims.exp + 365 * 86_400 });
    const refused = [
      `${header}.${payload}.${flipped}`,
      `${header}.${Buffer.from(longer).toString('base64url')}.${signature}`,
      await anotherStore.signLink({ purpose: 'order-page', subject: order.order_alias, ttlSeconds: 900 }),
      // Signed by this store, for another purpose: a payment's return link, an access token.
      await createTokenService(TEST_JWT_SECRET).signLink({
        purpose: 'payment-return',
        subject: order.order_alias,
        ttlSeconds: 900,
      }),
      customer.access,
      'a.b.c',
    ];
    for (const bad of refused) {
      for (const request of everyRequest(order.order_alias)) {
        const problem = expectProblem(await withToken(bad, request), 404, 'order_link_invalid');
        expect(problem.detail).toBe('this order link is not valid');
      }
    }
  });

  it('refuses an expired link with 410 order_link_expired, but not the signed-in owner who kept it', async () => {
    const order = await guestOrder();
    const { token } = await emailLink(order.email, `Order ${order.order_alias} received`);
    advanceClock(7 * DAY - 60_000);
    expect((await withToken(token, { url: returnsUrl(order.order_alias) })).statusCode).toBe(200);
    advanceClock(2 * 60_000);
    for (const request of everyRequest(order.order_alias)) {
      const problem = expectProblem(await withToken(token, request), 410, 'order_link_expired');
      expect(problem.detail).toBe('this order link has expired; it worked 7 days');
    }
    // Expired, and for another order: not valid here (nothing said of this one).
    const other = await guestOrder();
    expectProblem(await withToken(token, { url: returnsUrl(other.order_alias) }), 404, 'order_link_invalid');
    vi.useRealTimers();

    // A customer's own order: signed in, a stale link the browser kept does not stand in the way.
    const owner = await signUp(t.app);
    const placed = await t.app.inject({
      method: 'POST',
      url: '/order/storefront/api/create/',
      headers: { authorization: `Bearer ${owner.access}` },
      payload: { variants: [{ alias: 'link-mug' }], shipping_address: { ...guestAddress, email: owner.email } },
    });
    expect(placed.statusCode, placed.body).toBe(201);
    const alias = json(placed).order_alias;
    const { token: ownersLink } = await emailLink(owner.email, `Order ${alias} received`);
    advanceClock(8 * DAY);
    const signedIn = await t.app.inject({
      method: 'GET',
      url: orderUrl(alias),
      headers: { authorization: `Bearer ${(await signInAgain(owner)).access}`, 'x-order-token': ownersLink },
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expectProblem(await withToken(ownersLink, { url: orderUrl(alias) }), 410, 'order_link_expired');
  });
});

/** A fresh access token for the user (the one from sign-up expired with the moved clock). */
async function signInAgain(user: SignedIn): Promise<SignedIn> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/user/storefront/api/login/',
    payload: { email: user.email, password: 'correct horse' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { ...user, access: json(res).access };
}
