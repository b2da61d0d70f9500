import type { FastifyInstance } from 'fastify';
import { type ChangeFeed, EVERYTHING } from '../db/change-feed.js';
import type { Database } from '../db/client.js';
import { CachedLookup } from '../shared/cached-lookup.js';
import { stockIsCounted } from './availability.js';
import {
  batchedStockReads,
  type CatalogProduct,
  type StockReads,
  storefrontPageIds,
  storefrontProducts,
} from './catalog.repository.js';

/** A storefront product with the stock of each of its variants, read for this request. */
export interface StockedProduct {
  product: CatalogProduct;
  /** Units on hand by variant id, for the variants whose stock limits sales; read after the request arrived. */
  stock: ReadonlyMap<number, number>;
}

/** A page of the storefront's list: what was cut from the ids read with `limit + 1`. */
interface PageIds {
  ids: number[];
  next: number | null;
}

const NO_STOCK: ReadonlyMap<number, number> = new Map();

/** The tables the storefront's products and variants are read from: a change to either clears what is kept. */
const CATALOG_TABLES = new Set(['products', 'product_variants', 'variant_prices', EVERYTHING]);

/**
 * At most this many pages (product ids only) and products are kept: a crawler walking a 100,000-product catalog keeps
 * the latest of what it read, not all of it.
 */
const CATALOG_CACHE_LIMITS = { pages: 1_000, products: 10_000 };

/**
 * The storefront's catalog reads: the products and variants a page shows, kept in this process's memory until the
 * change feed announces a change to either table (another process, the CLI, SQL by hand) or this process's own admin
 * write clears them (`invalidate`); no entry is used longer than the reference data's TTL, and nothing is kept while
 * the feed is down. Stock is never kept: every answer reads it after its request arrived, in one statement shared
 * by the requests that arrive meanwhile (docs/decisions/0023-catalog-pages-cached.md).
 */
export class StorefrontCatalog {
  private readonly pages: CachedLookup<string, PageIds>;
  private readonly products: CachedLookup<number, CatalogProduct | null>;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly reads: {
      pageIds: (query: { limit: number; after: number }) => Promise<PageIds>;
      products: (ids: number[]) => Promise<Map<number, CatalogProduct | null>>;
      stock: StockReads;
    },
    options: { feed: ChangeFeed; ttlMs: number },
  ) {
    const usable = () => options.feed.live;
    this.pages = new CachedLookup({ ttlMs: options.ttlMs, maxEntries: CATALOG_CACHE_LIMITS.pages }, usable);
    this.products = new CachedLookup({ ttlMs: options.ttlMs, maxEntries: CATALOG_CACHE_LIMITS.products }, usable);
    this.unsubscribe = options.feed.subscribe((table) => {
      if (CATALOG_TABLES.has(table)) this.invalidate();
    });
  }

  invalidate(): void {
    this.pages.invalidate();
    this.products.invalidate();
  }

  close(): void {
    this.unsubscribe();
  }

  /** Active products after the cursor that have something to buy, with their active variants and stock. */
  async page(query: { limit: number; after?: number }): Promise<{ items: StockedProduct[]; next: number | null }> {
    const after = query.after ?? 0;
    const page = await this.pages.get(`${after}:${query.limit}`, () =>
      this.reads.pageIds({ limit: query.limit, after }),
    );
    const found = await this.products.getMany(page.ids, (missing) => this.reads.products(missing));
    const shown: CatalogProduct[] = [];
    for (const id of page.ids) {
      const product = found.get(id);
      // The storefront lists only products that have something to buy.
      if (product && product.variants.length > 0) shown.push(product);
    }
    const stock = await this.stockOf(shown);
    return { items: shown.map((product) => ({ product, stock })), next: page.next };
  }

  /** One active product with its active variants and their stock; undefined when archived or unknown. */
  async product(id: number): Promise<StockedProduct | undefined> {
    const product = await this.products.get(id, async (key) => (await this.reads.products([key])).get(key) ?? null);
    if (!product) return undefined;
    return { product, stock: await this.stockOf([product]) };
  }

  private stockOf(shown: CatalogProduct[]): Promise<ReadonlyMap<number, number>> {
    const counted: number[] = [];
    for (const product of shown) for (const v of product.variants) if (stockIsCounted(v)) counted.push(v.id);
    return counted.length === 0 ? Promise.resolve(NO_STOCK) : this.reads.stock(counted);
  }
}

/** The storefront's catalog for the app, on its database and change feed; closed with the app. */
export function openStorefrontCatalog(app: FastifyInstance, deps: { database: Database; ttlSeconds: number }) {
  const { database } = deps;
  const catalog = new StorefrontCatalog(
    {
      pageIds: (query) => storefrontPageIds(database.db, query),
      products: (ids) => storefrontProducts(database.db, ids),
      stock: batchedStockReads(database),
    },
    { feed: database.changes, ttlMs: deps.ttlSeconds * 1000 },
  );
  app.addHook('onClose', async () => catalog.close());
  return catalog;
}
