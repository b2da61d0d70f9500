export interface CacheOptions {
  /** How long an entry is used without reading it again, even if no change was announced. 0: no caching. */
  ttlMs: number;
  /** Entries per lookup; the oldest go first beyond it. */
  maxEntries: number;
  now?: () => number;
}

/**
 * Values by key, read through a loader and kept until a change is announced or the entry is
 * `ttlMs` old. A load that was under way when a change was announced is used once but not kept,
 * so the cache never stores what was read before the change.
 */
export class CachedLookup<K, V> {
  private readonly entries = new Map<K, { value: V; storedAt: number; weight: number }>();
  private generation = 0;
  private weight = 0;
  private readonly now: () => number;

  constructor(
    private readonly options: CacheOptions & {
      /**
       * The weight of an entry (its size) and the most the entries may weigh together, the oldest going first beyond
       * it; a value heavier than that alone is not kept. Without it, every entry weighs nothing.
       */
      weight?: { of: (value: V) => number; max: number };
    },
    /** Whether caching is allowed now (the change feed is live). */
    private readonly usable: () => boolean,
  ) {
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  invalidate(): void {
    this.generation++;
    this.entries.clear();
    this.weight = 0;
  }

  async get(key: K, load: (key: K) => Promise<V>): Promise<V> {
    if (!this.enabled()) return load(key);
    const startedAt = this.now();
    const hit = this.fresh(key, startedAt);
    if (hit) return hit.value;
    const read = { generation: this.generation, startedAt };
    const value = await load(key);
    this.store(key, value, read);
    return value;
  }

  /** The values of `keys`; the missing ones are loaded together. Keys the loader does not return are not kept. */
  async getMany(keys: K[], load: (missing: K[]) => Promise<Map<K, V>>): Promise<Map<K, V>> {
    if (!this.enabled()) return load(keys);
    const startedAt = this.now();
    const found = new Map<K, V>();
    const missing: K[] = [];
    for (const key of keys) {
      const hit = this.fresh(key, startedAt);
      if (hit) found.set(key, hit.value);
      else missing.push(key);
    }
    if (missing.length === 0) return found;
    const read = { generation: this.generation, startedAt };
    const loaded = await load(missing);
    for (const [key, value] of loaded) {
      found.set(key, value);
      this.store(key, value, read);
    }
    return found;
  }

  private enabled(): boolean {
    return this.options.ttlMs > 0 && this.usable();
  }

  private fresh(key: K, now: number) {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (now - entry.storedAt < this.options.ttlMs) return entry;
    this.remove(key);
    return undefined;
  }

  /** Keeps a loaded value unless the cache was invalidated (or became unusable) since `read` started. */
  private store(key: K, value: V, read: { generation: number; startedAt: number }): void {
    if (read.generation !== this.generation || !this.usable()) return;
    const weight = this.options.weight?.of(value) ?? 0;
    const most = this.options.weight?.max ?? 0;
    if (weight > most) return;
    this.remove(key);
    while (this.entries.size >= this.options.maxEntries || this.weight + weight > most) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.remove(oldest.value);
    }
    // Dated from before the read: the entry is never used longer than ttlMs after its data was read.
    this.entries.set(key, { value, storedAt: read.startedAt, weight });
    this.weight += weight;
  }

  private remove(key: K): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.weight -= entry.weight;
  }
}
