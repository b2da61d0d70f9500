import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { afterFailure, DEFAULT_JOB_POLICY, type JobPolicy, retryDelayMs } from './retry-policy.js';

const policy: JobPolicy = { maxAttempts: 5, baseDelayMs: 1_000, maxDelayMs: 10_000, leaseMs: 30_000 };
const created = new Date('2026-11-23T10:00:00.000Z');
const at = (ms: number) => new Date(created.getTime() + ms);

describe('retry schedule', () => {
  it('doubles the step with each attempt, half of it fixed and half random', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(policy, n, 0))).toEqual([500, 1_000, 2_000, 4_000]);
    expect([1, 2, 3, 4].map((n) => retryDelayMs(policy, n, 0.999_999))).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(retryDelayMs(policy, 2, 0.5)).toBe(1_500);
  });

  it('caps the step at maxDelayMs, however many attempts', () => {
    expect(retryDelayMs(policy, 5, 0)).toBe(5_000);
    expect(retryDelayMs(policy, 60, 0.999_999)).toBe(10_000);
    expect(retryDelayMs(policy, 2_000, 0.999_999)).toBe(10_000);
  });

  it('stays within [step / 2, step] for any attempt and random draw', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), fc.double({ min: 0, max: 1, noNaN: true }), (n, r) => {
        const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (n - 1));
        const delay = retryDelayMs(policy, n, r);
        return delay >= step / 2 && delay <= step;
      }),
    );
  });

  it('retries until the attempts are used, then gives up', () => {
    expect(afterFailure(policy, { attempts: 1, createdAt: created, now: at(0), random: 0 })).toEqual({
      retry: true,
      at: at(500),
    });
    expect(afterFailure(policy, { attempts: 4, createdAt: created, now: at(0), random: 0 })).toEqual({
      retry: true,
      at: at(4_000),
    });
    expect(afterFailure(policy, { attempts: 5, createdAt: created, now: at(0), random: 0 })).toMatchObject({
      retry: false,
    });
  });

  it('with a time to give up, retries at that time at the latest, then gives up', () => {
    const day = { ...policy, maxAttempts: 1_000, giveUpAfterMs: 86_400_000, maxDelayMs: 3_600_000 };
    const late = at(86_400_000 - 60_000);
    expect(afterFailure(day, { attempts: 30, createdAt: created, now: late, random: 0.5 })).toEqual({
      retry: true,
      at: at(86_400_000),
    });
    expect(afterFailure(day, { attempts: 31, createdAt: created, now: at(86_400_000), random: 0.5 })).toMatchObject({
      retry: false,
    });
  });

  it("lets a job's own deadline win over its kind's", () => {
    const giveUpAt = at(2_000);
    expect(afterFailure(policy, { attempts: 3, createdAt: created, giveUpAt, now: at(1_000), random: 0 })).toEqual({
      retry: true,
      at: giveUpAt,
    });
    expect(afterFailure(policy, { attempts: 3, createdAt: created, giveUpAt, now: giveUpAt, random: 0 })).toMatchObject(
      { retry: false },
    );
  });

  it('by default retries 8 attempts in all over about 2 minutes at most', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7].map((n) => retryDelayMs(DEFAULT_JOB_POLICY, n, 0.999_999));
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000]);
    expect(afterFailure(DEFAULT_JOB_POLICY, { attempts: 8, createdAt: created, now: at(0), random: 0 })).toMatchObject({
      retry: false,
    });
  });
});
