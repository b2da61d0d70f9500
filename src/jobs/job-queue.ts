import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../db/client.js';
import { runStatement } from '../db/statement-sql.js';
import { enqueueJobs as enqueueStatement, type JobRowJson } from './jobs.repository.js';
import { DEFAULT_JOB_POLICY, type JobPolicy } from './retry-policy.js';

/** Work to do in the background: a row of the jobs table once enqueued. */
export interface JobRequest {
  /** Which handler runs it (`JobQueue.handle`). */
  kind: string;
  /** The handler's input, as JSON. Keep it small: ids to read, not copies of rows. */
  payload?: Record<string, unknown>;
  /** With a key the job exists once per (kind, key): enqueuing it again, even after it ran, adds nothing. */
  key?: string;
  /** Not before this time (default: at once). */
  runAt?: Date;
  /** Not before this many ms after the enqueuing transaction, by the database's clock (ignored with `runAt`). */
  delayMs?: number;
  /** Overrides the kind's `maxAttempts` for this job. */
  maxAttempts?: number;
  /** Overrides the kind's `giveUpAfterMs` for this job. */
  giveUpAt?: Date;
}

/** A claimed job as its handler gets it. */
export interface Job<P = Record<string, unknown>> {
  id: number;
  kind: string;
  payload: P;
  /** 1 for the first attempt. */
  attempt: number;
  createdAt: Date;
  /**
   * Aborted when the job must stop: its worker is shutting down past its wait, or lost the job's lease (another
   * worker may take it). Pass it to I/O that accepts one; the job will run again, so stopping is always safe.
   */
  signal: AbortSignal;
}

/**
 * A handler's answer that its job's work is not over yet (a webhook delivery to try again later): the job is queued
 * again for `runAgainAt`. Not a failure: no error is recorded and the attempt is not counted against the kind's
 * `maxAttempts` (the handler keeps its own count, as the delivery does).
 */
export interface RunAgain {
  runAgainAt: Date;
}

/**
 * Does one job. Resolving marks it done (or, with `RunAgain`, queues it again for then); throwing records the error
 * and retries it by its kind's policy (`PermanentJobError`: no retry). A job may run more than once (a retry after a
 * failure, or after its worker died mid-way), never twice at once: make its effects idempotent (check before doing,
 * or key the side effect).
 */
// Most handlers answer nothing: `async (job) => { … }` is a Promise<void>.
// biome-ignore lint/suspicious/noConfusingVoidType: what such a handler's type is.
export type JobHandler<P = Record<string, unknown>> = (job: Job<P>) => Promise<RunAgain | undefined | void>;

/** Thrown by a handler for a job that can never succeed (its subject is gone, say): it fails without retries. */
export class PermanentJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentJobError';
  }
}

interface Registered {
  run: JobHandler;
  policy: JobPolicy;
}

/**
 * The job kinds this service knows, with their handlers and retry policies, and the signal that wakes this process's
 * worker when it enqueued something. Built once per app (src/app.ts) and handed to the modules that enqueue or
 * handle jobs; every process registers every handler, whether it runs a worker (`JOBS_ENABLED`) or not.
 */
export class JobQueue {
  readonly #handlers = new Map<string, Registered>();
  readonly #wakers = new Set<() => void>();
  /** What to do once a transaction commits (`transaction`): wake the worker for the jobs it enqueued, and more. */
  readonly #afterCommit = new WeakMap<object, (() => void)[]>();

