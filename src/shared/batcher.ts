/** Why the batcher gave an item back unwritten. */
export type NotWrittenReason = 'queue_full' | 'deadline';

/** An item the batcher gave up on before handing it to the writer: nothing of it was written. */
export class NotWritten extends Error {
  constructor(readonly reason: NotWrittenReason) {
    super(reason === 'queue_full' ? 'too many items waiting to be written' : 'the item waited past its deadline');
    this.name = 'NotWritten';
  }
}

interface Waiting<I, O> {
  item: I;
  /** Epoch milliseconds; Infinity for none. */
  deadline: number;
  timer: NodeJS.Timeout | undefined;
  resolve: (value: O) => void;
  reject: (reason: unknown) => void;
}

export interface BatcherLimits {
  maxBatch: number;
  maxInFlight: number;
  /** Items waiting for a batch, at most; one more is refused at once (`NotWritten('queue_full')`). */
  maxQueued?: number;
}

/**
 * Gathers work that arrives while earlier work is being written, and hands it over as one batch:
 * group commit done by the caller. Nothing waits for a timer: an item that finds no batch in
 * flight goes at once, alone, so a quiet service adds no latency, and under load each batch
 * carries what queued during the previous one. `write` answers one result per item, in order;
 * if it throws, every item of that batch gets the error.
 *
 * Back-pressure: the queue holds at most `maxQueued` items, and an item still queued at its
 * deadline leaves the queue with `NotWritten('deadline')`. Once handed to `write`, an item is no
 * longer timed out here (the batcher can't know whether its write has begun): `write` gets the
 * batch's earliest deadline and must itself refuse or bound the work by it.
 */
export class Batcher<I, O> {
  private readonly queue: Waiting<I, O>[] = [];
  private inFlight = 0;
  private readonly maxQueued: number;

  constructor(
    private readonly write: (items: I[], deadline: number) => Promise<O[]>,
    private readonly limits: BatcherLimits,
  ) {
    if (limits.maxBatch < 1 || limits.maxInFlight < 1) throw new RangeError('batch limits must be at least 1');
    this.maxQueued = limits.maxQueued ?? Infinity;
    if (this.maxQueued < 0) throw new RangeError('maxQueued must not be negative');
  }

  /** Items waiting for a batch (not those being written). */
  get queued(): number {
    return this.queue.length;
  }

  /** Writes `item` in a batch; `deadline` (epoch ms) bounds its wait in the queue and is passed to the writer. */
  submit(item: I, deadline = Infinity): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      // An item that would go out at once never counts against the queue's bound.
      if (this.queue.length >= this.maxQueued && this.inFlight >= this.limits.maxInFlight) {
        reject(new NotWritten('queue_full'));
        return;
      }
      const waiting: Waiting<I, O> = { item, deadline, timer: undefined, resolve, reject };
      this.queue.push(waiting);
      this.pump();
      // pump takes from the front only: if this item is still last, it is still waiting.
      if (deadline !== Infinity && this.queue[this.queue.length - 1] === waiting) {
        waiting.timer = setTimeout(() => this.expire(waiting), Math.max(0, deadline - Date.now()));
      }
    });
  }

  private expire(waiting: Waiting<I, O>): void {
    const at = this.queue.indexOf(waiting);
    // Already handed over: its writer answers for it.
    if (at === -1) return;
    this.queue.splice(at, 1);
    waiting.reject(new NotWritten('deadline'));
  }

  private pump(): void {
    while (this.inFlight < this.limits.maxInFlight && this.queue.length > 0) {
      const now = Date.now();
      const batch: Waiting<I, O>[] = [];
      let deadline = Infinity;
      while (batch.length < this.limits.maxBatch && this.queue.length > 0) {
        const next = this.queue.shift() as Waiting<I, O>;
        if (next.timer !== undefined) clearTimeout(next.timer);
        // Past its deadline though its timer has not run yet (a busy event loop): it would cut the
        // whole batch's time short.
        if (next.deadline <= now) {
          next.reject(new NotWritten('deadline'));
          continue;
        }
        batch.push(next);
        if (next.deadline < deadline) deadline = next.deadline;
      }
      if (batch.length === 0) continue;
      this.inFlight++;
      this.run(batch, deadline);
    }
  }

  private run(batch: Waiting<I, O>[], deadline: number): void {
    let results: Promise<O[]>;
    try {
      results = this.write(
        batch.map((b) => b.item),
        deadline,
      );
    } catch (err) {
      results = Promise.reject(err);
    }
    // The next batch leaves before this one's callers are answered, so the writer is kept busy
    // while they carry on.
    results
      .then(
        (out) => {
          this.done();
          if (out.length !== batch.length) throw new Error(`a batch of ${batch.length} answered ${out.length} results`);
          batch.forEach((b, i) => {
            b.resolve(out[i] as O);
          });
        },
        (err: unknown) => {
          this.done();
          throw err;
        },
      )
      .catch((err: unknown) => {
        for (const b of batch) b.reject(err);
      });
  }

  private done(): void {
    this.inFlight--;
    this.pump();
  }
}

/**
 * A batch's writer that, when a batch of several fails for a reason `passThrough` does not claim, writes each item
 * again alone: an unexpected error in one item (a bug, a constraint) must not fail the others. `failed` turns an
 * item's own error into its answer.
 */
export function eachAloneOnFailure<I, O>(
  write: (items: I[], deadline: number) => Promise<O[]>,
  { failed, passThrough }: { failed: (failure: unknown) => O; passThrough: (err: unknown) => boolean },
): (items: I[], deadline: number) => Promise<O[]> {
  return async (batch, deadline) => {
    try {
      return await write(batch, deadline);
    } catch (err) {
      if (batch.length === 1 || passThrough(err)) throw err;
      return Promise.all(
        batch.map((item) =>
          write([item], deadline).then(([out]) => out ?? failed(new Error('a batch of one answered nothing')), failed),
        ),
      );
    }
  };
}
