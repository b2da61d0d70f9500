import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookSettings } from '../src/config.js';
import { webhookDeliveries } from '../src/db/schema.js';
import { RETRY_WINDOW_MS } from '../src/webhooks/retry-policy.js';
import { WebhookConnections } from '../src/webhooks/webhook-connections.js';
import { type DeliveryDeps, runDelivery, scheduleDeliveries } from '../src/webhooks/webhook-delivery.js';
import type { OutboundEvent, WebhookEventType } from '../src/webhooks/webhook-events.js';
import { bearer, buildTestApp, expectProblem, json, type SignedIn, signInAdmin, type TestApp } from './helpers.js';
import { type Receiver, startReceiver } from './webhook-receiver.js';

// Deliveries to a real HTTP receiver on 127.0.0.1, one attempt per runDelivery call, as the dispatcher makes
// them. Time is injected where a test needs hours to pass.

// A generous timeout, so a loaded machine fails no attempt by accident; the timeout test sets a short one.
const settings: WebhookSettings = { allowPrivate: true, timeoutMs: 5_000, retryBaseMs: 1_000, retryMaxDelayMs: 60_000 };

let t: TestApp;
let admin: SignedIn;
let receiver: Receiver;
beforeAll(async () => {
  // No job worker: these tests make each attempt themselves (test/events-delivery.test.ts runs them as jobs).
  t = await buildTestApp({ config: { webhooks: settings, jobsEnabled: false } });
  admin = await signInAdmin(t);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

const base = '/webhook/dashboard/api';
// biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary JSON shapes
type Json = any;
async function api(method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object): Promise<Json> {
  const res = await t.app.inject({
    method,
    url: `${base}${url}`,
    headers: bearer(admin.access),
    ...(payload ? { payload } : {}),
  });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return json(res);
}

let paths = 0;
/** A new endpoint on its own path of the receiver, answering as told; its id, URL path and secret. */
async function endpoint(
  options: { events?: WebhookEventType[]; behaviour?: Parameters<Receiver['on']>[1]; url?: string } = {},
) {
  paths += 1;
  const path = `/hook-${paths}`;
  if (options.behaviour) receiver.on(path, options.behaviour);
  const created = await api('POST', '/endpoints/', {
    url: options.url ?? receiver.url(path),
    events: options.events ?? ['order.placed'],
  });
  return { id: created.id as number, path, secret: created.secret as string };
}

function event(type: WebhookEventType = 'order.placed'): OutboundEvent {
  return {
    id: randomUUID(),
    type,
    created_at: new Date().toISOString(),
    data: { order_alias: `A${paths}`, status: 'pending', total: '42.00' },
  };
}

type DepsOverrides = Partial<Omit<DeliveryDeps, 'settings'>> & { settings?: Partial<WebhookSettings> };
const deps = (overrides: DepsOverrides = {}): DeliveryDeps => ({
  database: t.database,
  random: () => 0.5,
  ...overrides,
  settings: { ...settings, ...overrides.settings },
});

/** The one delivery the event made for the endpoint. */
async function deliveryFor(endpointId: number, e: OutboundEvent): Promise<number> {
  await scheduleDeliveries(t.database.db, e);
  const [row] = await t.database.db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.eventId, e.id)));
  if (!row) throw new Error('no delivery was scheduled');
  return row.id;
}

const detail = (id: number) => api('GET', `/deliveries/${id}/`);
const requestsTo = (path: string) => receiver.received.filter((r) => r.path === path);

/**
 * The job worker's part, for tests only: attempts every delivery of these endpoints due at `now` at once, then
 * those due next, until none is due before `until`.
 */
async function runDueDeliveries(options: {
  deps: DeliveryDeps;
  endpointIds: number[];
  now: Date;
  until: Date;
}): Promise<number> {
  let now = options.now;
  let attempts = 0;
  while (now <= options.until) {
    const due = await t.database.db
      .select({ id: webhookDeliveries.id, at: webhookDeliveries.nextAttemptAt })
      .from(webhookDeliveries)
      .where(
        and(
          inArray(webhookDeliveries.endpointId, options.endpointIds),
          eq(webhookDeliveries.status, 'pending'),
          lte(webhookDeliveries.nextAttemptAt, options.until),
        ),
      )
      .orderBy(asc(webhookDeliveries.nextAttemptAt));
    const first = due[0]?.at;
    if (!first) break;
    now = first > now ? first : now;
    const at = now;
    const ready = due.filter((d) => d.at !== null && d.at <= at);
    await Promise.all(ready.map((d) => runDelivery({ ...options.deps, now: () => at }, d.id)));
    attempts += ready.length;
  }
  return attempts;
}

