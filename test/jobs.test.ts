import { spawn } from 'node:child_process';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/client.js';
import { jobs } from '../src/db/schema.js';
import { enqueueJob, enqueueJobs, type Job, JobQueue, PermanentJobError } from '../src/jobs/job-queue.js';
import { claimJobs } from '../src/jobs/jobs.repository.js';
import { type JobWorker, startJobWorker } from '../src/jobs/worker.js';
import { placeGuestOrder, adminApi, guestAddress } from './fixtures.js';
import { buildTestApp, createTestDatabase, onPostgres, signInAdmin, type TestDatabase } from './helpers.js';

// Background jobs on the shared database: claimed with FOR UPDATE SKIP LOCKED under a renewed lease, retried with
// backoff, taken again when their worker dies, given back when it stops.

let test: TestDatabase;
let database: Database;
const workers: JobWorker[] = [];
const problems: string[] = [];
const quiet = { info: () => {}, warn: () => {}, error: (_: unknown, message: string) => problems.push(message) };

beforeAll(async () => {
  test = await createTestDatabase();
  database = test.database;
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  await database.db.delete(jobs);
  // Jobs that fail for good say so; nothing else a worker does may go wrong.
  expect(problems.splice(0).filter((p) => p !== 'job failed for good')).toEqual([]);
});
afterAll(() => test.drop());

