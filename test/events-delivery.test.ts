import { and, eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../src/db/schema.js';
import { EMAIL_JOB } from '../src/emails/email-jobs.js';
import { WEBHOOK_SCHEDULE_JOB } from '../src/webhooks/delivery-schedule.js';
import type { WebhookEventType } from '../src/webhooks/webhook-events.js';
import { hiddenFormFields } from './browser.js';
import { type AdminApi, adminApi, guestAddress, type PlacedOrder, placeGuestOrder } from './fixtures.js';
import { buildTestApp, signInAdmin, type TestApp, until } from './helpers.js';
import { type SmtpSink, startSmtpSink } from './smtp-sink.js';
import { type Behaviour, type Receiver, startReceiver } from './webhook-receiver.js';

// The whole path of an event, through the app's own job worker: a change records its event, the jobs of its webhook
// deliveries and emails are queued in the same transaction, and the worker sends them to a real HTTP receiver and a
// real SMTP server on 127.0.0.1. Retries are shortened (WEBHOOK_RETRY_BASE_MS, JOBS_POLL_MS).

const STORE = 'Events & Co';

let t: TestApp;
let api: AdminApi;
let receiver: Receiver;
let sink: SmtpSink;

beforeAll(async () => {
  receiver = await startReceiver();
  sink = await startSmtpSink();
  t = await buildTestApp({
    config: {
      // A generous timeout, so a loaded machine fails no attempt by accident; the slow endpoint hangs past it.
      webhooks: { allowPrivate: true, timeoutMs: 10_000, retryBaseMs: 100, retryMaxDelayMs: 1_000 },
      jobsPollMs: 50,
      jobsConcurrency: 4,
      smtpUrl: sink.url,
      storeName: STORE,
      mailFrom: { name: STORE, address: 'orders@events.example' },
      paymentPlugins: ['sandbox'],
    },
  });
  api = adminApi(t, await signInAdmin(t));
  await api.product({
    name: 'Event lamp',
    variants: [{ alias: 'event-lamp', name: 'Event lamp', price: '19.90', stock: 1_000 }],
  });
}, 60_000);

afterAll(async () => {
  await t.close();
  await receiver.close();
  await sink.close();
});

let guests = 0;
/** A guest order of one lamp, by a guest of its own (its emails go to that address). */
async function place(): Promise<PlacedOrder & { email: string }> {
  guests += 1;
  const email = `guest-${guests}@events.example`;
  const placed = await placeGuestOrder(t, {
    variants: [{ alias: 'event-lamp', quantity: 1 }],
    shipping_address: { ...guestAddress, email },
  });
  return { ...placed, email };
}

let paths = 0;
/** An endpoint on a path of its own of the receiver, subscribed to `events`, answering as `behaviour` says. */
async function endpoint(events: WebhookEventType[], behaviour?: Behaviour) {
  paths += 1;
  const path = `/events-${paths}`;
  if (behaviour) receiver.on(path, behaviour);
  const created = await api.post('/webhook/dashboard/api/endpoints/', { url: receiver.url(path), events });
  return { id: created.id as number, path, secret: created.secret as string };
}

/** Switches an endpoint off, so the orders of later tests make no deliveries for it. */
const switchOff = (id: number) => api.patch(`/webhook/dashboard/api/endpoints/${id}/`, { is_active: false });

const requestsTo = (path: string) => receiver.received.filter((r) => r.path === path);
const deliveriesOf = async (endpointId: number) =>
  (await api.get(`/webhook/dashboard/api/endpoints/${endpointId}/deliveries/`)).items as {
    id: number;
    event_id: string;
    event_type: string;
    message_id: string;
    status: string;
    attempts: number;
  }[];

/** The order's events of a type, as the admin API lists them. */
async function eventsOf(alias: string, type: WebhookEventType) {
  const page = await api.get(`/event/dashboard/api/events/?order_alias=${alias}&type=${type}`);
  return page.items as { id: string; type: string; created_at: string; data: Record<string, unknown> }[];
}

/** The job a kind and key name (an email's key is its event's id). */
async function jobOf(kind: string, key: string) {
  const [row] = await t.database.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, kind), eq(jobs.key, key)));
  return row;
}