describe('a delivery', () => {
  it('is signed per Standard Webhooks: the receiver verifies it with the endpoint secret', async () => {
    const hook = await endpoint();
    const e = event();
    const id = await deliveryFor(hook.id, e);
    expect(await runDelivery(deps(), id)).toEqual({ kind: 'done' });

    const [got] = requestsTo(hook.path);
    expect(got).toBeDefined();
    const headers = got!.headers as Record<string, string>;
    expect(headers['content-type']).toBe('application/json');
    expect(Object.keys(JSON.parse(got!.body))).toEqual(['id', 'type', 'created_at', 'data']);
    expect(new Webhook(hook.secret).verify(got!.body, headers)).toEqual(e);
    const delivery = await detail(id);
    expect(headers['webhook-id']).toBe(delivery.message_id);
    expect(delivery).toMatchObject({
      status: 'succeeded',
      attempts: 1,
      next_attempt_at: null,
      last_response_code: 204,
      last_error: null,
      event_id: e.id,
      event_type: 'order.placed',
      payload: e,
    });
    expect(delivery.attempt_log).toEqual([
      {
        attempted_at: expect.any(String),
        response_code: 204,
        duration_ms: expect.any(Number),
        error: null,
        response_snippet: null,
      },
    ]);
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(got!.body, headers)).toThrow(
      WebhookVerificationError,
    );
  });

  it('goes to the active endpoints subscribed to its type, once per event however often it is scheduled', async () => {
    const placed = await endpoint({ events: ['order.placed', 'order.paid'] });
    const paid = await endpoint({ events: ['order.paid'] });
    const off = await endpoint({ events: ['order.paid'] });
    await api('PATCH', `/endpoints/${off.id}/`, { is_active: false });
    const e = event('order.paid');
    const made = await scheduleDeliveries(t.database.db, e);
    expect(await scheduleDeliveries(t.database.db, e)).toEqual([]);
    const endpoints = await t.database.db
      .select({ endpointId: webhookDeliveries.endpointId })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.eventId, e.id));
    expect(endpoints.map((d) => d.endpointId).sort()).toEqual([placed.id, paid.id].sort());
    expect(made).toHaveLength(2);
    expect(made.every((d) => d.dueAt instanceof Date)).toBe(true);
    expect(await scheduleDeliveries(t.database.db, event('payment.refunded'))).toEqual([]);
  });

  it('is retried after failures with the same webhook-id, each attempt logged, until it succeeds', async () => {
    const hook = await endpoint({
      behaviour: (n) => (n <= 2 ? { status: 500, body: 'database down' } : { status: 200 }),
    });
    const id = await deliveryFor(hook.id, event());
    const t0 = new Date();

    const first = await runDelivery(deps({ now: () => t0 }), id);
    expect(first).toEqual({ kind: 'retry', retryAt: new Date(t0.getTime() + 750) });
    const afterOne = await detail(id);
    expect(afterOne).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_response_code: 500,
      last_error: 'answered 500',
    });
    expect(afterOne.next_attempt_at).toBe(new Date(t0.getTime() + 750).toISOString());
    const listed = await api('GET', `/endpoints/${hook.id}/deliveries/`);
    expect(listed.items).toEqual([
      expect.objectContaining({ id, status: 'pending', next_attempt_at: afterOne.next_attempt_at }),
    ]);
    expect(
      json(await t.app.inject({ method: 'GET', url: `${base}/endpoints/${hook.id}/`, headers: bearer(admin.access) }))
        .failing_since,
    ).toBe(t0.toISOString());

    // Not due yet: left alone, nothing sent.
    expect(await runDelivery(deps({ now: () => new Date(t0.getTime() + 100) }), id)).toEqual(first);
    expect(requestsTo(hook.path)).toHaveLength(1);

    const second = await runDelivery(deps({ now: () => new Date(t0.getTime() + 750) }), id);
    expect(second).toEqual({ kind: 'retry', retryAt: new Date(t0.getTime() + 750 + 1_500) });
    expect(await runDelivery(deps({ now: () => new Date(t0.getTime() + 2_250) }), id)).toEqual({ kind: 'done' });

    const delivery = await detail(id);
    expect(delivery).toMatchObject({
      status: 'succeeded',
      attempts: 3,
      last_response_code: 200,
      next_attempt_at: null,
    });
    expect(delivery.attempt_log.map((a: Json) => [a.response_code, a.error, a.response_snippet])).toEqual([
      [500, 'answered 500', 'database down'],
      [500, 'answered 500', 'database down'],
      [200, null, null],
    ]);
    const ids = requestsTo(hook.path).map((r) => r.headers['webhook-id']);
    expect(new Set(ids)).toEqual(new Set([delivery.message_id]));
    expect(ids).toHaveLength(3);
    const endpointNow = await api('GET', `/endpoints/${hook.id}/`);
    expect(endpointNow).toMatchObject({ is_active: true, failing_since: null });
  });

  it('counts no answer within WEBHOOK_TIMEOUT_MS as a failure and schedules a retry', async () => {
    const hook = await endpoint({ behaviour: () => 'hang' });
    const id = await deliveryFor(hook.id, event());
    const started = Date.now();
    const next = await runDelivery(deps({ settings: { timeoutMs: 300 } }), id);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(next.kind).toBe('retry');
    const delivery = await detail(id);
    expect(delivery).toMatchObject({
      status: 'pending',
      last_response_code: null,
      last_error: 'no answer within 300 ms',
    });
    expect(delivery.last_duration_ms).toBeGreaterThanOrEqual(290);
  });

  it('does not follow redirects: a 3xx is a failure', async () => {
    const hook = await endpoint({
      behaviour: () => ({ status: 307, headers: { location: receiver.url('/elsewhere') } }),
    });
    const id = await deliveryFor(hook.id, event());
    expect((await runDelivery(deps(), id)).kind).toBe('retry');
    expect(await detail(id)).toMatchObject({ last_response_code: 307, last_error: 'redirect (307) not followed' });
    expect(requestsTo('/elsewhere')).toEqual([]);
  });

  it('keeps only the first 256 bytes of an answer, without NUL characters', async () => {
    const hook = await endpoint({ behaviour: () => ({ status: 400, body: `bad\u0000${'é'.repeat(1_000)}` }) });
    const id = await deliveryFor(hook.id, event());
    await runDelivery(deps(), id);
    const [attempt] = (await detail(id)).attempt_log;
    expect(attempt.response_snippet.startsWith('bad')).toBe(true);
    expect(attempt.response_snippet).not.toContain('\u0000');
    expect(Buffer.byteLength(attempt.response_snippet)).toBeLessThanOrEqual(256 + 2);
  });

  it('is attempted once at a time: a second runner finds it taken and is told when to look again', async () => {
    const hook = await endpoint({ behaviour: () => ({ status: 200, delayMs: 100 }) });
    const id = await deliveryFor(hook.id, event());
    const [a, b] = await Promise.all([runDelivery(deps(), id), runDelivery(deps(), id)]);
    expect([a, b].filter((n) => n.kind === 'done').length).toBeGreaterThanOrEqual(1);
    expect(requestsTo(hook.path)).toHaveLength(1);
    expect((await detail(id)).attempts).toBe(1);
  });

  it('is dropped when its endpoint is deleted while it is being sent', async () => {
    const hook = await endpoint({ behaviour: () => ({ status: 200, delayMs: 200 }) });
    const id = await deliveryFor(hook.id, event());
    const running = runDelivery(deps(), id);
    while (requestsTo(hook.path).length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `${base}/endpoints/${hook.id}/`,
      headers: bearer(admin.access),
    });
    expect(deleted.statusCode).toBe(204);
    expect(await running).toEqual({ kind: 'failed' });
    expectProblem(
      await t.app.inject({ method: 'GET', url: `${base}/deliveries/${id}/`, headers: bearer(admin.access) }),
      404,
      'webhook_delivery_not_found',
    );
  });

  it('reports a settled or unknown delivery without sending anything', async () => {
    const hook = await endpoint();
    const id = await deliveryFor(hook.id, event());
    await runDelivery(deps(), id);
    expect(await runDelivery(deps(), id)).toEqual({ kind: 'done' });
    expect(requestsTo(hook.path)).toHaveLength(1);
    expect(await runDelivery(deps(), 999_999)).toEqual({ kind: 'failed' });
  });
});

