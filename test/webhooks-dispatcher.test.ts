import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookSettings } from '../src/config.js';
import type { Database, Statement } from '../src/db/client.js';
import { webhookDeliveries } from '../src/db/schema.js';
import { JobQueue } from '../src/jobs/job-queue.js';
import { type DeliveryDispatcher, startDeliveryDispatcher } from '../src/webhooks/delivery-dispatcher.js';
import { claimDueDeliveries } from '../src/webhooks/delivery-store.js';
import { LEGACY_DELIVERY_JOB, registerWebhookJobs } from '../src/webhooks/webhook-jobs.js';
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
function dispatcher(options: { concurrency?: number; pollMs?: number; database?: Database } = {}): DeliveryDispatcher {
  const started1 = startDeliveryDispatcher({
    deps: { database: options.database ?? t.database, settings, random: () => 0.5 },
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

  it('attempts each retry asked for at its time, the later ones too, without waiting for a poll', async () => {
    // Both fail once; the second answers 30 ms later, so its retry comes after the first's.
    const hook = await endpoint((n, request) => {
      const first = requestsTo(request.path).filter((r) => r.headers['webhook-id'] === request.headers['webhook-id']);
      if (first.length > 1) return { status: 204 };
      return n === 1 ? { status: 503 } : { status: 503, delayMs: 30 };
    });
    const made = await deliveries(2);
    dispatcher();
    await until(
      'both retries to succeed',
      () => statusesOf(made.map((m) => m.id)),
      (s) => s.every((status) => status === 'succeeded'),
    );
    expect(requestsTo(hook.path)).toHaveLength(4);
  });

  // On PostgreSQL the two claim over connections of their own, and SKIP LOCKED keeps them off each other's rows; the
  // embedded database has one connection, so there this shows the sharing but not the locking.
  it('shares a backlog with a second dispatcher on the same database, each delivery sent once', async () => {
    const hook = await endpoint(() => ({ status: 204, delayMs: 20 }));
    const made = await deliveries(30);
    const claimed = [0, 0];
    const counting = (n: 0 | 1): Database => ({
      ...t.database,
      run: async <R>(statement: Statement, values: unknown[]) => {
        const rows = await t.database.run<R>(statement, values);
        if (statement.name === 'webhook_claim_next_due') claimed[n] = (claimed[n] ?? 0) + rows.length;
        return rows;
      },
    });
    dispatcher({ concurrency: 3, database: counting(0) });
    dispatcher({ concurrency: 3, database: counting(1) });
    await until(
      'thirty deliveries recorded',
      () => statusesOf(made.map((m) => m.id)),
      (s) => s.every((status) => status === 'succeeded'),
    );
    const ids = requestsTo(hook.path).map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    expect(claimed[0]).toBeGreaterThan(0);
    expect(claimed[1]).toBeGreaterThan(0);
    expect((claimed[0] ?? 0) + (claimed[1] ?? 0)).toBe(30);
  });

  it('leaves a delivery leased by another process alone until the lease ends, then takes it', async () => {
    const hook = await endpoint();
    const [made] = await deliveries(1);
    // A process claimed it and died before attempting it.
    const now = new Date();
    const leaseUntil = new Date(now.getTime() + 2_500);
    const [claimed] = await claimDueDeliveries(t.database, { now, leaseUntil, limit: 5 });
    expect(claimed?.delivery.id).toBe(made?.id);

    const d = dispatcher({ pollMs: 100 });
    d.wake();
    await sleep(1_000);
    expect(requestsTo(hook.path)).toHaveLength(0);
    await until(
      'the delivery after the lease',
      () => requestsTo(hook.path),
      (r) => r.length === 1,
    );
    // The request arrives before its answer is recorded: wait for the record.
    await until(
      'the delivery to be recorded',
      () => statusesOf([made?.id ?? 0]),
      (s) => s[0] === 'succeeded',
    );
    expect(requestsTo(hook.path)).toHaveLength(1);
  });

  it('sends a delivery redelivered mid-attempt once more, and the first attempt does not move it on', async () => {
    // The first answer (a failure) comes while the redelivery's attempt is still waiting for its own (a success).
    const hook = await endpoint((n) => (n === 1 ? { status: 503, delayMs: 1_500 } : { status: 204, delayMs: 2_500 }));
    const [made] = await deliveries(1);
    const id = made?.id ?? 0;
    const d = dispatcher();
    await until(
      'the first attempt to be sent',
      () => requestsTo(hook.path),
      (r) => r.length === 1,
    );
    await admin.post(`/webhook/dashboard/api/deliveries/${id}/redeliver/`, {}, 200);
    d.wake();
    const settled = await until(
      'both attempts to be logged',
      () => admin.get(`/webhook/dashboard/api/deliveries/${id}/`),
      (detail) => detail.attempt_log.length === 2,
    );
    // The failure, logged first, left the delivery to the redelivery's attempt: no retry of it was sent.
    expect(settled).toMatchObject({ status: 'succeeded', attempts: 2, next_attempt_at: null });
    expect(settled.attempt_log.map((a: { response_code: number }) => a.response_code)).toEqual([503, 204]);
    await sleep(500);
    expect(requestsTo(hook.path)).toHaveLength(2);
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

describe("the app's webhook deliveries", () => {
  // The app's own dispatcher and job worker, with a poll no test waits for.
  let app: TestApp;
  let api: AdminApi;
  beforeAll(async () => {
    app = await buildTestApp({ config: { webhooks: settings, jobsEnabled: true, jobsPollMs: NO_POLL_MS } });
    api = adminApi(app, await signInAdmin(app));
  });
  afterAll(() => app.close());

  it('send a redelivery at once, without waiting for a poll', async () => {
    paths += 1;
    const path = `/dispatch-app-${paths}`;
    await api.post('/webhook/dashboard/api/endpoints/', { url: receiver.url(path), events: ['order.placed'] });
    // Made due behind the dispatcher's back (no wake): it waits for the poll.
    const event = { id: randomUUID(), type: 'order.placed' as const, created_at: new Date().toISOString(), data: {} };
    const [due] = await scheduleDeliveries(app.database.db, event);
    await sleep(300);
    expect(requestsTo(path)).toHaveLength(0);

    await api.post(`/webhook/dashboard/api/deliveries/${due?.id}/redeliver/`, {}, 200);
    await until(
      'the redelivery',
      () => requestsTo(path),
      (r) => r.length === 1,
    );
  });

  it('cut off an attempt still waiting for its receiver as the app closes, and log it as failed', async () => {
    // A receiver timeout longer than the 5 s the closing app waits for its attempts.
    const webhooks = { ...settings, timeoutMs: 20_000 };
    const closing = await buildTestApp({ config: { webhooks, jobsEnabled: true, jobsPollMs: NO_POLL_MS } });
    try {
      const closingApi = adminApi(closing, await signInAdmin(closing));
      paths += 1;
      const path = `/dispatch-app-${paths}`;
      receiver.on(path, () => 'hang');
      await closingApi.post('/webhook/dashboard/api/endpoints/', { url: receiver.url(path), events: ['order.placed'] });
      const event = { id: randomUUID(), type: 'order.placed' as const, created_at: new Date().toISOString(), data: {} };
      const [due] = await scheduleDeliveries(closing.database.db, event);
      await closingApi.post(`/webhook/dashboard/api/deliveries/${due?.id}/redeliver/`, {}, 200);
      await until(
        'the attempt to be sent',
        () => requestsTo(path),
        (r) => r.length === 1,
      );

      // What main.ts does next is close the database: nothing may be left to write once the app has closed.
      const transaction = closing.database.transaction.bind(closing.database);
      let unfinished = 0;
      let startedAfterClose = 0;
      let closed = false;
      closing.database.transaction = (work, options) => {
        if (closed) startedAfterClose += 1;
        unfinished += 1;
        return transaction(work, options).finally(() => {
          unfinished -= 1;
        });
      };
      await closing.app.close();
      closed = true;
      expect(unfinished).toBe(0);
      await sleep(300);
      expect(startedAfterClose).toBe(0);
      const [row] = await closing.database.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.id, due?.id ?? 0));
      expect(row).toMatchObject({ status: 'pending', attempts: 1, lastResponseCode: null });
      expect(row?.lastError).toBeTruthy();
      // Retried on the delivery's schedule (WEBHOOK_RETRY_BASE_MS), not at the end of a lease a minute away.
      expect((row?.nextAttemptAt?.getTime() ?? 0) - Date.now()).toBeLessThan(settings.retryMaxDelayMs);
    } finally {
      await closing.close();
    }
  }, 30_000);

  it('end a webhook.deliver job of the release before at once, sending nothing for it', async () => {
    const queue = new JobQueue();
    registerWebhookJobs(queue, { database: app.database });
    const before = receiver.received.length;
    const job = {
      id: 1,
      kind: LEGACY_DELIVERY_JOB,
      payload: { delivery_id: 1 },
      attempt: 1,
      createdAt: new Date(),
      signal: new AbortController().signal,
    };
    await expect(queue.handlerOf(LEGACY_DELIVERY_JOB)?.run(job)).resolves.toBeUndefined();
    expect(receiver.received.length).toBe(before);
  });
});
