import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Statement } from '../db/client.js';
import { type HitNumber, tableHitNumbers } from './rate-limit-numbers.js';

/** The counter table in memory, answering the claim statement as PostgreSQL does, on a clock the test moves. */
function fakeTable() {
  const clock = { now: 1_000_000 };
  const rows = new Map<string, { hits: number; endsAt: number }>();
  const statements: { keys: string[]; counts: number[] }[] = [];
  let held: (() => void)[] | null = null;
  const run = async <R>(_statement: Statement, values: unknown[]): Promise<R[]> => {
    const [keys, counts, windows] = values as [string[], number[], number[]];
    statements.push({ keys, counts });
    if (held) await new Promise<void>((resolve) => held?.push(resolve));
    return keys.map((key, i) => {
      const row = rows.get(key);
      const n = counts[i] ?? 0;
      const next =
        !row || row.endsAt <= clock.now
          ? { hits: n, endsAt: clock.now + (windows[i] ?? 0) }
          : { hits: row.hits + n, endsAt: row.endsAt };
      rows.set(key, next);
      return { key, hits: next.hits, ttl_ms: next.endsAt - clock.now } as R;
    });
  };
  return {
    run,
    clock,
    rows,
    statements,
    /** Statements wait until `release` from now on. */
    hold: () => {
      held = [];
    },
    release: () => {
      const waiting = held ?? [];
      held = null;
      for (const go of waiting) go();
    },
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));
const hit = { key: 'promo-1.2.3.4', windowMs: 60_000, max: 30 };

describe('rate-limit hit numbers', () => {
  it('claims exactly one number per hit for hits that come one at a time', async () => {
    const table = fakeTable();
    const numberOf = tableHitNumbers(table, () => table.clock.now);
    const numbers: number[] = [];
    for (let i = 0; i < 5; i++) numbers.push((await numberOf(hit)).current);
    expect(numbers).toEqual([1, 2, 3, 4, 5]);
    expect(table.statements.map((s) => s.counts)).toEqual([[1], [1], [1], [1], [1]]);
  });

  it('numbers hits that waited together in order, claims some ahead, answers the next with no statement', async () => {
    const table = fakeTable();
    const numberOf = tableHitNumbers(table, () => table.clock.now);
    table.hold();
    const first = numberOf(hit);
    const burst = Array.from({ length: 4 }, () => numberOf(hit));
    await settle();
    table.release();
    expect((await first).current).toBe(1);
    expect((await Promise.all(burst)).map((n) => n.current)).toEqual([2, 3, 4, 5]);
    // The four waited on one claim: four more were claimed ahead (at most half of the 25 left under 30).
    expect(table.statements.map((s) => s.counts)).toEqual([[1], [8]]);
    const next = await Promise.all(Array.from({ length: 4 }, () => numberOf(hit)));
    expect(next.map((n) => n.current)).toEqual([6, 7, 8, 9]);
    expect(table.statements).toHaveLength(2);
    expect(next[0]?.ttlMs).toBe(60_000);
    // The numbers ahead went at once: twice as many are claimed ahead next time (within half of the 20 left).
    expect((await numberOf(hit)).current).toBe(10);
    expect(table.statements.at(-1)?.counts).toEqual([9]);
    // Hits one at a time, slower than that: half as many each time.
    for (let i = 0; i < 8; i++) await numberOf(hit);
    table.clock.now += 2_000;
    await numberOf(hit);
    expect(table.statements.at(-1)?.counts).toEqual([1 + 4]);
  });

  it('sends the keys that have hits waiting in one statement', async () => {
    const table = fakeTable();
    const numberOf = tableHitNumbers(table, () => table.clock.now);
    table.hold();
    const first = numberOf({ ...hit, key: 'c' });
    const others = [numberOf({ ...hit, key: 'b' }), numberOf({ ...hit, key: 'a' })];
    await settle();
    table.release();
    await Promise.all([first, ...others]);
    expect(table.statements.map((s) => s.keys)).toEqual([['c'], ['b', 'a']]);
  });

  it('drops the numbers in hand when their window is over, and starts the next window at 1', async () => {
    const table = fakeTable();
    const numberOf = tableHitNumbers(table, () => table.clock.now);
    table.hold();
    const burst = [numberOf(hit), numberOf(hit), numberOf(hit)];
    await settle();
    table.release();
    await Promise.all(burst);
    table.clock.now += 60_000;
    expect(await numberOf(hit)).toEqual({ current: 1, ttlMs: 60_000 });
  });

  it('fails the hits of a statement that fails (the limiter then lets them through)', async () => {
    const numberOf = tableHitNumbers({
      run: async () => {
        throw new Error('relation "rate_limit_counters" does not exist');
      },
    });
    await expect(numberOf(hit)).rejects.toThrow('does not exist');
  });

  it('never gives out a number twice nor lets more than the limit through, across processes and bursts', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 40 }),
        fc.array(fc.record({ process: fc.integer({ min: 0, max: 2 }), size: fc.integer({ min: 1, max: 12 }) }), {
          minLength: 1,
          maxLength: 25,
        }),
        async (max, bursts) => {
          const table = fakeTable();
          const processes = [0, 1, 2].map(() => tableHitNumbers(table, () => table.clock.now));
          const answers: Promise<HitNumber>[] = [];
          for (const burst of bursts) {
            for (let i = 0; i < burst.size; i++) answers.push(processes[burst.process]!({ ...hit, max }));
            await settle();
          }
          const numbers = (await Promise.all(answers)).map((n) => n.current);
          expect(new Set(numbers).size).toBe(numbers.length);
          const through = numbers.filter((n) => n <= max).length;
          expect(through).toBeLessThanOrEqual(max);
          // What was claimed and not handed out is never more than half of what was left under the limit.
          const claimed = table.rows.get(hit.key)?.hits ?? 0;
          expect(claimed - numbers.length).toBeLessThanOrEqual(Math.max(0, Math.floor(max / 2)) * 3);
          // Hits that came one at a time are counted exactly.
          if (bursts.every((b) => b.size === 1)) expect(through).toBe(Math.min(max, numbers.length));
        },
      ),
      { numRuns: 300 },
    );
  });
});
