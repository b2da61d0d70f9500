import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookSettings } from '../src/config.js';
import { webhookDeliveries } from '../src/db/schema.js';
import { type DeliveryDispatcher, startDeliveryDispatcher } from '../src/webhooks/delivery-dispatcher.js';
import { claimDueDeliveries } from '../src/webhooks/delivery-store.js';
import { scheduleDeliveries } from '../src/webhooks/webhook-delivery.js';
import { type AdminApi, adminApi } from './fixtures.js';
import { buildTestApp, signInAdmin, type TestApp, until } from './helpers.js';
import { type Behaviour, type Receiver, startReceiver } from './webhook-receiver.js';

// The dispatcher on the real database with a real HTTP receiver: the deliveries table as the queue of attempts
// (decision 0044). The app runs no dispatcher of its own (jobs off); each test starts the ones it needs.

const settings: WebhookSettings = { allowPrivate: true, timeoutMs: 5_000, retryBaseMs: 100, retryMaxDelayMs: 1_000 };
/** A poll no test waits for: what a test sees happened because of a wake, a slot freeing or a retry's time. */
const NO_POLL_MS = 600_000;

let t: TestApp;
let receiver: Receiver;
let admin: AdminApi;
beforeAll(async () => {
  t = await buildTestApp({ config: { webhooks: settings, jobsEnabled: false } });
  admin = adminApi(t, await signInAdmin(t));
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

const started: DeliveryDispatcher[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((d) => d.stop()));
  // What a test left waiting is no later test's work.
  await t.database.db
    .update(webhookDeliveries)
    .set({ status: 'failed', nextAttemptAt: null })
    .where(eq(webhookDeliveries.status, 'pending'));
});

const quiet = { warn: () => {}, error: () => {} };
function dispatcher(options: { concurrency?: number; pollMs?: number } = {}): DeliveryDispatcher {
  const started1 = startDeliveryDispatcher({
    deps: { database: t.database, settings, random: () => 0.5 },
    concurrency: options.concurrency ?? 4,
    pollMs: options.pollMs ?? NO_POLL_MS,
    log: quiet,
  });
  started.push(started1);
  return started1;
}

let paths = 0;
/** An endpoint on a path of its own; the endpoints of earlier tests are switched off, so only its deliveries wait. */
async function endpoint(behaviour?: Behaviour) {
  for (const e of (await admin.get('/webhook/dashboard/api/endpoints/')) as { id: number }[]) {
    await admin.patch(`/webhook/dashboard/api/endpoints/${e.id}/`, { is_active: false });
  }
  paths += 1;
  const path = `/dispatch-${paths}`;
  if (behaviour) receiver.on(path, behaviour);
  const created = await admin.post('/webhook/dashboard/api/endpoints/', {
    url: receiver.url(path),
    events: ['order.placed'],
  });
  return { id: created.id as number, path };
}

/** `n` events' deliveries, made in this order; their ids and webhook-ids. */
async function deliveries(n: number) {
  const made: { id: number; messageId: string }[] = [];
  for (let i = 0; i < n; i += 1) {
    const event = {
      id: randomUUID(),
      type: 'order.placed' as const,
      created_at: new Date().toISOString(),
      data: { i },
    };
    const [due] = await scheduleDeliveries(t.database.db, event);
    if (!due) throw new Error('no delivery was made');
    const [row] = await t.database.db
      .select({ messageId: webhookDeliveries.messageId })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.id, due.id));
    made.push({ id: due.id, messageId: row?.messageId ?? '' });
  }
  return made;
}

