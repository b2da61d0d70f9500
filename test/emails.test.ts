import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { redactedPaths } from '../src/app.js';
import { createTokenService } from '../src/auth/tokens.js';
import type { Config } from '../src/config.js';
import { jobs } from '../src/db/schema.js';
import { createMailer, EmailDeliveryError, type Mailer } from '../src/emails/mailer.js';
import { orderEmailKinds, type OrderEmailKind } from '../src/emails/order-email.templates.js';
import { type OrderEmailDeps, sendOrderEmail } from '../src/emails/order-emails.js';
import { adminApi, apiAs, guestAddress, placeGuestOrder } from './fixtures.js';
import { bearer, buildTestApp, json, signInAdmin, signUp, TEST_JWT_SECRET, type TestApp } from './helpers.js';
import { type ReceivedEmail, type SmtpSink, startSmtpSink } from './smtp-sink.js';

const STORE = 'Lamps & <Co>';
const FROM = { name: STORE, address: 'orders@lamps.example' };
const SHOPPER = {
  ...guestAddress,
  first_name: '<script>alert("x")</script>',
  last_name: "O'Hara & Sons",
  email: 'gus.private@example.com',
};
const PRODUCT = 'Lamp <b>"bright"</b> & shade';

const logs: string[] = [];
let sink: SmtpSink;
let t: TestApp;
let mailer: Mailer;
let deps: OrderEmailDeps;
let eventSeq = 0;

function depsWith(config: Partial<Config>): OrderEmailDeps {
  return { ...deps, mailer: createMailer({ ...t.config, ...config }) };
}

/** One email about `alias`, sent as a job would, with an event id of its own. */
function send(kind: OrderEmailKind, alias: string, with_: OrderEmailDeps = deps) {
  eventSeq += 1;
  return sendOrderEmail(with_, { kind, orderAlias: alias, eventId: `evt-${eventSeq}` });
}

/** The app's JSON log lines since `from`. */
const logEntries = (from = 0) => logs.slice(from).map((l) => JSON.parse(l) as Record<string, unknown>);

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function rejection(promise: Promise<unknown>): Promise<EmailDeliveryError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof EmailDeliveryError)) throw new Error(`expected an EmailDeliveryError, got ${String(err)}`);
  return err;
}

/** The only email received since `from`. */
function onlyEmail(from: number): ReceivedEmail {
  const fresh = sink.received.slice(from);
  expect(fresh).toHaveLength(1);
  const [email] = fresh;
  if (!email) throw new Error('no email');
  return email;
}

/** The links of a text part, and the hrefs of an HTML part with their entities undone. */
const textLinks = (text: string) => [...text.matchAll(/https?:\/\/\S+/g)].map((m) => m[0]);
const htmlLinks = (html: string) =>
  [...html.matchAll(/href="([^"]*)"/g)].map((m) => (m[1] ?? '').replace(/&amp;/g, '&'));

const openLink = (url: string) => {
  const parsed = new URL(url);
  return t.app.inject({ method: 'GET', url: parsed.pathname + parsed.search });
};

let order: { alias: string; token: string; detail: Record<string, string> };

