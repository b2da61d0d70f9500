/**
 * Gathers work that arrives while earlier work is being written, and hands it over as one batch:
 * group commit done by the caller. Nothing waits for a timer: an item that finds no batch in
 * flight goes at once, alone, so a quiet service adds no latency, and under load each batch
 * carries what queued during the previous one. `write` answers one result per item, in order;
 * if it throws, every item of that batch gets the error.
 */
export class Batcher<I, O> {
  private readonly queue: { item: I; resolve: (value: O) => void; reject: (reason: unknown) => void }[] = [];
  private inFlight = 0;

  constructor(
    private readonly write: (items: I[]) => Promise<O[]>,
    private readonly limits: { maxBatch: number; maxInFlight: number },
  ) {
    if (limits.maxBatch < 1 || limits.maxInFlight < 1) throw new RangeError('batch limits must be at least 1');
  }

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.limits.maxInFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.limits.maxBatch);
      this.inFlight++;
      this.run(batch);
    }
  }

  private run(batch: typeof this.queue): void {
    let results: Promise<O[]>;
    try {
      results = this.write(batch.map((b) => b.item));
    } catch (err) {
      results = Promise.reject(err);
    }
    // The next batch leaves before this one's callers are answered, so the writer is kept busy
    // while they carry on.
    results.then((out) => {
      this.done();
      if (out.length !== batch.length) throw new Error(`a batch of ${batch.length} answered ${out.length} results`);
      batch.forEach((b, i) => b.resolve(out[i] as O));
    }, (err: unknown) => {
      this.done();
      throw err;
    }).catch((err: unknown) => {
      for (const b of batch) b.reject(err);
    });
  }

  private done(): void {
    this.inFlight--;
    this.pump();
  }
}
