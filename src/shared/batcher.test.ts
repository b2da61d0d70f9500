import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Batcher } from './batcher.js';

/** A writer that records its batches and answers when told to. */
function recordingWriter() {
  const batches: number[][] = [];
  const pending: (() => void)[] = [];
  const write = (items: number[]) => new Promise<string[]>((resolve) => {
    batches.push(items);
    pending.push(() => resolve(items.map((i) => `done ${i}`)));
  });
  const answerNext = async () => {
    pending.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { batches, write, answerNext };
}

describe('Batcher', () => {
  it('writes an item at once, alone, when nothing is in flight', async () => {
    const w = recordingWriter();
    const batcher = new Batcher(w.write, { maxBatch: 10, maxInFlight: 1 });
    const first = batcher.submit(1);
    expect(w.batches).toEqual([[1]]);
    await w.answerNext();
    await expect(first).resolves.toBe('done 1');
  });

  it('gathers what arrives while a batch is in flight into the next one, up to the batch limit', async () => {
    const w = recordingWriter();
    const batcher = new Batcher(w.write, { maxBatch: 3, maxInFlight: 1 });
    const results = [1, 2, 3, 4, 5, 6].map((i) => batcher.submit(i));
    expect(w.batches).toEqual([[1]]);
    await w.answerNext();
    expect(w.batches).toEqual([[1], [2, 3, 4]]);
    await w.answerNext();
    expect(w.batches).toEqual([[1], [2, 3, 4], [5, 6]]);
    await w.answerNext();
    await expect(Promise.all(results)).resolves.toEqual([1, 2, 3, 4, 5, 6].map((i) => `done ${i}`));
  });

  it('keeps as many batches in flight as allowed, and no more', async () => {
    const w = recordingWriter();
    const batcher = new Batcher(w.write, { maxBatch: 2, maxInFlight: 2 });
    for (const i of [1, 2, 3, 4, 5]) void batcher.submit(i);
    expect(w.batches).toEqual([[1], [2]]);
    await w.answerNext();
    expect(w.batches).toEqual([[1], [2], [3, 4]]);
  });

  it('gives every item of a failed batch the error, and goes on with the next batch', async () => {
    let calls = 0;
    const batcher = new Batcher<number, number>(async (items) => {
      calls += 1;
      if (calls === 2) throw new Error('database down');
      return items.map((i) => i * 10);
    }, { maxBatch: 10, maxInFlight: 1 });
    const [a, b, c] = [batcher.submit(1), batcher.submit(2), batcher.submit(3)];
    await expect(a).resolves.toBe(10);
    await expect(b).rejects.toThrow('database down');
    await expect(c).rejects.toThrow('database down');
    await expect(batcher.submit(4)).resolves.toBe(40);
  });

  it('refuses a writer that answers a batch with the wrong number of results', async () => {
    const batcher = new Batcher<number, number>(async () => [], { maxBatch: 10, maxInFlight: 1 });
    await expect(batcher.submit(1)).rejects.toThrow('a batch of 1 answered 0 results');
  });

  it('answers every item with its own result, whatever the arrivals and limits', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(fc.nat({ max: 3 }), { minLength: 1, maxLength: 60 }),
      fc.integer({ min: 1, max: 8 }),
      fc.integer({ min: 1, max: 3 }),
      async (gaps, maxBatch, maxInFlight) => {
        let inFlight = 0;
        let most = 0;
        const batcher = new Batcher<number, number>(async (items) => {
          expect(items.length).toBeLessThanOrEqual(maxBatch);
          most = Math.max(most, ++inFlight);
          await new Promise((resolve) => setImmediate(resolve));
          inFlight--;
          return items.map((i) => -i);
        }, { maxBatch, maxInFlight });
        const results: Promise<number>[] = [];
        for (const [i, gap] of gaps.entries()) {
          for (let g = 0; g < gap; g++) await Promise.resolve();
          results.push(batcher.submit(i));
        }
        expect(await Promise.all(results)).toEqual(gaps.map((_, i) => -i));
        expect(most).toBeLessThanOrEqual(maxInFlight);
      },
    ), { numRuns: 200 });
  });
});
