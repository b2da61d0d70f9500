import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client.js';
import { errorForLog } from '../shared/error-log.js';
import { type Job, type JobQueue, PermanentJobError } from './job-queue.js';
import {
  type ClaimedRow,
  claimJobs,
  failJob,
  finishJobs,
  purgeFinishedJobs,
  releaseJobs,
  renewLeases,
  runJobAgain,
} from './jobs.repository.js';
import { afterFailure, DEFAULT_JOB_POLICY } from './retry-policy.js';

type LogFn = (fields: Record<string, unknown>, message: string) => void;
export interface WorkerLog {
  info: LogFn;
  warn: LogFn;
  error: LogFn;
}

export interface JobWorkerOptions {
  database: Database;
  queue: JobQueue;
  log: WorkerLog;
  /** How often to look for due jobs when nothing woke the worker (`JOBS_POLL_MS`). */
  pollMs: number;
  /** Jobs run at once, at most (`JOBS_CONCURRENCY`). */
  concurrency: number;
  /** How long `stop()` waits for running jobs before it aborts and releases them. */
  stopWaitMs?: number;
  /** The worker's name in `jobs.locked_by` (default: host, pid and a random part). */
  id?: string;
}

export interface JobWorker {
  readonly id: string;
  /** Looks for due jobs now (called when this process enqueued some). */
  wake(): void;
  /**
   * Stops claiming, waits up to `stopWaitMs` for the running jobs, then aborts the rest (their `signal`) and gives
   * them back (due at once for another worker, the attempt not counted). Resolves when that is done.
   */
  stop(): Promise<void>;
  /** Jobs running now. */
  running(): number;
}

export const DEFAULT_STOP_WAIT_MS = 5_000;
/** Finished jobs are kept this long (for inspection, and so a keyed job is not enqueued again), then deleted. */
const KEEP_DONE_DAYS = 7;
const KEEP_FAILED_DAYS = 30;
const PURGE_EVERY_MS = 3_600_000;
const MAX_ERROR_LENGTH = 2_000;

interface Running {
  job: Job;
  controller: AbortController;
  leaseMs: number;
  /** The claim is no longer ours: its outcome is not recorded (released at shutdown, or the lease was lost). */
  gone: boolean;
  finishing: boolean;
  done: Promise<void>;
}

/** The error as `jobs.last_error` keeps it: its type and a message without the values a database error carries. */
function describeError(err: unknown): string {
  const logged = errorForLog(err);
  return `${logged.type}: ${logged.message}`.slice(0, MAX_ERROR_LENGTH);
}

const asDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

/**
 * Runs the jobs of the kinds `queue` has handlers for, sharing them with every other worker on the database. Due jobs
 * are claimed several at once in one short statement (FOR UPDATE SKIP LOCKED, so workers never wait on each other,
 * and a lease), run outside any transaction, and those done by the same turn of the event loop are marked done in
 * one statement; while a job runs its lease is renewed, so only a worker that died (or lost the database) lets its
 * jobs go to another.
 */