const requestsTo = (path: string) => receiver.received.filter((r) => r.path === path);
const statusesOf = async (ids: number[]) =>
  (
    await t.database.db
      .select({ status: webhookDeliveries.status })
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.id, ids))
  ).map((r) => r.status);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the webhook delivery dispatcher', () => {
  it('attempts a backlog once each, never more than its concurrency at a time, the longest waiting first', async () => {
    let active = 0;
    let most = 0;
    const hook = await endpoint(() => {
      active += 1;
      most = Math.max(most, active);
      setTimeout(() => {
        active -= 1;
      }, 30);
      return { status: 204, delayMs: 30 };
    });
    const made = await deliveries(20);
    dispatcher({ concurrency: 3 });

    const got = await until(
      'twenty deliveries',
      () => requestsTo(hook.path),
      (r) => r.length >= 20,
    );
    const ids = got.map((r) => r.headers['webhook-id']);
    expect([...ids].sort()).toEqual(made.map((m) => m.messageId).sort());
    expect(new Set(got.slice(0, 3).map((r) => r.headers['webhook-id']))).toEqual(
      new Set(made.slice(0, 3).map((m) => m.messageId)),
    );
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(3);
    await until(
      'every delivery to be recorded',
      () => statusesOf(made.map((m) => m.id)),
      (s) => s.every((status) => status === 'succeeded'),
    );
    await sleep(200);
    expect(requestsTo(hook.path)).toHaveLength(20);
  });

  it('waits for its poll until woken, and attempts what was made due at once when woken', async () => {
    const hook = await endpoint();
    const d = dispatcher();
    await sleep(100);
    const [made] = await deliveries(1);
    await sleep(300);
    expect(requestsTo(hook.path)).toHaveLength(0);

    d.wake();
    const [got] = await until(
      'the delivery',
      () => requestsTo(hook.path),
      (r) => r.length === 1,
    );
    expect(got?.headers['webhook-id']).toBe(made?.messageId);
  });

  it('attempts a failed delivery again when its retry is due, without waiting for a poll', async () => {
    const hook = await endpoint((n) => ({ status: n === 1 ? 503 : 204 }));
    const [made] = await deliveries(1);
    dispatcher();
    await until(
      'the retry to succeed',
      () => statusesOf([made?.id ?? 0]),
      (s) => s[0] === 'succeeded',
    );
    expect(requestsTo(hook.path).map((r) => r.headers['webhook-id'])).toEqual([made?.messageId, made?.messageId]);
  });

  it('shares a backlog with a second dispatcher on the same database, each delivery sent once', async () => {
    const hook = await endpoint(() => ({ status: 204, delayMs: 5 }));
    const made = await deliveries(30);
    dispatcher({ concurrency: 3 });
    dispatcher({ concurrency: 3 });
    await until(
      'thirty deliveries recorded',
      () => statusesOf(made.map((m) => m.id)),
      (s) => s.every((status) => status === 'succeeded'),
    );
    const ids = requestsTo(hook.path).map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
  });

  it('leaves a delivery leased by another process alone until the lease ends, then takes it', async () => {
    const hook = await endpoint();
    const [made] = await deliveries(1);
    // A process claimed it and died before attempting it.
    const now = new Date();
    const [claimed] = await claimDueDeliveries(t.database, {
      now,
      leaseUntil: new Date(now.getTime() + 800),
      limit: 5,
    });
    expect(claimed?.delivery.id).toBe(made?.id);

    const d = dispatcher({ pollMs: 100 });
    d.wake();
    await sleep(400);
    expect(requestsTo(hook.path)).toHaveLength(0);
    await until(
      'the delivery after the lease',
      () => requestsTo(hook.path),
      (r) => r.length === 1,
    );
    expect(await statusesOf([made?.id ?? 0])).toEqual(['succeeded']);
  });

  it('when stopped, records the attempts in flight and claims nothing more', async () => {
    const hook = await endpoint(() => ({ status: 204, delayMs: 300 }));
    const [first] = await deliveries(1);
    const d = dispatcher();
    await until(
      'the first attempt to be sent',
      () => requestsTo(hook.path),
      (r) => r.length === 1,
    );
    await d.stop();
    expect(d.running()).toBe(0);
    expect(await statusesOf([first?.id ?? 0])).toEqual(['succeeded']);

    const [second] = await deliveries(1);
    d.wake();
    await sleep(300);
    expect(requestsTo(hook.path)).toHaveLength(1);
    expect(await statusesOf([second?.id ?? 0])).toEqual(['pending']);
  });
});
