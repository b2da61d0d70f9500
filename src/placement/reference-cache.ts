import type { FastifyInstance } from 'fastify';
import { type ChangeFeed, EVERYTHING } from '../db/change-feed.js';
import { type CacheOptions, CachedLookup } from '../shared/cached-lookup.js';
import type {
  OrderableVariant,
  QuoteReads,
  ReadPromotion,
  QuoteShippingMethod,
  QuoteShippingRate,
  QuoteTaxRate,
} from './order-quote.repository.js';

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
  variant_prices: ['variants'],
  tax_classes: ['variants', 'taxRates'],
  tax_rates: ['taxRates'],
  shipping_methods: ['shipping'],
  shipping_rates: ['shipping'],
  shipping_rate_prices: ['shipping'],
  promotions: ['promotionsByCode', 'automaticPromotions'],
  // The storefront's navigation (issue #29): no quote reads it.
  categories: [],
  product_categories: [],
  collections: [],
  collection_products: [],
  // A variant's first image and its option values: an order line keeps them as sold (decision 0039).
  product_media: ['variants'],
  product_media_variants: ['variants'],
  product_options: ['variants'],
  product_option_values: ['variants'],
  variant_option_values: ['variants'],
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
