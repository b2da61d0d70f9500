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
  private readonly entries = new Map<K, { value: V; storedAt: number }>();
  private generation = 0;
  private readonly now: () => number;

  constructor(
    private readonly options: CacheOptions,
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
  }

  /** The value of `key`, loaded when it is not kept; `keep` says whether a loaded value may be kept (too big?). */
  async get(key: K, load: (key: K) => Promise<V>, options: { keep?: (value: V) => boolean } = {}): Promise<V> {
    if (!this.enabled()) return load(key);
    const startedAt = this.now();
    const hit = this.fresh(key, startedAt);
    if (hit) return hit.value;
    const read = { generation: this.generation, startedAt };
    const value = await load(key);
    if (options.keep?.(value) ?? true) this.store(key, value, read);
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
    this.entries.delete(key);
    return undefined;
  }

  /** Keeps a loaded value unless the cache was invalidated (or became unusable) since `read` started. */
  private store(key: K, value: V, read: { generation: number; startedAt: number }): void {
    if (read.generation !== this.generation || !this.usable()) return;
    if (!this.entries.has(key) && this.entries.size >= this.options.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    // Dated from before the read: the entry is never used longer than ttlMs after its data was read.
    this.entries.set(key, { value, storedAt: read.startedAt });
  }
}