beforeAll(async () => {
  sink = await startSmtpSink();
  const stream = new Writable({
    write(chunk, _enc, done) {
      logs.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  t = await buildTestApp({
    // No job worker: these tests send each email themselves (test/events-delivery.test.ts sends them as jobs).
    config: {
      smtpUrl: sink.url,
      storeName: STORE,
      mailFrom: FROM,
      publicBaseUrl: 'https://shop.lamps.example',
      jobsEnabled: false,
    },
    logger: { level: 'info', stream, redact: { paths: redactedPaths, censor: '[redacted]' } },
  });
  mailer = createMailer(t.config);
  deps = { db: t.database.db, tokens: createTokenService(TEST_JWT_SECRET), mailer, log: t.app.log, config: t.config };

  const api = adminApi(t, await signInAdmin(t));
  const taxClass = await api.taxClass({ name: 'Lamps' });
  await api.taxRate({ tax_class_id: taxClass.id, country: 'US', rate: '8.25' });
  const method = await api.shippingMethod({ name: 'Ground <fast>' });
  await api.shippingRate({ shipping_method_id: method.id, weight_min_kg: '0', base_rate: '5.00' });
  await api.promoCode({ code: 'SAVE10', code_type: 'percentage', value: '10' });
  await api.product({
    name: PRODUCT,
    tax_class_id: taxClass.id,
    variants: [{ alias: 'email-lamp', name: PRODUCT, price: '12.34', stock: 100 }],
  });
  const placed = await placeGuestOrder(t, {
    variants: [{ alias: 'email-lamp', quantity: 2 }],
    shipping_address: SHOPPER,
    shipping_method_id: method.id,
    promocode: 'SAVE10',
  });
  const res = await t.app.inject({
    method: 'GET',
    url: `/order/storefront/api/orders/${placed.order_alias}/`,
    headers: { 'x-order-token': placed.order_token },
  });
  order = { alias: placed.order_alias, token: placed.order_token, detail: json(res) };
}, 60_000);

afterAll(async () => {
  mailer.close();
  await t.close();
  await sink.close();
});

afterEach(() => {
  vi.useRealTimers();
  sink.refuseRecipients = undefined;
});

describe('customer emails over SMTP', () => {
  it.each(orderEmailKinds)('sends %s to the order email from MAIL_FROM, with text and HTML parts', async (kind) => {
    const before = sink.received.length;
    const result = await send(kind, order.alias);
    expect(result.status).toBe('sent');

    const email = onlyEmail(before);
    expect(email.rcptTo).toEqual([SHOPPER.email]);
    expect(email.mailFrom).toBe(FROM.address);
    expect(email.headers.get('to')).toBe(SHOPPER.email);
    expect(email.headers.get('from')).toBe(`"${STORE}" <${FROM.address}>`);
    expect(email.headers.get('subject')).toMatch(new RegExp(`^Lamps & <Co>: .*${order.alias}`));
    expect(email.headers.get('auto-submitted')).toBe('auto-generated');
    expect(email.headers.get('content-type')).toMatch(/^multipart\/alternative/);
    expect(email.text).toContain(STORE);
    expect(email.html).toContain('Lamps &amp; &lt;Co&gt;');

    // Lines and totals in the order's currency as English writes them (the API's "24.68" is "$24.68").
    const d = order.detail;
    const text = email.text ?? '';
    expect(text).toContain(`2 × ${PRODUCT} ($12.34 each): $24.68`);
    expect(text).toContain(`Subtotal: $${d.subtotal}`);
    expect(text).toContain(`Discount (${d.discount_name}): -$${d.discount}`);
    expect(text).toContain(`Shipping (Ground <fast>): $${d.shipping_fee}`);
    expect(text).toContain(`Tax: $${d.estimated_tax}`);
    expect(text).toContain(`Total: $${d.total}`);
    expect(d.discount).toBe('2.47');
    expect(email.html).toContain(`<strong>$${d.total}</strong>`);
    expect(email.html).toContain(`−$${d.discount}`);
  });

  it('confirms an order with its lines, promotion, address and a link that opens the order for 7 days', async () => {
    const before = sink.received.length;
    await send('order_confirmation', order.alias);
    const email = onlyEmail(before);
    const text = email.text ?? '';
    expect(email.headers.get('subject')).toBe(`${STORE}: Order ${order.alias} received`);
    expect(text).toContain('Discount (Promo code SAVE10): -$2.47');
    expect(text).toContain(
      `Shipping to:\n${SHOPPER.first_name} ${SHOPPER.last_name}\n5 Elm St\nAustin, TX 73301\nUnited States`,
    );

    const [link, ...otherLinks] = textLinks(text);
    expect(otherLinks).toEqual([]);
    if (!link) throw new Error('no link in the text part');
    expect(link).toMatch(
      new RegExp(`^https://shop\\.lamps\\.example/order/storefront/orders/${order.alias}/\\?token=`),
    );
    expect(htmlLinks(email.html ?? '')).toEqual([link]);
    const page = await openLink(link);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`Order ${order.alias}`);
    expect(page.body).toContain(`${order.detail.total} USD`);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 6 * 86_400_000);
    expect((await openLink(link)).statusCode).toBe(200);
    vi.setSystemTime(Date.now() + 2 * 86_400_000);
    const expired = await openLink(link);
    expect(expired.statusCode).toBe(410);
    expect(json(expired).detail).toBe('this order link has expired; it worked 7 days');
  });

  it('escapes product and customer names in the HTML part', async () => {
    const before = sink.received.length;
    await send('order_confirmation', order.alias);
    const html = onlyEmail(before).html ?? '';
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; O&#39;Hara &amp; Sons');
    expect(html).toContain('Lamp &lt;b&gt;&quot;bright&quot;&lt;/b&gt; &amp; shade');
    expect(html).toContain('Shipping (Ground &lt;fast&gt;)');
    expect(html).not.toMatch(/<script|<b>|<fast>|<Co>/i);
  });

  it('keeps a name with line breaks on one line of the text part', async () => {
    await t.database.db.execute(
      sql`update order_lines set product_name = ${'Lamp\r\nSee https://evil.example'}
        where order_id = (select id from orders where alias = ${order.alias})`,
    );
    try {
      const before = sink.received.length;
      await send('order_shipped', order.alias);
      expect(onlyEmail(before).text).toContain(`2 × Lamp See https://evil.example - ${PRODUCT} ($12.34 each)`);
    } finally {
      await t.database.db.execute(
        sql`update order_lines set product_name = ${PRODUCT}
          where order_id = (select id from orders where alias = ${order.alias})`,
      );
    }
  });

  it('links the order in confirmation, payment and shipping emails only; cancellations carry no link', async () => {
    const linked: Record<string, boolean> = {};
    for (const kind of orderEmailKinds) {
      const before = sink.received.length;
      await send(kind, order.alias);
      linked[kind] = textLinks(onlyEmail(before).text ?? '').length > 0;
    }
    expect(linked).toEqual({
      order_confirmation: true,
      payment_received: true,
      order_shipped: true,
      order_cancelled: false,
      order_expired: false,
      order_changed: true,
      return_requested: true,
      return_received: true,
      return_refunded: true,
      return_rejected: true,
    });
  });

  it('gives one event the same Message-ID when sent twice, and another event another', async () => {
    const before = sink.received.length;
    const job = { kind: 'payment_received' as const, orderAlias: order.alias, eventId: 'evt-repeat' };
    const first = await sendOrderEmail(deps, job);
    const again = await sendOrderEmail(deps, job);
    await sendOrderEmail(deps, { ...job, eventId: 'evt-other' });
    const ids = sink.received.slice(before).map((e) => e.headers.get('message-id'));
    expect(ids[0]).toMatch(/^<[0-9a-f]{32}\.payment_received@lamps\.example>$/);
    expect(ids[1]).toBe(ids[0]);
    expect(ids[2]).not.toBe(ids[0]);
    expect(first).toEqual({ status: 'sent', messageId: ids[0] });
    expect(again).toEqual(first);
  });

  it('logs a sent email with its kind, order and recipient domain, never the address or content', async () => {
    const from = logs.length;
    await send('order_confirmation', order.alias);
    const entry = logEntries(from).find((e) => e.msg === 'email sent');
    expect(entry).toMatchObject({
      level: 30,
      kind: 'order_confirmation',
      order_alias: order.alias,
      recipient_domain: 'example.com',
    });
    const all = logs.slice(from).join('\n');
    for (const personal of ['gus.private', "O'Hara", 'Elm St', 'alert', 'bright']) expect(all).not.toContain(personal);
  });

  it('sends with the credentials of SMTP_URL', async () => {
    const url = new URL(sink.url);
    url.username = 'shop';
    url.password = 'p@ss:word';
    const withAuth = depsWith({ smtpUrl: url.toString() });
    try {
      const logins = sink.logins.length;
      await send('order_shipped', order.alias, withAuth);
      expect(sink.logins.slice(logins)).toEqual([{ username: 'shop', password: 'p@ss:word' }]);
    } finally {
      withAuth.mailer.close();
    }
  });
});

describe('failures a job runner retries or gives up on', () => {
  it('is a retryable failure when the SMTP server cannot be reached', async () => {
    const down = depsWith({ smtpUrl: `smtp://127.0.0.1:${await closedPort()}` });
    try {
      const err = await rejection(send('order_confirmation', order.alias, down));
      expect(err.permanent).toBe(false);
      expect(err.responseCode).toBeUndefined();
      expect(['ESOCKET', 'ECONNECTION']).toContain(err.code);
    } finally {
      down.mailer.close();
    }
  });

  it('is a permanent failure when the server refuses the recipient with 550, naming no mailbox', async () => {
    sink.refuseRecipients = 550;
    const before = sink.received.length;
    const err = await rejection(send('order_confirmation', order.alias));
    expect(err.permanent).toBe(true);
    expect(err.responseCode).toBe(550);
    expect(err.code).toBe('EENVELOPE');
    expect(err.message).toContain('550');
    expect(err.message).not.toContain('gus.private');
    expect(sink.received.length).toBe(before);
  });

  it('is a retryable failure when the server answers 451 (try later)', async () => {
    sink.refuseRecipients = 451;
    const err = await rejection(send('payment_received', order.alias));
    expect(err.permanent).toBe(false);
    expect(err.responseCode).toBe(451);
  });
});

describe('without SMTP_URL', () => {
  it('logs the email as not sent with kind, order and recipient domain only, and sends nothing', async () => {
    const offline = depsWith({ smtpUrl: undefined });
    const from = logs.length;
    const before = sink.received.length;
    const result = await send('order_confirmation', order.alias, offline);
    expect(result).toEqual({ status: 'not_sent', reason: 'smtp_not_configured' });
    expect(sink.received.length).toBe(before);

    const entries = logEntries(from);
    expect(entries).toEqual([
      expect.objectContaining({
        level: 30,
        msg: 'email not sent (SMTP_URL not set)',
        kind: 'order_confirmation',
        order_alias: order.alias,
        recipient_domain: 'example.com',
      }),
    ]);
    const all = logs.slice(from).join('\n');
    for (const personal of ['gus.private', SHOPPER.email, 'Elm St', 'alert', 'bright', 'token=']) {
      expect(all).not.toContain(personal);
    }
  });
});

describe('a store without SMTP_URL', () => {
  const offlineLogs: string[] = [];
  let offline: TestApp;
  let variant = '';
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _enc, done) {
        offlineLogs.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    // A job worker runs, as in production: it must find no email to send.
    offline = await buildTestApp({
      config: { smtpUrl: undefined, jobsEnabled: true },
      logger: { level: 'info', stream, redact: { paths: redactedPaths, censor: '[redacted]' } },
    });
    const api = adminApi(offline, await signInAdmin(offline));
    variant = 'offline-lamp';
    await api.product({ name: 'Lamp', variants: [{ alias: variant, name: 'Lamp', price: '12.34', stock: 100 }] });
  });
  afterAll(() => offline.close());

  const notSent = (alias: string) =>
    offlineLogs
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((e) => e.order_alias === alias && String(e.msg).startsWith('email not sent'));

  it('queues no email job and logs each email an event calls for as not sent, once it has committed', async () => {
    const placed = await placeGuestOrder(offline, {
      variants: [{ alias: variant, quantity: 1 }],
      shipping_address: SHOPPER,
    });
    const customer = await signUp(offline.app);
    const own = json(
      await offline.app.inject({
        method: 'POST',
        url: '/order/storefront/api/create/',
        headers: bearer(customer.access),
        payload: { variants: [{ alias: variant, quantity: 1 }], shipping_address: { ...guestAddress, email: '' } },
      }),
    );
    const admin = apiAs(offline, await signInAdmin(offline));
    const url = (alias: string) => `/order/dashboard/api/orders/${alias}/`;
    for (const status of ['approved', 'processing', 'shipped']) await admin.patch(url(placed.order_alias), { status });
    await admin.patch(url(own.order_alias), { status: 'cancelled' });

    const emailJobs = await offline.database.db.select().from(jobs).where(eq(jobs.kind, 'email.send'));
    expect(emailJobs).toEqual([]);
    const line = (kind: string, alias: string, domain: string) =>
      expect.objectContaining({
        level: 30,
        msg: 'email not sent (SMTP_URL not set)',
        kind,
        order_alias: alias,
        recipient_domain: domain,
      });
    expect(notSent(placed.order_alias)).toEqual([
      line('order_confirmation', placed.order_alias, 'example.com'),
      line('order_shipped', placed.order_alias, 'example.com'),
    ]);
    // The customer's email comes from the account, filled in as the order is written.
    const domain = customer.email.slice(customer.email.indexOf('@') + 1);
    expect(notSent(own.order_alias)).toEqual([
      line('order_confirmation', own.order_alias, domain),
      line('order_cancelled', own.order_alias, domain),
    ]);
    const all = offlineLogs.join('\n');
    for (const personal of ['gus.private', SHOPPER.email, customer.email, 'Elm St', 'alert']) {
      expect(all).not.toContain(personal);
    }
  });
});

