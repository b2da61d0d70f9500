import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Batcher, eachAloneOnFailure, NotWritten } from './batcher.js';

/** A writer that records its batches and answers when told to. */
function recordingWriter() {
  const batches: number[][] = [];
  const deadlines: number[] = [];
  const pending: (() => void)[] = [];
  const write = (items: number[], deadline: number) =>
    new Promise<string[]>((resolve) => {
      batches.push(items);
      deadlines.push(deadline);
      pending.push(() => resolve(items.map((i) => `done ${i}`)));
    });
  const answerNext = async () => {
    pending.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { batches, deadlines, write, answerNext };
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
    const batcher = new Batcher<number, number>(
      async (items) => {
        calls += 1;
        if (calls === 2) throw new Error('database down');
        return items.map((i) => i * 10);
      },
      { maxBatch: 10, maxInFlight: 1 },
    );
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
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat({ max: 3 }), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 3 }),
        async (gaps, maxBatch, maxInFlight) => {
          let inFlight = 0;
          let most = 0;
          const batcher = new Batcher<number, number>(
            async (items) => {
              expect(items.length).toBeLessThanOrEqual(maxBatch);
              most = Math.max(most, ++inFlight);
              await new Promise((resolve) => setImmediate(resolve));
              inFlight--;
              return items.map((i) => -i);
            },
            { maxBatch, maxInFlight },
          );
          const results: Promise<number>[] = [];
          for (const [i, gap] of gaps.entries()) {
            for (let g = 0; g < gap; g++) await Promise.resolve();
            results.push(batcher.submit(i));
          }
          expect(await Promise.all(results)).toEqual(gaps.map((_, i) => -i));
          expect(most).toBeLessThanOrEqual(maxInFlight);
        },
      ),
      { numRuns: 200 },
    );
  });

  describe('back-pressure', () => {
    afterEach(() => {
      vi.useRealTimers();
    });
    const fakeClock = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: 1_000_000 });
    const notWritten = (reason: string) => expect.objectContaining({ name: 'NotWritten', reason });

    it('refuses an item at once, unwritten, when the queue is full, and takes items again once it drains', async () => {
      const w = recordingWriter();
      const batcher = new Batcher(w.write, { maxBatch: 10, maxInFlight: 1, maxQueued: 2 });
      const accepted = [batcher.submit(1), batcher.submit(2), batcher.submit(3)];
      const refused = batcher.submit(4);
      await expect(refused).rejects.toBeInstanceOf(NotWritten);
      await expect(refused).rejects.toEqual(notWritten('queue_full'));
      expect(batcher.queued).toBe(2);
      await w.answerNext();
      expect(w.batches).toEqual([[1], [2, 3]]);
      const later = batcher.submit(5);
      await w.answerNext();
      await w.answerNext();
      expect(w.batches).toEqual([[1], [2, 3], [5]]);
      await expect(Promise.all([...accepted, later])).resolves.toEqual(['done 1', 'done 2', 'done 3', 'done 5']);
    });

    it('never refuses an item that goes out at once, even with no room to queue', async () => {
      const w = recordingWriter();
      const batcher = new Batcher(w.write, { maxBatch: 10, maxInFlight: 1, maxQueued: 0 });
      const first = batcher.submit(1);
      await expect(batcher.submit(2)).rejects.toEqual(notWritten('queue_full'));
      await w.answerNext();
      await expect(first).resolves.toBe('done 1');
      expect(w.batches).toEqual([[1]]);
    });

    it('gives back an item still queued at its deadline, unwritten, and writes the others', async () => {
      fakeClock();
      const w = recordingWriter();
      const batcher = new Batcher(w.write, { maxBatch: 10, maxInFlight: 1 });
      const first = batcher.submit(1, Date.now() + 100);
      const late = batcher.submit(2, Date.now() + 50);
      const patient = batcher.submit(3, Date.now() + 1_000);
      const refusal = expect(late).rejects.toEqual(notWritten('deadline'));
      vi.advanceTimersByTime(60);
      await refusal;
      expect(batcher.queued).toBe(1);
      await w.answerNext();
      expect(w.batches).toEqual([[1], [3]]);
      await w.answerNext();
      await expect(Promise.all([first, patient])).resolves.toEqual(['done 1', 'done 3']);
    });

    it("leaves an item handed to the writer to the writer's answer, whatever its deadline", async () => {
      fakeClock();
      const w = recordingWriter();
      const batcher = new Batcher(w.write, { maxBatch: 10, maxInFlight: 1 });
      const first = batcher.submit(1);
      const deadline = Date.now() + 50;
      const queued = batcher.submit(2, deadline);
      await w.answerNext();
      expect(w.batches).toEqual([[1], [2]]);
      vi.advanceTimersByTime(500);
      await w.answerNext();
      await expect(Promise.all([first, queued])).resolves.toEqual(['done 1', 'done 2']);
      expect(w.deadlines).toEqual([Infinity, deadline]);
    });

    it('gives the writer the earliest deadline of the batch', async () => {
      fakeClock();
      const w = recordingWriter();
      const batcher = new Batcher(w.write, { maxBatch: 10, maxInFlight: 1 });
      const now = Date.now();
      const all = [batcher.submit(1), batcher.submit(2, now + 500), batcher.submit(3, now + 300), batcher.submit(4)];
      await w.answerNext();
      expect(w.batches).toEqual([[1], [2, 3, 4]]);
      expect(w.deadlines).toEqual([Infinity, now + 300]);
      await w.answerNext();
      await Promise.all(all);
    });

    it('keeps out of a batch an item whose deadline passed before its timer could run', async () => {
      fakeClock();
      const w = recordingWriter();
      const batcher = new Batcher(w.write, { maxBatch: 10, maxInFlight: 1 });
      const first = batcher.submit(1);
      const stale = batcher.submit(2, Date.now() + 50);
      const fresh = batcher.submit(3, Date.now() + 5_000);
      // The clock moves on while no timer runs (a busy event loop).
      vi.setSystemTime(Date.now() + 100);
      const refusal = expect(stale).rejects.toEqual(notWritten('deadline'));
      await w.answerNext();
      await refusal;
      expect(w.batches).toEqual([[1], [3]]);
      await w.answerNext();
      await expect(Promise.all([first, fresh])).resolves.toEqual(['done 1', 'done 3']);
    });
  });
});

describe('eachAloneOnFailure', () => {
  type Out = { ok: true; value: number } | { ok: false; failure: unknown };
  const failed = (failure: unknown): Out => ({ ok: false, failure });
  /** Doubles each item; a batch holding 13 fails whole, as a constraint violation would. */
  const write = async (items: number[]) => {
    if (items.includes(13)) throw new Error('unlucky');
    return items.map((value): Out => ({ ok: true, value: value * 2 }));
  };

  it('writes the items of a failed batch one by one, so only the faulty one fails', async () => {
    const out = await eachAloneOnFailure(write, { failed, passThrough: () => false })([1, 13, 2], Infinity);
    expect(out).toEqual([
      { ok: true, value: 2 },
      { ok: false, failure: new Error('unlucky') },
      { ok: true, value: 4 },
    ]);
  });

  it('throws the errors it is told to pass through, and the error of a batch of one', async () => {
    const passThrough = (err: unknown) => err instanceof Error && err.message === 'unlucky';
    await expect(eachAloneOnFailure(write, { failed, passThrough })([1, 13], Infinity)).rejects.toThrow('unlucky');
    await expect(eachAloneOnFailure(write, { failed, passThrough: () => false })([13], Infinity)).rejects.toThrow(
      'unlucky',
    );
  });
});