export function startJobWorker(options: JobWorkerOptions): JobWorker {
  const { database, queue, log, pollMs, concurrency } = options;
  const stopWaitMs = options.stopWaitMs ?? DEFAULT_STOP_WAIT_MS;
  const id = options.id ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const running = new Map<number, Running>();
  let stopping = false;
  let stopped: Promise<void> | undefined;
  let looking: Promise<void> | undefined;
  /** Another look is wanted once the current one ends (a wake came meanwhile, or the last claim was full). */
  let lookAgain = false;
  let pollTimer: NodeJS.Timeout | undefined;
  /** Jobs done and not yet marked so: marked together, in one statement per turn of the event loop. */
  let toFinish: { job: Job; recorded: (finished: boolean) => void; failed: (err: unknown) => void }[] = [];
  let finishing: Promise<void> | undefined;

  /** Marks the jobs done that finished meanwhile; the next turn's wait while one statement is on its way. */
  function flushFinished(): void {
    if (finishing || toFinish.length === 0) return;
    const batch = toFinish;
    toFinish = [];
    finishing = database
      .run<{ id: string | number }>(finishJobs, [batch.map((f) => f.job.id), batch.map((f) => f.job.attempt), id])
      .then(
        (rows) => {
          const marked = new Set(rows.map((r) => Number(r.id)));
          for (const f of batch) f.recorded(marked.has(f.job.id));
        },
        (err: unknown) => {
          for (const f of batch) f.failed(err);
        },
      )
      .finally(() => {
        finishing = undefined;
        flushFinished();
      });
  }

  /** Whether the job was marked done (false: its lease was lost and another worker has it). */
  function finish(job: Job): Promise<boolean> {
    return new Promise<boolean>((recorded, failed) => {
      toFinish.push({ job, recorded, failed });
      if (toFinish.length === 1) setImmediate(flushFinished);
    });
  }

  async function claim(): Promise<boolean> {
    const free = concurrency - running.size;
    const kinds = queue.kinds();
    if (free <= 0 || kinds.length === 0) return false;
    const leases = kinds.map((kind) => queue.handlerOf(kind)?.policy.leaseMs ?? DEFAULT_JOB_POLICY.leaseMs);
    const rows = await database.run<ClaimedRow>(claimJobs, [kinds, leases, free, id]);
    for (const row of rows) start(row);
    return rows.length === free;
  }

  function wake(): void {
    if (stopping) return;
    // Looking already, or no slot free (a job that enqueued more, say): the next job to finish looks.
    if (looking || running.size >= concurrency) {
      lookAgain = true;
      return;
    }
    clearTimeout(pollTimer);
    lookAgain = false;
    looking = claim()
      .then((full) => {
        if (full) lookAgain = true;
      })
      .catch((err: unknown) => log.error({ err, worker: id }, 'claiming jobs failed'))
      .finally(() => {
        looking = undefined;
        if (stopping) return;
        // With every slot taken, a finishing job looks again (lookAgain stays set).
        if (lookAgain && running.size < concurrency) {
          wake();
          return;
        }
        pollTimer = setTimeout(wake, pollMs);
        pollTimer.unref();
      });
  }

  function start(row: ClaimedRow): void {
    const controller = new AbortController();
    const job: Job = {
      id: Number(row.id),
      kind: row.kind,
      payload: (row.payload ?? {}) as Record<string, unknown>,
      attempt: row.attempts,
      createdAt: asDate(row.created_at),
      signal: controller.signal,
    };
    const registered = queue.handlerOf(row.kind);
    const entry: Running = {
      job,
      controller,
      leaseMs: registered?.policy.leaseMs ?? DEFAULT_JOB_POLICY.leaseMs,
      gone: false,
      finishing: false,
      done: Promise.resolve(),
    };
    running.set(job.id, entry);
    entry.done = runJob(entry, row)
      .catch((err: unknown) => log.error({ err, job: job.id, kind: job.kind }, 'recording a job outcome failed'))
      .finally(() => {
        running.delete(job.id);
        if (lookAgain) wake();
      });
  }

  async function runJob(entry: Running, row: ClaimedRow): Promise<void> {
    const { job } = entry;
    const registered = queue.handlerOf(job.kind);
    if (!registered) throw new Error(`no handler for job kind ${job.kind}`);
    const policy = { ...registered.policy, maxAttempts: row.max_attempts ?? registered.policy.maxAttempts };
    let failure: unknown;
    let failed = false;
    let again: Date | undefined;
    if (job.attempt > policy.maxAttempts) {
      // Claimed again after its lease ran out on the last attempt: its worker died running it, every time.
      failed = true;
      failure = new PermanentJobError(`its worker stopped during attempt ${job.attempt - 1}, the last one allowed`);
    } else {
      try {
        again = (await registered.run(job))?.runAgainAt;
      } catch (err) {
        failed = true;
        failure = err;
      }
    }
    if (entry.gone) return;
    entry.finishing = true;
    const claimOf = [job.id, id, job.attempt];
    if (!failed) {
      if (again !== undefined) {
        await database.run(runJobAgain, [...claimOf, again.toISOString()]);
        return;
      }
      const finished = await finish(job);
      // Its lease ran out before it finished (this process stalled) and another worker has it now: at least once.
      if (!finished) log.warn({ job: job.id, kind: job.kind, worker: id }, 'job done after its lease was lost');
      return;
    }
    const next =
      failure instanceof PermanentJobError
        ? ({ retry: false, reason: 'permanent error' } as const)
        : afterFailure(policy, {
            attempts: job.attempt,
            createdAt: job.createdAt,
            giveUpAt: row.give_up_at === null ? null : asDate(row.give_up_at),
            now: new Date(),
            random: Math.random(),
          });
    const delayMs = next.retry ? Math.max(0, next.at.getTime() - Date.now()) : null;
    await database.run(failJob, [...claimOf, describeError(failure), delayMs]);
    const fields = { err: failure, job: job.id, kind: job.kind, attempt: job.attempt };
    if (next.retry) log.warn({ ...fields, retry_in_ms: delayMs }, 'job failed; it will be retried');
    else log.error({ ...fields, reason: next.reason }, 'job failed for good');
  }

  async function renew(): Promise<void> {
    const held = [...running.values()].filter((r) => !r.gone && !r.finishing);
    if (held.length === 0) return;
    const rows = await database.run<{ id: string | number }>(renewLeases, [
      held.map((r) => r.job.id),
      held.map((r) => r.job.attempt),
      held.map((r) => r.leaseMs),
      id,
    ]);
    const kept = new Set(rows.map((r) => Number(r.id)));
    for (const entry of held) {
      if (kept.has(entry.job.id) || entry.finishing) continue;
      // Another worker took it after the lease ran out (this process stalled): stop, and record nothing.
      entry.gone = true;
      entry.controller.abort(new Error('the job lease was lost'));
      log.warn({ job: entry.job.id, kind: entry.job.kind, worker: id }, 'job lease lost; the job was abandoned');
    }
  }

  const shortestLease = Math.min(
    DEFAULT_JOB_POLICY.leaseMs,
    ...queue.kinds().map((kind) => queue.handlerOf(kind)?.policy.leaseMs ?? DEFAULT_JOB_POLICY.leaseMs),
  );
  const renewTimer = setInterval(
    () => void renew().catch((err: unknown) => log.warn({ err, worker: id }, 'renewing job leases failed')),
    Math.max(10, Math.floor(shortestLease / 3)),
  );
  renewTimer.unref();

  let purging: Promise<unknown> = Promise.resolve();
  const purge = () => {
    purging = database
      .run(purgeFinishedJobs, [KEEP_DONE_DAYS, KEEP_FAILED_DAYS])
      .catch((err: unknown) => log.warn({ err }, 'purging finished jobs failed'));
  };
  purge();
  const purgeTimer = setInterval(purge, PURGE_EVERY_MS);
  purgeTimer.unref();

  const unsubscribe = queue.onWake(wake);
  wake();

  async function stop(): Promise<void> {
    stopping = true;
    unsubscribe();
    clearTimeout(pollTimer);
    clearInterval(purgeTimer);
    await Promise.all([looking, purging]);
    const all = Promise.all([...running.values()].map((r) => r.done));
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      all.then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), stopWaitMs);
      }),
    ]);
    clearTimeout(timer);
    if (!finished) {
      const left = [...running.values()].filter((r) => !r.gone && !r.finishing);
      for (const entry of left) {
        entry.gone = true;
        entry.controller.abort(new Error('the worker is stopping'));
      }
      if (left.length > 0) {
        await database
          .run(releaseJobs, [left.map((r) => r.job.id), id])
          .catch((err: unknown) => log.error({ err, worker: id }, 'releasing jobs failed; their leases will run out'));
        log.warn({ worker: id, jobs: left.map((r) => r.job.id) }, 'stopped with jobs running; they were released');
      }
      // Outcomes being recorded right now are let finish (one statement each).
      await Promise.all([...running.values()].filter((r) => r.finishing).map((r) => r.done));
    }
    clearInterval(renewTimer);
  }

  return {
    id,
    wake,
    stop: () => (stopped ??= stop()),
    running: () => running.size,
  };
}

/**
 * Runs the app's job worker while the app runs: started once it is ready, stopped when it closes (its running jobs
 * finish or are given back). Register it last: hooks close in the reverse order, so the worker stops first, before
 * the SMTP pool and the connections its jobs use.
 */
export function runJobWorker(app: FastifyInstance, options: Omit<JobWorkerOptions, 'log'>): void {
  let worker: JobWorker | undefined;
  app.addHook('onReady', async () => {
    worker = startJobWorker({ ...options, log: app.log });
  });
  app.addHook('onClose', async () => worker?.stop());
}