  /** Registers the handler of a kind, with its retry policy (the defaults where not given). A kind has one handler. */
  handle<P extends Record<string, unknown>>(kind: string, run: JobHandler<P>, policy: Partial<JobPolicy> = {}): void {
    if (this.#handlers.has(kind)) throw new Error(`job kind "${kind}" already has a handler`);
    const full = { ...DEFAULT_JOB_POLICY, ...policy };
    if (full.maxAttempts < 1 || full.leaseMs < 1 || full.baseDelayMs < 0 || full.maxDelayMs < full.baseDelayMs) {
      throw new RangeError(`job kind "${kind}": invalid policy ${JSON.stringify(full)}`);
    }
    // The handler gets its kind's payloads only: the enqueuer of a kind and its handler agree on P.
    this.#handlers.set(kind, { run: run as JobHandler, policy: full });
  }

  /** The kinds that have a handler: a worker claims these and no others. */
  kinds(): string[] {
    return [...this.#handlers.keys()];
  }

  handlerOf(kind: string): Registered | undefined {
    return this.#handlers.get(kind);
  }

  /** Calls `listener` whenever this process enqueued jobs that are now committed; answers the unsubscribe. */
  onWake(listener: () => void): () => void {
    this.#wakers.add(listener);
    return () => this.#wakers.delete(listener);
  }

  /** Wakes this process's worker: jobs were committed that may be due. */
  wake(): void {
    for (const listener of this.#wakers) listener();
  }

  /** Notes that `tx` enqueued jobs, so `transaction` wakes the worker once it commits. */
  enqueuedIn(tx: Db | Tx): void {
    const callbacks = tx instanceof PgTransaction ? this.#afterCommit.get(tx) : undefined;
    if (callbacks?.includes(this.#wakeOnce)) return;
    this.afterCommit(tx, this.#wakeOnce);
  }

  readonly #wakeOnce = () => this.wake();

  /**
   * Calls `callback` once `tx` has committed, when run by `transaction` (at once for `db`, whose statements commit
   * as they run); never if it rolls back. For what must follow the change and not precede it: waking the worker, a
   * log line that says what happened.
   */
  afterCommit(tx: Db | Tx, callback: () => void): void {
    if (!(tx instanceof PgTransaction)) {
      callback();
      return;
    }
    const callbacks = this.#afterCommit.get(tx);
    if (callbacks) callbacks.push(callback);
    else this.#afterCommit.set(tx, [callback]);
  }

  /**
   * Runs `work` in one Drizzle transaction of `db`; after it commits, wakes this process's worker if the work
   * enqueued jobs (`enqueueJob`, or `recordEvents` whose subscribers asked for some), and calls what the work asked
   * for with `afterCommit`.
   */
  async transaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
    let callbacks: (() => void)[] = [];
    const result = await db.transaction(async (tx) => {
      const out = await work(tx);
      callbacks = this.#afterCommit.get(tx) ?? [];
      return out;
    });
    for (const callback of callbacks) callback();
    return result;
  }
}

/** A request as the jobs insert reads it (`insertJobsFromJson`). */
export function jobRow(job: JobRequest): JobRowJson {
  return {
    kind: job.kind,
    key: job.key ?? null,
    payload: job.payload ?? {},
    run_at: job.runAt?.toISOString() ?? null,
    delay_ms: job.runAt === undefined && job.delayMs !== undefined ? Math.max(0, Math.round(job.delayMs)) : null,
    max_attempts: job.maxAttempts ?? null,
    give_up_at: job.giveUpAt?.toISOString() ?? null,
  };
}

/**
 * Enqueues jobs in `tx`'s transaction (they exist when it commits, and not if it rolls back), or at once on `db`.
 * Answers the new jobs' ids; a keyed job that exists already is left as it is and has no id here.
 */
export async function enqueueJobs(tx: Db | Tx, queue: JobQueue, jobs: readonly JobRequest[]): Promise<number[]> {
  if (jobs.length === 0) return [];
  const rows = await runStatement<{ id: string | number }>(tx, enqueueStatement, [JSON.stringify(jobs.map(jobRow))]);
  if (rows.length > 0) queue.enqueuedIn(tx);
  return rows.map((r) => Number(r.id));
}

/** One job (see `enqueueJobs`): its id, or undefined when a job of that kind and key exists already. */
export async function enqueueJob(tx: Db | Tx, queue: JobQueue, job: JobRequest): Promise<number | undefined> {
  return (await enqueueJobs(tx, queue, [job]))[0];
}