/** Pays the order through the sandbox's checkout page, as a payer's browser would. */
async function payWithSandbox(order: PlacedOrder): Promise<void> {
  const started = await t.app.inject({
    method: 'POST',
    url: '/payment/storefront/api/start-payment/sandbox/',
    headers: { 'x-order-token': order.order_token },
    payload: { order_alias: order.order_alias },
  });
  expect(started.statusCode, started.body).toBe(200);
  const checkout = new URL(started.json().url);
  const page = await t.app.inject({ method: 'GET', url: checkout.pathname + checkout.search });
  const fields = hiddenFormFields(page.body);
  fields.set('decision', 'pay');
  const paid = await t.app.inject({
    method: 'POST',
    url: '/payment/sandbox/checkout/',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: fields.toString(),
  });
  expect(paid.statusCode, paid.body).toBeLessThan(400);
}

describe('webhook deliveries of events', () => {
  it('deliver a placed order to its endpoint past two failures, signed, attempts logged, once per event', async () => {
    const hook = await endpoint(['order.placed'], (n) => ({ status: n <= 2 ? 503 : 204 }));
    const order = await place();
    const [event] = await eventsOf(order.order_alias, 'order.placed');
    if (!event) throw new Error('no order.placed event');

    const [delivery] = await until(
      'the delivery to succeed',
      () => deliveriesOf(hook.id),
      (items) => items[0]?.status === 'succeeded',
    );
    expect(delivery).toMatchObject({ event_id: event.id, event_type: 'order.placed', attempts: 3 });
    const detail = await api.get(`/webhook/dashboard/api/deliveries/${delivery?.id}/`);
    expect(detail.attempt_log.map((a: { response_code: number }) => a.response_code)).toEqual([503, 503, 204]);

    // Three requests, one webhook-id; each verifies with the endpoint's secret and carries the recorded event.
    const got = requestsTo(hook.path);
    expect(got).toHaveLength(3);
    for (const request of got) {
      expect(request.headers['webhook-id']).toBe(delivery?.message_id);
      const body = new Webhook(hook.secret).verify(request.body, request.headers as Record<string, string>);
      expect(body).toEqual({ id: event.id, type: 'order.placed', created_at: event.created_at, data: event.data });
    }
    expect(event.data).toMatchObject({ order_alias: order.order_alias, status: 'pending', total: order.total });

    // The dispatcher attempted it at each retry it asked for, with no job of its own; settled, nothing more is sent.
    const jobKinds = (await t.database.db.select({ kind: jobs.kind }).from(jobs)).map((j) => j.kind);
    expect(jobKinds).toContain(WEBHOOK_SCHEDULE_JOB);
    expect(jobKinds).not.toContain('webhook.deliver');
    expect(detail).toMatchObject({ status: 'succeeded', next_attempt_at: null });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(requestsTo(hook.path)).toHaveLength(3);

    // Sent again by hand: due at once, the dispatcher woken, the same webhook-id arrives once more.
    await api.post(`/webhook/dashboard/api/deliveries/${delivery?.id}/redeliver/`, {}, 200);
    await until(
      'the redelivery',
      () => requestsTo(hook.path),
      (requests) => requests.length === 4,
    );
    const again = await until(
      'the redelivery to be logged',
      () => deliveriesOf(hook.id),
      (items) => items[0]?.status === 'succeeded' && items[0].attempts === 4,
    );
    expect(again[0]?.message_id).toBe(delivery?.message_id);
    await switchOff(hook.id);
  });

  it('deliver each event once per endpoint however many orders are placed at once', async () => {
    const hook = await endpoint(['order.placed']);
    const orders = await Promise.all(Array.from({ length: 8 }, () => place()));
    await until(
      'eight deliveries',
      () => deliveriesOf(hook.id),
      (items) => items.length === 8 && items.every((d) => d.status === 'succeeded'),
    );
    const aliases = requestsTo(hook.path).map((r) => (JSON.parse(r.body) as { data: { order_alias: string } }).data);
    expect(aliases.map((d) => d.order_alias).sort()).toEqual(orders.map((o) => o.order_alias).sort());
    const ids = requestsTo(hook.path).map((r) => (JSON.parse(r.body) as { id: string }).id);
    expect(new Set(ids).size).toBe(8);
    await switchOff(hook.id);
  });

  it('keep a slow endpoint from holding up another: the fast one is delivered while the slow one waits', async () => {
    const slow = await endpoint(['order.placed'], () => 'hang');
    const fast = await endpoint(['order.placed']);
    const order = await place();
    await until(
      'the fast delivery',
      () => deliveriesOf(fast.id),
      (items) => items[0]?.status === 'succeeded',
    );
    // The slow endpoint got its request at the same time and has not answered it: its attempt is not over.
    expect(requestsTo(slow.path)).toHaveLength(1);
    expect(await deliveriesOf(slow.id)).toMatchObject([{ status: 'pending', attempts: 0 }]);
    expect(JSON.parse(requestsTo(fast.path)[0]?.body ?? '{}').data.order_alias).toBe(order.order_alias);
    receiver.on(slow.path, () => ({ status: 204 }));
    await switchOff(slow.id);
    await switchOff(fast.id);
  });

  it('deliver the events of a payment, recorded in its own transaction', async () => {
    const hook = await endpoint(['payment.succeeded', 'order.paid']);
    const order = await place();
    await payWithSandbox(order);
    const items = await until(
      'two deliveries',
      () => deliveriesOf(hook.id),
      (list) => list.length === 2 && list.every((d) => d.status === 'succeeded'),
    );
    expect(items.map((d) => d.event_type).sort()).toEqual(['order.paid', 'payment.succeeded']);
    const bodies = requestsTo(hook.path).map(
      (r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> },
    );
    expect(bodies.find((b) => b.type === 'order.paid')?.data).toMatchObject({
      order_alias: order.order_alias,
      payment_status: 'paid',
    });
    expect(bodies.find((b) => b.type === 'payment.succeeded')?.data).toMatchObject({ order_alias: order.order_alias });
    await switchOff(hook.id);
  });
});

