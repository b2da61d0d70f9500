import type { FastifyInstance } from 'fastify';
import { type ChangeFeed, EVERYTHING } from '../db/change-feed.js';
import type {
  OrderableVariant,
  QuoteReads,
  ReadPromotion,
  QuoteShippingMethod,
  QuoteShippingRate,
  QuoteTaxRate,
} from './order-quote.repository.js';

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

type Lookups = {
  variants: CachedLookup<string, OrderableVariant>;
  taxRates: CachedLookup<string, QuoteTaxRate[]>;
  shipping: CachedLookup<number, { method: QuoteShippingMethod; rates: QuoteShippingRate[] } | undefined>;
  promotionsByCode: CachedLookup<string, ReadPromotion | undefined>;
  /** One entry (key `automatic`): the automatic promotions. */
  automaticPromotions: CachedLookup<'automatic', ReadPromotion[]>;
};

/** Which lookups hold data of each table that announces its changes (migration 0007). */
const READERS: Record<string, (keyof Lookups)[]> = {
  products: ['variants'],
  product_variants: ['variants'],
  tax_classes: ['variants', 'taxRates'],
  tax_rates: ['taxRates'],
  shipping_methods: ['shipping'],
  shipping_rates: ['shipping'],
  promotions: ['promotionsByCode', 'automaticPromotions'],
};

/**
 * The reference data quotes read, kept in this process's memory: variants by alias, tax rates by
 * country, shipping methods with their rates, promotions (by code, and the automatic ones). Every change to the
 * underlying tables
 * reaches it through the database's change feed (other processes, the CLI, SQL by hand), and this
 * process's own admin writes clear it before they are answered (`invalidate`). While the feed is
 * down nothing is cached. Stock and promotion usage are never cached.
 */
export class ReferenceCache {
  readonly lookups: Lookups;
  private readonly unsubscribe: () => void;

  constructor(feed: ChangeFeed, options: CacheOptions) {
    const usable = () => feed.live;
    this.lookups = {
      variants: new CachedLookup(options, usable),
      taxRates: new CachedLookup(options, usable),
      shipping: new CachedLookup(options, usable),
      promotionsByCode: new CachedLookup(options, usable),
      automaticPromotions: new CachedLookup(options, usable),
    };
    this.unsubscribe = feed.subscribe((table) => this.invalidate(table));
  }

  /** Forgets what was read from `table` (any table name it does not know, or `EVERYTHING`: all of it). */
  invalidate(table: string = EVERYTHING): void {
    const readers = READERS[table] ?? (Object.keys(this.lookups) as (keyof Lookups)[]);
    for (const name of readers) this.lookups[name].invalidate();
  }

  close(): void {
    this.unsubscribe();
  }

  /** `source`'s reads, answered from memory where possible. `timesUsed` always goes to `source`. */
  reads(source: QuoteReads): QuoteReads {
    const { variants, taxRates, shipping, promotionsByCode, automaticPromotions } = this.lookups;
    return {
      variantsByAlias: (aliases) => variants.getMany(aliases, (missing) => source.variantsByAlias(missing)),
      taxRatesOf: (country) => taxRates.get(country, (c) => source.taxRatesOf(c)),
      shippingMethodWithRates: (methodId) => shipping.get(methodId, (id) => source.shippingMethodWithRates(id)),
      promotionByCode: (code) => promotionsByCode.get(code, (c) => source.promotionByCode(c)),
      automaticPromotions: () => automaticPromotions.get('automatic', () => source.automaticPromotions()),
      timesUsed: (id) => source.timesUsed(id),
    };
  }
}

/**
 * The app's reference data for quotes, in memory, closed with the app. This process's own admin writes clear it
 * before they are answered, so a change is seen by the next request; other processes hear of it from the database's
 * change feed.
 */
export function openReferenceCache(app: FastifyInstance, deps: { changes: ChangeFeed; ttlSeconds: number }) {
  const cache = new ReferenceCache(deps.changes, { ttlMs: deps.ttlSeconds * 1000, maxEntries: 100_000 });
  app.addHook('onClose', async () => cache.close());
  return cache;
}
