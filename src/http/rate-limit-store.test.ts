import { describe, expect, it } from 'vitest';
import type { Statement } from '../db/client.js';
import { tableHitCounter } from './rate-limit-store.js';

/** A counter table in memory that answers the batched statement as PostgreSQL would (open windows only). */
function fakeTable() {
  const rows = new Map<string, number>();
  const calls: { keys: string[]; counts: number[] }[] = [];
  let release: (() => void) | undefined;
  const run = async <R>(_statement: Statement, values: unknown[]): Promise<R[]> => {
    const [keys, counts] = values as [string[], number[]];
    calls.push({ keys, counts });
    // The first statement is held until the test lets it go, so that hits pile up behind it.
    if (calls.length === 1) await new Promise<void>((resolve) => (release = resolve));
    return keys.map((key, i) => {
      const hits = (rows.get(key) ?? 0) + (counts[i] ?? 0);
      rows.set(key, hits);
      return { key, hits, ttl_ms: 60_000 } as R;
    });
  };
  return { run, calls, release: () => release?.() };
}

describe('rate-limit hits counted in the table', () => {
  it('sends the hits that arrive during a statement together, each answered with the count it would have had alone', async () => {
    const table = fakeTable();
    const count = tableHitCounter(table);
    const first = count({ key: 'a', windowMs: 60_000 });
    const more = [
      count({ key: 'a', windowMs: 60_000 }),
      count({ key: 'b', windowMs: 60_000 }),
      count({ key: 'a', windowMs: 60_000 }),
      count({ key: 'b', windowMs: 60_000 }),
      count({ key: 'a', windowMs: 60_000 }),
    ];
    await new Promise((resolve) => setImmediate(resolve));
    expect(table.calls).toHaveLength(1);
    table.release();
    expect((await first).hits).toBe(1);
    expect((await Promise.all(more)).map((row) => row.hits)).toEqual([2, 1, 3, 2, 4]);
    expect(table.calls).toEqual([
      { keys: ['a'], counts: [1] },
      { keys: ['a', 'b'], counts: [3, 2] },
    ]);
  });

  it('gives every hit of a failed statement the error (the limiter then lets them through)', async () => {
    const count = tableHitCounter({
      run: async () => {
        throw new Error('relation "rate_limit_counters" does not exist');
      },
    });
    await expect(count({ key: 'a', windowMs: 1_000 })).rejects.toThrow('does not exist');
  });
});
