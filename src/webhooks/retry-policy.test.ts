import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { endpointFailedTooLong, nextRetryAt, RETRY_WINDOW_MS, retryDelayMs } from './retry-policy.js';

const HOUR = 3_600_000;
const schedule = { baseMs: 5_000, maxDelayMs: HOUR };
const low = () => 0;
const high = () => 0.999_999;

describe('retryDelayMs', () => {
  it('starts at half the base to the base and doubles with every failed attempt', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(schedule, n, low))).toEqual([2_500, 5_000, 10_000, 20_000]);
    expect([1, 2, 3, 4].map((n) => retryDelayMs(schedule, n, high))).toEqual([5_000, 10_000, 20_000, 40_000]);
  });

  it('never waits longer than the maximum delay, however many attempts failed', () => {
    expect(retryDelayMs(schedule, 20, () => 1)).toBe(HOUR);
    expect(retryDelayMs(schedule, 20, low)).toBe(HOUR / 2);
    expect(retryDelayMs(schedule, 10_000, () => 1)).toBe(HOUR);
  });

  it('keeps every delay within half to all of the nominal delay (equal jitter)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (n, r) => {
          const nominal = Math.min(HOUR, 5_000 * 2 ** (n - 1));
          const delay = retryDelayMs(schedule, n, () => r);
          return delay >= nominal / 2 && delay <= nominal;
        },
      ),
    );
  });
});

describe('nextRetryAt', () => {
  const first = new Date('2030-01-01T00:00:00Z');
  const at = (ms: number) => new Date(first.getTime() + ms);

  it('schedules the next attempt after the delay of the attempts made', () => {
    const next = nextRetryAt({ schedule, firstAttemptAt: first, failedAt: at(1_000), attempts: 3, random: low });
    expect(next).toEqual(at(1_000 + 10_000));
  });

  it('puts the last retry at the end of the 24 hours rather than past them', () => {
    const failedAt = at(RETRY_WINDOW_MS - 60_000);
    const next = nextRetryAt({ schedule, firstAttemptAt: first, failedAt, attempts: 30, random: high });
    expect(next).toEqual(at(RETRY_WINDOW_MS));
  });

  it('gives up on a failure 24 hours or more after the first attempt', () => {
    const options = { schedule, firstAttemptAt: first, attempts: 31, random: low };
    expect(nextRetryAt({ ...options, failedAt: at(RETRY_WINDOW_MS) })).toBeNull();
    expect(nextRetryAt({ ...options, failedAt: at(RETRY_WINDOW_MS + 1) })).toBeNull();
    expect(nextRetryAt({ ...options, failedAt: at(RETRY_WINDOW_MS - 1) })).toEqual(at(RETRY_WINDOW_MS));
  });

  it('retries an endpoint that always fails for at least 24 hours, then gives up (default schedule)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 1 }),
        (randoms) => {
          let i = 0;
          const random = () => randoms[i++ % randoms.length] ?? 0;
          const attempts = [first];
          for (;;) {
            const failedAt = attempts.at(-1) ?? first;
            const next = nextRetryAt({ schedule, firstAttemptAt: first, failedAt, attempts: attempts.length, random });
            if (next === null) break;
            expect(next.getTime()).toBeGreaterThan(failedAt.getTime());
            attempts.push(next);
          }
          const lastAt = attempts.at(-1)?.getTime() ?? 0;
          expect(lastAt - first.getTime()).toBe(RETRY_WINDOW_MS);
          expect(attempts.length).toBeGreaterThanOrEqual(25);
          expect(attempts.length).toBeLessThanOrEqual(60);
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe('endpointFailedTooLong', () => {
  it('switches an endpoint off once it has failed everything for 24 hours', () => {
    const since = new Date('2030-01-01T00:00:00Z');
    expect(endpointFailedTooLong(since, new Date(since.getTime() + RETRY_WINDOW_MS - 1))).toBe(false);
    expect(endpointFailedTooLong(since, new Date(since.getTime() + RETRY_WINDOW_MS))).toBe(true);
  });
});