describe('one endpoint never delays another', () => {
  it('delivers to a fast endpoint while a slow one is still waited for', async () => {
    const slow = await endpoint({ events: ['order.paid'], behaviour: () => 'hang' });
    const fast = await endpoint({ events: ['order.paid'] });
    const e = event('order.paid');
    const slowId = await deliveryFor(slow.id, e);
    const fastId = await deliveryFor(fast.id, e);
    const slowDeps = deps({ settings: { timeoutMs: 3_000 } });

    const started = Date.now();
    let slowDone = 0;
    const slowRun = runDelivery(slowDeps, slowId).then((next) => {
      slowDone = Date.now();
      return next;
    });
    expect(await runDelivery(slowDeps, fastId)).toEqual({ kind: 'done' });
    expect(slowDone).toBe(0);
    expect((await slowRun).kind).toBe('retry');
    expect(slowDone - started).toBeGreaterThanOrEqual(2_900);
  });

  it('lets a test runner work through many deliveries to failing and working endpoints together', async () => {
    const broken = await endpoint({ events: ['order.cancelled'], behaviour: () => ({ status: 503 }) });
    const working = await endpoint({ events: ['order.cancelled'] });
    const events = [event('order.cancelled'), event('order.cancelled'), event('order.cancelled')];
    for (const e of events) await scheduleDeliveries(t.database.db, e);
    const now = new Date();
    const endpointIds = [broken.id, working.id];
    await runDueDeliveries({ deps: deps(), endpointIds, now, until: new Date(now.getTime() + 5_000) });
    expect(requestsTo(working.path)).toHaveLength(3);
    expect(requestsTo(broken.path).length).toBeGreaterThanOrEqual(3 * 3);
    const page = await api('GET', `/endpoints/${working.id}/deliveries/?status=succeeded&limit=2`);
    expect(page.items).toHaveLength(2);
    expect(page.next_cursor).not.toBeNull();
    const rest = await api(
      'GET',
      `/endpoints/${working.id}/deliveries/?status=succeeded&limit=2&cursor=${page.next_cursor}`,
    );
    expect(rest).toMatchObject({ next_cursor: null });
    expect(rest.items).toHaveLength(1);
    expect(page.items[0].id).toBeGreaterThan(page.items[1].id);
    expect((await api('GET', `/endpoints/${broken.id}/deliveries/?status=succeeded`)).items).toEqual([]);
    expect((await api('GET', `/endpoints/${broken.id}/deliveries/?status=pending`)).items).toHaveLength(3);
  });
});