describe('orders an email cannot be about', () => {
  it('sends nothing for an unknown order or one without an email address', async () => {
    const before = sink.received.length;
    expect(await send('order_shipped', '00000000-0000-4000-8000-000000000000')).toEqual({
      status: 'not_sent',
      reason: 'order_not_found',
    });
    const placed = await placeGuestOrder(t, {
      variants: [{ alias: 'email-lamp', quantity: 1 }],
      shipping_address: SHOPPER,
    });
    await t.database.db.execute(sql`update orders set email = null where alias = ${placed.order_alias}`);
    expect(await send('order_confirmation', placed.order_alias)).toEqual({
      status: 'not_sent',
      reason: 'no_recipient',
    });
    expect(sink.received.length).toBe(before);
  });
});

describe('a store in KWD', () => {
  // On the wire "2.500" with the order's currency; in an email as English writes dinars: "KWD 2.500".
  const [currency, price, unit, line] = ['KWD', '1.250', 'KWD\u00a01.250', 'KWD\u00a02.500'];
  let store: TestApp;
  beforeAll(async () => {
    const named = { storeName: 'Zoë’s Lamps', mailFrom: { name: 'Zoë’s Lamps', address: FROM.address } };
    store = await buildTestApp({
      config: { storeCurrency: currency, smtpUrl: sink.url, jobsEnabled: false, ...named },
    });
  });
  afterAll(() => store.close());

  it('writes every amount at the currency precision (3 decimals)', async () => {
    const api = adminApi(store, await signInAdmin(store));
    await api.product({ name: 'Dinar lamp', variants: [{ alias: 'lamp', name: 'Lamp', price, stock: 10 }] });
    const placed = await placeGuestOrder(store, {
      variants: [{ alias: 'lamp', quantity: 2 }],
      shipping_address: SHOPPER,
    });
    expect(`${placed.total} ${currency}`).toBe('2.500 KWD');

    const before = sink.received.length;
    const storeMailer = createMailer(store.config);
    try {
      const storeDeps = { ...deps, db: store.database.db, mailer: storeMailer, config: store.config };
      await sendOrderEmail(storeDeps, { kind: 'order_confirmation', orderAlias: placed.order_alias, eventId: 'e1' });
    } finally {
      storeMailer.close();
    }
    const email = onlyEmail(before);
    expect(email.text).toContain(`2 × Dinar lamp - Lamp (${unit} each): ${line}`);
    expect(email.text).toContain(`Total: ${line}`);
    expect(email.html).toContain(`<strong>${line}</strong>`);
    // A name beyond ASCII arrives intact in the headers (encoded words) and both parts.
    expect(email.headers.get('subject')).toBe(`Zoë’s Lamps: Order ${placed.order_alias} received`);
    expect(email.headers.get('from')).toBe(`Zoë’s Lamps <${FROM.address}>`);
    expect(email.text).toContain('\nZoë’s Lamps\n');
    expect(email.html).toContain('>Zoë’s Lamps</p>');
  });
});
