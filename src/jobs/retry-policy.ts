/**
 * When a job that failed runs again, and when it is given up: pure, so the schedule is tested on its own. Each job
 * kind has its policy (registered with its handler in src/jobs/job-queue.ts); a job row may override the number of
 * attempts and the time to give up.
 */
export interface JobPolicy {
  /** Attempts in all, the first included; after the last one fails the job is `failed` for good. */
  maxAttempts: number;
  /** Delay before the second attempt; it doubles with each further attempt, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /**
   * Give up this long after the job was enqueued (whatever `maxAttempts` says): the last retry is scheduled at that
   * moment at the latest, so a job is retried for at least this long. Undefined: attempts alone decide.
   */
  giveUpAfterMs?: number;
  /**
   * How long a claim holds the job without news from its worker. A running job's lease is renewed while it runs; a
   * worker that dies stops renewing it, and once it runs out another worker takes the job again.
   */
  leaseMs: number;
}

export const DEFAULT_JOB_POLICY: Readonly<JobPolicy> = {
  maxAttempts: 8,
  baseDelayMs: 1_000,
  maxDelayMs: 3_600_000,
  leaseMs: 30_000,
};

/**
 * The wait before attempt `attempt + 1`, after attempt `attempt` (1-based) failed: exponential
 * (`baseDelayMs` × 2^(attempt − 1), capped at `maxDelayMs`), with "equal jitter": half of it fixed, half random
 * (`random` in [0, 1)), so workers that failed together don't all come back at the same instant, and no retry
 * comes sooner than half its step.
 */
export function retryDelayMs(policy: Pick<JobPolicy, 'baseDelayMs' | 'maxDelayMs'>, attempt: number, random: number) {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(step / 2 + (step / 2) * Math.min(Math.max(random, 0), 1));
}

export type AfterFailure = { retry: true; at: Date } | { retry: false; reason: string };

/**
 * What happens to a job whose attempt number `attempts` just failed: retried at a time, or given up (attempts used,
 * or the time to give up reached). `giveUpAt` is the job's own deadline, if it has one, else `createdAt` +
 * `giveUpAfterMs`.
 */
export function afterFailure(
  policy: JobPolicy,
  job: { attempts: number; createdAt: Date; giveUpAt?: Date | null; now: Date; random: number },
): AfterFailure {
  if (job.attempts >= policy.maxAttempts) {
    return { retry: false, reason: `gave up after ${job.attempts} attempts` };
  }
  const deadline =
    job.giveUpAt
    ?? (policy.giveUpAfterMs === undefined ? undefined : new Date(job.createdAt.getTime() + policy.giveUpAfterMs));
  if (deadline !== undefined && job.now.getTime() >= deadline.getTime()) {
    return { retry: false, reason: `gave up at ${deadline.toISOString()}, after ${job.attempts} attempts` };
  }
  const at = job.now.getTime() + retryDelayMs(policy, job.attempts, job.random);
  return { retry: true, at: new Date(deadline === undefined ? at : Math.min(at, deadline.getTime())) };
}