describe('attempts made at once', () => {
  it("are each made and logged once, and reuse the endpoint's kept-alive connections", async () => {
    const hook = await endpoint({ events: ['payment.refunded'] });
    const events = Array.from({ length: 24 }, () => event('payment.refunded'));
    const ids = await Promise.all(events.map((e) => deliveryFor(hook.id, e)));
    const connections = new WebhookConnections(4);
    try {
      const nexts = await Promise.all(ids.map((id) => runDelivery(deps({ connections }), id)));
      expect(nexts).toEqual(ids.map(() => ({ kind: 'done' })));
      // Again at once: every one is settled, so none is sent twice.
      const again = await Promise.all(ids.map((id) => runDelivery(deps({ connections }), id)));
      expect(again).toEqual(ids.map(() => ({ kind: 'done' })));
    } finally {
      connections.close();
    }
    const got = requestsTo(hook.path);
    expect(got).toHaveLength(ids.length);
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(ids.length);
    // At most 4 connections (the pool's size) carried the 24 deliveries.
    expect(new Set(got.map((r) => r.remotePort)).size).toBeLessThanOrEqual(4);
    for (const id of ids) {
      const delivery = await detail(id);
      expect(delivery).toMatchObject({ status: 'succeeded', attempts: 1, last_response_code: 204 });
      expect(delivery.attempt_log).toHaveLength(1);
    }
  });
  it('go out again on a new connection when the kept-alive one was closed as they were sent', async () => {
    // A receiver that drops every connection at its second request, without answering it.
    let seen = 0;
    const sockets = new Set<number | undefined>();
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        seen += 1;
        sockets.add(req.socket.remotePort);
        const n = ((req.socket as { served?: number }).served ?? 0) + 1;
        (req.socket as { served?: number }).served = n;
        if (n === 2) req.socket.destroy();
        else res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const hook = await endpoint({ events: ['payment.failed'], url: `http://127.0.0.1:${port}/dropping` });
    const connections = new WebhookConnections(1);
    try {
      const first = await deliveryFor(hook.id, event('payment.failed'));
      const second = await deliveryFor(hook.id, event('payment.failed'));
      expect(await runDelivery(deps({ connections }), first)).toEqual({ kind: 'done' });
      expect(await runDelivery(deps({ connections }), second)).toEqual({ kind: 'done' });
      expect(seen).toBe(3);
      expect(sockets.size).toBe(2);
      expect((await detail(second)).attempt_log).toHaveLength(1);
    } finally {
      connections.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('24 hours of failures', () => {
  it('gives a delivery up after 24 hours of retries and switches its endpoint off, saying so', async () => {
    const hook = await endpoint({ behaviour: () => ({ status: 500 }) });
    const id = await deliveryFor(hook.id, event());
    const laterId = await deliveryFor(hook.id, event());
    const t0 = new Date();
    const at = (ms: number) => () => new Date(t0.getTime() + ms);

    expect((await runDelivery(deps({ now: at(0) }), id)).kind).toBe('retry');
    const lastRetry = await runDelivery(deps({ now: at(RETRY_WINDOW_MS - 1_000) }), id);
    expect(lastRetry).toEqual({ kind: 'retry', retryAt: new Date(t0.getTime() + RETRY_WINDOW_MS) });
    expect((await api('GET', `/endpoints/${hook.id}/`)).is_active).toBe(true);

    expect(await runDelivery(deps({ now: at(RETRY_WINDOW_MS) }), id)).toEqual({ kind: 'failed' });
    expect(await detail(id)).toMatchObject({
      status: 'failed',
      attempts: 3,
      next_attempt_at: null,
      last_response_code: 500,
    });
    const off = await api('GET', `/endpoints/${hook.id}/`);
    expect(off.is_active).toBe(false);
    expect(off.disabled_reason).toMatch(/^switched off: every delivery failed from .+ to .+$/);

    // What is still pending for it fails without being sent, and says why.
    const sent = requestsTo(hook.path).length;
    expect(await runDelivery(deps({ now: at(RETRY_WINDOW_MS + 1) }), laterId)).toEqual({ kind: 'failed' });
    expect(requestsTo(hook.path)).toHaveLength(sent);
    expect((await detail(laterId)).last_error).toBe(`not sent: ${off.disabled_reason}`);
    const unsent = event();
    await scheduleDeliveries(t.database.db, unsent);
    const forIt = await t.database.db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.endpointId, hook.id), eq(webhookDeliveries.eventId, unsent.id)));
    expect(forIt).toEqual([]);

    // Switched on again, it starts afresh.
    const on = await api('PATCH', `/endpoints/${hook.id}/`, { is_active: true });
    expect(on).toMatchObject({ is_active: true, disabled_reason: null, failing_since: null });
  });

  it('keeps an endpoint on when one of its deliveries got through within the 24 hours', async () => {
    let healthy = false;
    const hook = await endpoint({ behaviour: () => ({ status: healthy ? 200 : 500 }) });
    const failing = await deliveryFor(hook.id, event());
    const t0 = new Date();
    const at = (ms: number) => () => new Date(t0.getTime() + ms);
    await runDelivery(deps({ now: at(0) }), failing);
    healthy = true;
    expect(await runDelivery(deps({ now: at(1_000) }), await deliveryFor(hook.id, event()))).toEqual({ kind: 'done' });
    healthy = false;
    await runDelivery(deps({ now: at(RETRY_WINDOW_MS - 60_000) }), failing);
    expect(await runDelivery(deps({ now: at(RETRY_WINDOW_MS) }), failing)).toEqual({ kind: 'failed' });
    expect(await api('GET', `/endpoints/${hook.id}/`)).toMatchObject({ is_active: true, disabled_reason: null });
  });
});

describe('redelivery by hand', () => {
  it('sends a delivery again, due at once, with the same webhook-id and a fresh retry window', async () => {
    const hook = await endpoint();
    const id = await deliveryFor(hook.id, event());
    await runDelivery(deps(), id);
    const before = Date.now();
    const again = await api('POST', `/deliveries/${id}/redeliver/`);
    expect(again).toMatchObject({ id, status: 'pending', attempts: 1 });
    expect(Date.parse(again.next_attempt_at)).toBeGreaterThanOrEqual(before - 1);
    expect(Date.parse(again.next_attempt_at)).toBeLessThanOrEqual(Date.now());
    expect(await runDelivery(deps(), id)).toEqual({ kind: 'done' });
    const [one, two] = requestsTo(hook.path);
    expect(two?.headers['webhook-id']).toBe(one?.headers['webhook-id']);
    expect(two?.body).toBe(one?.body);
    expect((await detail(id)).attempt_log).toHaveLength(2);
  });

  it('retries a failed delivery for another 24 hours from its redelivery', async () => {
    let up = false;
    const hook = await endpoint({ behaviour: () => ({ status: up ? 204 : 502 }) });
    const id = await deliveryFor(hook.id, event());
    const t0 = new Date();
    await runDelivery(deps({ now: () => t0 }), id);
    await runDelivery(deps({ now: () => new Date(t0.getTime() + RETRY_WINDOW_MS) }), id);
    expect((await detail(id)).status).toBe('failed');
    await api('PATCH', `/endpoints/${hook.id}/`, { is_active: true });
    await api('POST', `/deliveries/${id}/redeliver/`);
    expect((await runDelivery(deps(), id)).kind).toBe('retry');
    up = true;
    const next = await detail(id);
    expect(await runDelivery(deps({ now: () => new Date(next.next_attempt_at) }), id)).toEqual({ kind: 'done' });
  });

  it('refuses to redeliver to an endpoint that is switched off (409)', async () => {
    const hook = await endpoint();
    const id = await deliveryFor(hook.id, event());
    await api('PATCH', `/endpoints/${hook.id}/`, { is_active: false });
    const res = await t.app.inject({
      method: 'POST',
      url: `${base}/deliveries/${id}/redeliver/`,
      headers: bearer(admin.access),
    });
    expectProblem(res, 409, 'webhook_endpoint_inactive');
  });
});

describe('secret rotation', () => {
  it('signs with the new secret from the next attempt on; the old one no longer verifies', async () => {
    const hook = await endpoint();
    const { secret } = await api('POST', `/endpoints/${hook.id}/rotate-secret/`);
    const id = await deliveryFor(hook.id, event());
    await runDelivery(deps(), id);
    const [got] = requestsTo(hook.path);
    const headers = got!.headers as Record<string, string>;
    expect(new Webhook(secret).verify(got!.body, headers)).toMatchObject({ type: 'order.placed' });
    expect(() => new Webhook(hook.secret).verify(got!.body, headers)).toThrow(WebhookVerificationError);
  });
});

describe('SSRF: private addresses refused at delivery time (WEBHOOK_ALLOW_PRIVATE=false)', () => {
  const closed = () => deps({ settings: { allowPrivate: false } });

  it.each([
    ['127.0.0.1', (port: number) => `http://127.0.0.1:${port}/ssrf`],
    ['::1', (port: number) => `http://[::1]:${port}/ssrf`],
    ['::ffff:127.0.0.1', (port: number) => `http://[::ffff:127.0.0.1]:${port}/ssrf`],
    ['10.0.0.1', () => 'http://10.0.0.1/ssrf'],
    ['169.254.169.254', () => 'http://169.254.169.254/latest/meta-data/'],
    ['localhost', (port: number) => `http://localhost:${port}/ssrf`],
  ])('refuses %s and records why', async (_name, url) => {
    const hook = await endpoint({ url: url(receiver.port) });
    const id = await deliveryFor(hook.id, event());
    expect((await runDelivery(closed(), id)).kind).toBe('retry');
    const delivery = await detail(id);
    expect(delivery).toMatchObject({ status: 'pending', last_response_code: null });
    expect(delivery.last_error).toMatch(/not a public address \(WEBHOOK_ALLOW_PRIVATE is false\)/);
    expect(requestsTo('/ssrf')).toEqual([]);
  });

  it('refuses a host name that resolves to a private address when the delivery is made (DNS rebinding)', async () => {
    const hook = await endpoint({ url: `http://hooks.rebound.example:${receiver.port}/ssrf` });
    const id = await deliveryFor(hook.id, event());
    const resolve = async () => [{ address: '127.0.0.1', family: 4 }];
    expect((await runDelivery({ ...closed(), resolve }, id)).kind).toBe('retry');
    expect((await detail(id)).last_error).toBe(
      'hooks.rebound.example resolves to 127.0.0.1, not a public address (WEBHOOK_ALLOW_PRIVATE is false)',
    );
    expect(requestsTo('/ssrf')).toEqual([]);
    // The same name, allowed to be private, connects to the address it resolved to.
    receiver.on('/ssrf', () => ({ status: 204 }));
    await api('POST', `/deliveries/${id}/redeliver/`);
    expect(await runDelivery({ ...deps(), resolve }, id)).toEqual({ kind: 'done' });
    expect(requestsTo('/ssrf')).toHaveLength(1);
  });
});
