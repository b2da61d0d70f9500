/**
 * When a failed delivery is tried again, when it is given up, and when an endpoint is switched off. Pure: the clock
 * and the random numbers come in as values.
 */

/** Deliveries are retried for this long after their first attempt; an endpoint may fail everything this long. */
export const RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface RetrySchedule {
  /** WEBHOOK_RETRY_BASE_MS: the delay after the first failed attempt. */
  baseMs: number;
  /** WEBHOOK_RETRY_MAX_DELAY_MS: no delay is longer. */
  maxDelayMs: number;
}

/**
 * The delay after the n-th failed attempt (n ≥ 1): base · 2^(n−1), capped at the maximum, with "equal jitter": half
 * of it fixed and half random, so retries of many deliveries that failed together spread out, yet each delay still
 * grows. `random` gives a number in [0, 1).
 */
export function retryDelayMs(schedule: RetrySchedule, failedAttempts: number, random: () => number): number {
  const doublings = Math.min(Math.max(failedAttempts - 1, 0), 52);
  const nominal = Math.min(schedule.maxDelayMs, schedule.baseMs * 2 ** doublings);
  return Math.round(nominal / 2 + (random() * nominal) / 2);
}

/**
 * After a failed attempt: when to try again, or null to give up. The last retry is placed at the end of the window
 * at the latest, so a delivery is tried for at least 24 hours and given up by the first failure past them.
 */
export function nextRetryAt(input: {
  schedule: RetrySchedule;
  /** The first attempt of the delivery (since its last redelivery by hand). */
  firstAttemptAt: Date;
  failedAt: Date;
  /** Attempts made so far, this failed one included. */
  attempts: number;
  random: () => number;
}): Date | null {
  const windowEnd = input.firstAttemptAt.getTime() + RETRY_WINDOW_MS;
  if (input.failedAt.getTime() >= windowEnd) return null;
  const next = input.failedAt.getTime() + retryDelayMs(input.schedule, input.attempts, input.random);
  return new Date(Math.min(next, windowEnd));
}

/** Whether an endpoint whose every attempt has failed since `failingSince` is switched off at `now`. */
export function endpointFailedTooLong(failingSince: Date, now: Date): boolean {
  return now.getTime() - failingSince.getTime() >= RETRY_WINDOW_MS;
}