describe('customer emails of events', () => {
  const emailsTo = (address: string) => sink.received.filter((e) => e.rcptTo.includes(address));

  it('confirm a placed order, and tell of the payment once the sandbox payment succeeded, each once', async () => {
    const order = await place();
    const [confirmation] = await until(
      'the confirmation',
      () => emailsTo(order.email),
      (emails) => emails.length === 1,
    );
    expect(confirmation?.headers.get('subject')).toBe(`${STORE}: Order ${order.order_alias} received`);
    expect(confirmation?.text).toContain(order.order_alias);

    await payWithSandbox(order);
    const emails = await until(
      'the payment email',
      () => emailsTo(order.email),
      (list) => list.length === 2,
    );
    expect(emails[1]?.headers.get('subject')).toBe(`${STORE}: Payment received for order ${order.order_alias}`);

    // Keyed by the event: enqueuing the job again adds nothing, and nothing more is sent.
    const [placed] = await eventsOf(order.order_alias, 'order.placed');
    expect(await jobOf(EMAIL_JOB, placed?.id ?? '')).toMatchObject({ status: 'done', attempts: 1 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(emailsTo(order.email)).toHaveLength(2);
  });

  it('give up an email the SMTP server refuses for good (550), and retry one it refuses for now (451)', async () => {
    try {
      sink.refuseRecipients = 550;
      const refused = await place();
      const [placed] = await eventsOf(refused.order_alias, 'order.placed');
      const failed = await until(
        'the email job to fail',
        () => jobOf(EMAIL_JOB, placed?.id ?? ''),
        (job) => job?.status === 'failed',
      );
      expect(failed).toMatchObject({ attempts: 1 });
      expect(failed?.lastError).toContain('refused the email');

      sink.refuseRecipients = 451;
      const later = await place();
      const [event] = await eventsOf(later.order_alias, 'order.placed');
      const queued = await until(
        'the email job to be queued again',
        () => jobOf(EMAIL_JOB, event?.id ?? ''),
        (job) => job?.status === 'queued' && job.attempts === 1,
      );
      expect(queued?.lastError).toContain('did not take the email for now');
      expect(queued?.runAt.getTime()).toBeGreaterThan(Date.now());
      expect(emailsTo(refused.email).concat(emailsTo(later.email))).toEqual([]);
    } finally {
      sink.refuseRecipients = undefined;
    }
  });
});