function work(queue: JobQueue, options: Partial<Parameters<typeof startJobWorker>[0]> = {}): JobWorker {
  const worker = startJobWorker({ database, queue, log: quiet, pollMs: 20, concurrency: 4, ...options });
  workers.push(worker);
  return worker;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads until `done` says yes, for 20 s at most. */
async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const ms = 20_000;
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${ms} ms`);
    await sleep(10);
  }
}

const rowOf = async (id: number | undefined) =>
  (
    await database.db
      .select()
      .from(jobs)
      .where(eq(jobs.id, id ?? 0))
  )[0];
const finished = (id: number | undefined) =>
  until(
    `job ${id}`,
    () => rowOf(id),
    (row) => row?.status === 'done' || row?.status === 'failed',
  );

describe('running jobs', () => {
  it('runs a job once its transaction commits, woken at once, never one from a transaction rolled back', async () => {
    const queue = new JobQueue();
    const seen: unknown[] = [];
    queue.handle('test.echo', async (job) => {
      seen.push(job.payload);
    });
    // A poll this slow never comes during the test: only the wake-up after the commit can start the job.
    work(queue, { pollMs: 600_000 });
    await sleep(50);
    await expect(
      queue.transaction(database.db, async (tx) => {
        await enqueueJob(tx, queue, { kind: 'test.echo', payload: { n: 0 } });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const id = await queue.transaction(database.db, (tx) =>
      enqueueJob(tx, queue, { kind: 'test.echo', payload: { n: 1 } }),
    );
    const row = await finished(id);
    expect(row).toMatchObject({ status: 'done', attempts: 1, lockedBy: null, lockedUntil: null, lastError: null });
    expect(row?.finishedAt).toBeInstanceOf(Date);
    expect(seen).toEqual([{ n: 1 }]);
    expect(await database.db.select().from(jobs)).toHaveLength(1);
  });

  it('calls what a transaction asked for after it commits, in order, and nothing of one that rolled back', async () => {
    const queue = new JobQueue();
    const calls: string[] = [];
    await expect(
      queue.transaction(database.db, async (tx) => {
        queue.afterCommit(tx, () => calls.push('rolled back'));
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await queue.transaction(database.db, async (tx) => {
      queue.afterCommit(tx, () => calls.push('first'));
      queue.afterCommit(tx, () => calls.push('second'));
      expect(calls).toEqual([]);
    });
    expect(calls).toEqual(['first', 'second']);
    // Outside a transaction a statement commits as it runs: at once.
    queue.afterCommit(database.db, () => calls.push('at once'));
    expect(calls).toEqual(['first', 'second', 'at once']);
  });

  it('marks many jobs done that finish together, and leaves one whose claim another worker took', async () => {
    const queue = new JobQueue();
    const warnings: string[] = [];
    queue.handle('test.quick', async () => {});
    queue.handle('test.stolen', async (job) => {
      // As if this worker had stalled past its lease and another had claimed the job meanwhile.
      await database.db.update(jobs).set({ lockedBy: 'another-worker' }).where(eq(jobs.id, job.id));
    });
    const ids = await enqueueJobs(database.db, queue, [
      ...Array.from({ length: 20 }, (_, n) => ({ kind: 'test.quick', payload: { n } })),
      { kind: 'test.stolen' },
    ]);
    work(queue, { concurrency: 32, log: { ...quiet, warn: (_: unknown, message: string) => warnings.push(message) } });
    for (const id of ids.slice(0, 20)) expect(await finished(id)).toMatchObject({ status: 'done', attempts: 1 });
    await until(
      'the warning',
      async () => warnings,
      (w) => w.length > 0,
    );
    expect(warnings).toEqual(['job done after its lease was lost']);
    expect(await rowOf(ids[20])).toMatchObject({ status: 'running', lockedBy: 'another-worker' });
  });

  it('enqueues a keyed job once, even after it ran', async () => {
    const queue = new JobQueue();
    let runs = 0;
    queue.handle('test.once', async () => {
      runs++;
    });
    const first = await enqueueJob(database.db, queue, { kind: 'test.once', key: 'order-7' });
    expect(await enqueueJob(database.db, queue, { kind: 'test.once', key: 'order-7' })).toBeUndefined();
    expect(
      await enqueueJobs(database.db, queue, [
        { kind: 'test.once', key: 'order-7' },
        { kind: 'test.once', key: 'order-8' },
      ]),
    ).toHaveLength(1);
    work(queue);
    await finished(first);
    expect(await enqueueJob(database.db, queue, { kind: 'test.once', key: 'order-7' })).toBeUndefined();
    await until(
      'runs',
      async () => runs,
      (n) => n === 2,
    );
  });

  it('runs a job enqueued while every slot is busy as soon as a slot frees, not at the next poll', async () => {
    const queue = new JobQueue();
    const ran: number[] = [];
    // Each job enqueues the next while it holds the only slot: the wake-up comes with no slot free.
    queue.handle<{ n: number }>('test.chain', async (job) => {
      ran.push(job.payload.n);
      if (job.payload.n < 5)
        await enqueueJob(database.db, queue, { kind: 'test.chain', payload: { n: job.payload.n + 1 } });
    });
    work(queue, { pollMs: 600_000, concurrency: 1 });
    await sleep(50);
    await enqueueJob(database.db, queue, { kind: 'test.chain', payload: { n: 1 } });
    await until(
      'the chain of five jobs',
      async () => ran.length,
      (n) => n === 5,
    );
    expect(ran).toEqual([1, 2, 3, 4, 5]);
  });

  it('runs a job no sooner than asked', async () => {
    const queue = new JobQueue();
    const ranAt: number[] = [];
    queue.handle('test.later', async () => {
      ranAt.push(Date.now());
    });
    work(queue);
    const enqueued = Date.now();
    const [delayed, atTime] = await enqueueJobs(database.db, queue, [
      { kind: 'test.later', delayMs: 300 },
      { kind: 'test.later', runAt: new Date(enqueued + 300) },
    ]);
    await finished(delayed);
    await finished(atTime);
    for (const at of ranAt) expect(at - enqueued).toBeGreaterThanOrEqual(250);
  });

  it('leaves the jobs of kinds it has no handler for to the processes that have one', async () => {
    const queue = new JobQueue();
    queue.handle('test.mine', async () => {});
    work(queue);
    const [mine, theirs] = await enqueueJobs(database.db, queue, [{ kind: 'test.mine' }, { kind: 'test.theirs' }]);
    await finished(mine);
    await sleep(100);
    expect(await rowOf(theirs)).toMatchObject({ status: 'queued', attempts: 0 });
  });
});

describe('failures', () => {
  it('retries a failing job with growing delays, then records its success', async () => {
    const queue = new JobQueue();
    const attempts: { attempt: number; at: number }[] = [];
    queue.handle(
      'test.flaky',
      async (job) => {
        attempts.push({ attempt: job.attempt, at: Date.now() });
        if (job.attempt < 3) throw new Error(`attempt ${job.attempt} failed`);
      },
      { baseDelayMs: 100, maxDelayMs: 1_000 },
    );
    work(queue);
    const id = await enqueueJob(database.db, queue, { kind: 'test.flaky' });
    const row = await finished(id);
    expect(row).toMatchObject({ status: 'done', attempts: 3, lastError: null });
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    // Equal jitter: at least half of 100 ms, then of 200 ms.
    expect((attempts[1]?.at ?? 0) - (attempts[0]?.at ?? 0)).toBeGreaterThanOrEqual(45);
    expect((attempts[2]?.at ?? 0) - (attempts[1]?.at ?? 0)).toBeGreaterThanOrEqual(95);
  });

  it('runs a job again at the time its handler answers, without counting a failed attempt', async () => {
    const queue = new JobQueue();
    const runs: { attempt: number; at: number }[] = [];
    queue.handle(
      'test.again',
      async (job) => {
        runs.push({ attempt: job.attempt, at: Date.now() });
        return runs.length < 3 ? { runAgainAt: new Date(Date.now() + 150) } : undefined;
      },
      { maxAttempts: 1 },
    );
    work(queue);
    const id = await enqueueJob(database.db, queue, { kind: 'test.again' });
    expect(await finished(id)).toMatchObject({ status: 'done', attempts: 1, lastError: null });
    expect(runs.map((r) => r.attempt)).toEqual([1, 1, 1]);
    expect((runs[1]?.at ?? 0) - (runs[0]?.at ?? 0)).toBeGreaterThanOrEqual(140);
  });

  it('runs jobs at once up to its concurrency, and no more', async () => {
    const queue = new JobQueue();
    let running = 0;
    let most = 0;
    queue.handle('test.slow', async () => {
      running += 1;
      most = Math.max(most, running);
      await sleep(200);
      running -= 1;
    });
    work(queue, { concurrency: 3 });
    const ids = await enqueueJobs(
      database.db,
      queue,
      Array.from({ length: 7 }, () => ({ kind: 'test.slow' })),
    );
    for (const id of ids) await finished(id);
    expect(most).toBe(3);
  });

  it('gives up after the last attempt, keeping the last error; a permanent error fails at once', async () => {
    const queue = new JobQueue();
    queue.handle(
      'test.broken',
      async (job) => {
        throw new Error(`still broken (attempt ${job.attempt})`);
      },
      { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 20 },
    );
    queue.handle('test.hopeless', async () => {
      throw new PermanentJobError('the order is gone');
    });
    work(queue);
    const [broken, hopeless, short] = await enqueueJobs(database.db, queue, [
      { kind: 'test.broken' },
      { kind: 'test.hopeless' },
      { kind: 'test.broken', maxAttempts: 1 },
    ]);
    expect(await finished(broken)).toMatchObject({
      status: 'failed',
      attempts: 3,
      lastError: 'Error: still broken (attempt 3)',
    });
    expect(await finished(hopeless)).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: 'PermanentJobError: the order is gone',
    });
    expect(await finished(short)).toMatchObject({ status: 'failed', attempts: 1 });
  });
});

describe('workers sharing the jobs', () => {
  it('runs every job exactly once, never one twice at once, with two workers on their own connections', async () => {
    // On PostgreSQL the second worker has a pool of its own, as a second process would; the embedded database has one
    // connection, which both workers share.
    const second = onPostgres ? await openDatabase({ kind: 'postgres', url: test.url ?? '', poolSize: 5 }) : database;
    try {
      const runs = new Map<number, number>();
      const active = new Set<number>();
      const overlaps: number[] = [];
      const byWorker = new Map<string, number>();
      const handler = (name: string) => async (job: Job) => {
        if (active.has(job.id)) overlaps.push(job.id);
        active.add(job.id);
        runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
        byWorker.set(name, (byWorker.get(name) ?? 0) + 1);
        await sleep(Math.random() * 4);
        active.delete(job.id);
      };
      const [queueA, queueB] = [new JobQueue(), new JobQueue()];
      queueA.handle('test.shared', handler('a'));
      queueB.handle('test.shared', handler('b'));
      const ids = await enqueueJobs(
        database.db,
        queueA,
        Array.from({ length: 200 }, (_, n) => ({ kind: 'test.shared', payload: { n } })),
      );
      work(queueA, { pollMs: 5 });
      workers.push(startJobWorker({ database: second, queue: queueB, log: quiet, pollMs: 5, concurrency: 4 }));
      await until(
        'jobs done',
        async () => runs.size,
        (n) => n === ids.length,
      );
      await until(
        'all marked done',
        () => database.db.select().from(jobs),
        (rows) => rows.every((r) => r.status === 'done'),
      );
      expect(overlaps).toEqual([]);
      expect([...runs.values()].every((n) => n === 1)).toBe(true);
      expect(byWorker.get('a')).toBeGreaterThan(0);
      expect(byWorker.get('b')).toBeGreaterThan(0);
      const rows = await database.db.select().from(jobs);
      expect(rows.every((r) => r.status === 'done' && r.attempts === 1)).toBe(true);
    } finally {
      await Promise.all(workers.splice(0).map((w) => w.stop()));
      if (second !== database) await second.close();
    }
  });

  it('keeps renewing the lease of a long job, so no other worker takes it while it runs', async () => {
    const runs: number[] = [];
    const slow = async (job: Job) => {
      runs.push(job.attempt);
      // Four leases long: renewed, not outlived (a lease of 400 ms leaves a loaded machine's pauses room).
      await sleep(1600);
    };
    const [queueA, queueB] = [new JobQueue(), new JobQueue()];
    queueA.handle('test.long', slow, { leaseMs: 400 });
    queueB.handle('test.long', slow, { leaseMs: 400 });
    const id = await enqueueJob(database.db, queueA, { kind: 'test.long' });
    work(queueA, { pollMs: 10 });
    await until(
      'claimed',
      () => rowOf(id),
      (row) => row?.status === 'running',
    );
    work(queueB, { pollMs: 10 });
    expect(await finished(id)).toMatchObject({ status: 'done', attempts: 1 });
    expect(runs).toEqual([1]);
  });
});

describe('a worker that dies or stops', () => {
  it('takes a job again once the lease of the worker that claimed it runs out', async () => {
    const queue = new JobQueue();
    const runs: number[] = [];
    queue.handle(
      'test.orphan',
      async (job) => {
        runs.push(job.attempt);
      },
      { leaseMs: 200 },
    );
    const id = await enqueueJob(database.db, queue, { kind: 'test.orphan' });
    // A worker claims it and dies at once: nobody renews its lease.
    const [claimed] = await database.run<{ id: string }>(claimJobs, [['test.orphan'], [200], 1, 'dead-worker']);
    expect(Number(claimed?.id)).toBe(id);
    const claimedAt = Date.now();
    work(queue, { pollMs: 10 });
    expect(await finished(id)).toMatchObject({ status: 'done', attempts: 2 });
    expect(runs).toEqual([2]);
    expect(Date.now() - claimedAt).toBeGreaterThanOrEqual(150);
  });

  it('fails a job for good, without running it, when its worker died during the last attempt allowed', async () => {
    const queue = new JobQueue();
    let runs = 0;
    queue.handle(
      'test.poison',
      async () => {
        runs++;
      },
      { leaseMs: 50, maxAttempts: 1 },
    );
    const id = await enqueueJob(database.db, queue, { kind: 'test.poison' });
    await database.run(claimJobs, [['test.poison'], [50], 1, 'dead-worker']);
    work(queue, { pollMs: 10 });
    const row = await finished(id);
    expect(row).toMatchObject({ status: 'failed', attempts: 2 });
    expect(row?.lastError).toContain('its worker stopped during attempt 1');
    expect(runs).toBe(0);
  });

  it('on stop, lets running jobs finish within the wait and gives back those that outlast it, aborted', async () => {
    const queue = new JobQueue();
    const signals: AbortSignal[] = [];
    queue.handle('test.quick', async () => {
      await sleep(100);
    });
    queue.handle('test.endless', async (job) => {
      signals.push(job.signal);
      await new Promise(() => {});
    });
    const worker = work(queue, { stopWaitMs: 400 });
    const [quick, endless] = await enqueueJobs(database.db, queue, [{ kind: 'test.quick' }, { kind: 'test.endless' }]);
    await until(
      'both running',
      async () => worker.running(),
      (n) => n === 2,
    );
    const stopping = Date.now();
    await worker.stop();
    expect(Date.now() - stopping).toBeGreaterThanOrEqual(350);
    expect(await rowOf(quick)).toMatchObject({ status: 'done', attempts: 1 });
    expect(await rowOf(endless)).toMatchObject({ status: 'queued', attempts: 0, lockedBy: null, lockedUntil: null });
    expect(signals.map((s) => s.aborted)).toEqual([true]);
    // The released job is due at once for the next worker.
    const next = new JobQueue();
    next.handle('test.endless', async () => {});
    work(next);
    expect(await finished(endless)).toMatchObject({ status: 'done', attempts: 1 });
  });

  it.skipIf(!onPostgres)(
    'runs a job again after the process running it is killed with SIGKILL',
    async () => {
      const queue = new JobQueue();
      const id = await enqueueJob(database.db, queue, { kind: 'test.stall' });
      const root = path.resolve(import.meta.dirname, '..');
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'test', 'job-worker-child.ts')], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: test.url ?? '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (d: Buffer) => {
        output += d.toString();
      });
      child.stderr.on('data', (d: Buffer) => {
        output += d.toString();
      });
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        child.on('exit', (_code, signal) => resolve(signal)),
      );
      try {
        await until(
          'the child runs the job',
          async () => output,
          (o) => o.includes(`running ${id}`),
        );
        const claimed = await rowOf(id);
        expect(claimed).toMatchObject({ status: 'running', attempts: 1 });
        // Its lease is renewed while it lives: still its job well past the 500 ms lease.
        await sleep(1_200);
        expect(await rowOf(id)).toMatchObject({ status: 'running', attempts: 1, lockedBy: claimed?.lockedBy });
      } finally {
        child.kill('SIGKILL');
      }
      expect(await exited).toBe('SIGKILL');
      queue.handle('test.stall', async () => {});
      work(queue, { pollMs: 20 });
      expect(await finished(id)).toMatchObject({ status: 'done', attempts: 2 });
    },
    90_000,
  );
});

describe('the app and its worker', () => {
  /** An app whose order.placed events ask for a `test.placed` job, with a handler for it. */
  async function placeWith(enabled: boolean, handled: string[]) {
    const t = await buildTestApp({
      config: { jobsEnabled: enabled, jobsPollMs: 600_000 },
      background: ({ jobs: queue, outbox }) => {
        outbox.onEvent('order.placed', (event) => ({ kind: 'test.placed', payload: { event_id: event.id } }));
        queue.handle('test.placed', async (job) => {
          handled.push(String(job.payload.event_id));
        });
      },
    });
    const admin = await signInAdmin(t);
    await adminApi(t, admin).product({
      name: 'Job',
      variants: [{ alias: 'job-1', name: 'J', price: '1.00', stock: 5 }],
    });
    await placeGuestOrder(t, { variants: [{ alias: 'job-1' }], shipping_address: guestAddress });
    return t;
  }

  it('runs the jobs its events ask for, woken by the commit (its poll is minutes away)', async () => {
    const handled: string[] = [];
    const t = await placeWith(true, handled);
    try {
      await until(
        'handled',
        async () => handled.length,
        (n) => n === 1,
      );
      // The handler has returned; the job is marked done right after.
      const job = await until(
        'done',
        async () => (await t.database.db.select().from(jobs))[0],
        (row) => row?.status === 'done',
      );
      expect(job).toMatchObject({ kind: 'test.placed', status: 'done', payload: { event_id: handled[0] } });
    } finally {
      await t.close();
    }
  }, 60_000);

  it('runs no jobs with JOBS_ENABLED=false (a web-only process), leaving what it enqueued to others', async () => {
    const handled: string[] = [];
    const t = await placeWith(false, handled);
    try {
      await sleep(300);
      expect(handled).toEqual([]);
      const [job] = await t.database.db.select().from(jobs).where(eq(jobs.kind, 'test.placed'));
      expect(job).toMatchObject({ kind: 'test.placed', status: 'queued', attempts: 0 });
    } finally {
      await t.close();
    }
  }, 60_000);
});
