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
  storefrontProductIdByHandle,
  storefrontProducts,
} from './catalog.repository.js';
import {
  type CatalogCategory,
  type CatalogCollection,
  categoryPageIds,
  collectionByHandle,
  collectionPageIds,
  storefrontCategories,
  storefrontCollections,
} from './navigation.repository.js';

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

/** A page of shown products, and the cursor of the next. */
export interface StockedPage {
  items: StockedProduct[];
  next: number | null;
}

/** What the storefront's catalog reads from the database. */
export interface StorefrontReads {
  pageIds: (query: { limit: number; after: number }) => Promise<PageIds>;
  categoryPageIds: (query: { categoryIds: number[]; limit: number; after: number }) => Promise<PageIds>;
  collectionPageIds: (query: { collectionId: number; limit: number; after: number }) => Promise<PageIds>;
  products: (ids: number[]) => Promise<Map<number, CatalogProduct | null>>;
  productIdByHandle: (handle: string) => Promise<number | null>;
  categories: () => Promise<CatalogCategory[]>;
  collections: () => Promise<CatalogCollection[]>;
  collectionByHandle: (handle: string) => Promise<CatalogCollection | null>;
  stock: StockReads;
}

const NO_STOCK: ReadonlyMap<number, number> = new Map();

/** The tables the storefront's catalog is read from: a change to any of them clears what is kept. */
export const CATALOG_TABLES: ReadonlySet<string> = new Set([
  'products',
  'product_variants',
  'variant_prices',
  'categories',
  'product_categories',
  'collections',
  'collection_products',
  'product_media',
  'product_media_variants',
  'product_options',
  'product_option_values',
  'variant_option_values',
  EVERYTHING,
]);

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
  /** Product ids by handle (null: no active product has it). */
  private readonly handles: CachedLookup<string, number | null>;
  /** The category tree and the collections, each kept whole under one key. */
  private readonly categoryList: CachedLookup<'all', CatalogCategory[]>;
  private readonly collectionList: CachedLookup<'all', CatalogCollection[]>;
  private readonly collectionsByHandle: CachedLookup<string, CatalogCollection | null>;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly reads: StorefrontReads,
    options: { feed: ChangeFeed; ttlMs: number },
  ) {
    const usable = () => options.feed.live;
    const cache = <K, V>(maxEntries: number) => new CachedLookup<K, V>({ ttlMs: options.ttlMs, maxEntries }, usable);
    this.pages = cache(CATALOG_CACHE_LIMITS.pages);
    this.products = cache(CATALOG_CACHE_LIMITS.products);
    this.handles = cache(CATALOG_CACHE_LIMITS.products);
    this.categoryList = cache(1);
    this.collectionList = cache(1);
    this.collectionsByHandle = cache(CATALOG_CACHE_LIMITS.pages);
    this.unsubscribe = options.feed.subscribe((table) => {
      if (CATALOG_TABLES.has(table)) this.invalidate();
    });
  }

  invalidate(): void {
    this.pages.invalidate();
    this.products.invalidate();
    this.handles.invalidate();
    this.categoryList.invalidate();
    this.collectionList.invalidate();
    this.collectionsByHandle.invalidate();
  }

  close(): void {
    this.unsubscribe();
  }

  /** Active products after the cursor that have something to buy, with their active variants and stock. */
  page(query: { limit: number; after?: number }): Promise<StockedPage> {
    const after = query.after ?? 0;
    return this.shownPage(`${after}:${query.limit}`, () => this.reads.pageIds({ limit: query.limit, after }));
  }

  /**
   * A page of the active products in any of these categories (a category and its subcategories), in id order;
   * `key` names the list (the category's id).
   */
  categoryPage(query: { key: number; categoryIds: number[]; limit: number; after?: number }): Promise<StockedPage> {
    const after = query.after ?? 0;
    return this.shownPage(`c${query.key}:${after}:${query.limit}`, () =>
      this.reads.categoryPageIds({ categoryIds: query.categoryIds, limit: query.limit, after }),
    );
  }

  /** A page of a collection's active products in its order, after a position (-1: from the start). */
  collectionPage(query: { collectionId: number; limit: number; after?: number }): Promise<StockedPage> {
    const after = query.after ?? -1;
    return this.shownPage(`k${query.collectionId}:${after}:${query.limit}`, () =>
      this.reads.collectionPageIds({ collectionId: query.collectionId, limit: query.limit, after }),
    );
  }

  /** One active product with its active variants and their stock; undefined when archived or unknown. */
  async product(id: number): Promise<StockedProduct | undefined> {
    const product = await this.products.get(id, async (key) => (await this.reads.products([key])).get(key) ?? null);
    if (!product) return undefined;
    return { product, stock: await this.stockOf([product]) };
  }

  /** The active product with this handle, as `product` answers it. */
  async productByHandle(handle: string): Promise<StockedProduct | undefined> {
    const id = await this.handles.get(handle, (key) => this.reads.productIdByHandle(key));
    return id === null ? undefined : this.product(id);
  }

  /** Every category (the storefront builds the tree, breadcrumbs and subtrees from it: category-tree.ts). */
  categories(): Promise<CatalogCategory[]> {
    return this.categoryList.get('all', () => this.reads.categories());
  }

  collections(): Promise<CatalogCollection[]> {
    return this.collectionList.get('all', () => this.reads.collections());
  }

  collectionByHandle(handle: string): Promise<CatalogCollection | null> {
    return this.collectionsByHandle.get(handle, (key) => this.reads.collectionByHandle(key));
  }

  /** The products of a page of ids, those with something to buy, with their stock read now. */
  private async shownPage(key: string, pageIds: () => Promise<PageIds>): Promise<StockedPage> {
    const page = await this.pages.get(key, pageIds);
    return { items: await this.shown(page.ids), next: page.next };
  }

  /** These products in this order (a search's hits), those active with something to buy, with stock read now. */
  async shown(ids: number[]): Promise<StockedProduct[]> {
    const found = await this.products.getMany(ids, (missing) => this.reads.products(missing));
    const shown: CatalogProduct[] = [];
    for (const id of ids) {
      const product = found.get(id);
      // The storefront lists only products that have something to buy.
      if (product && product.variants.length > 0) shown.push(product);
    }
    const stock = await this.stockOf(shown);
    return shown.map((product) => ({ product, stock }));
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
      categoryPageIds: (query) => categoryPageIds(database.db, query),
      collectionPageIds: (query) => collectionPageIds(database.db, query),
      products: (ids) => storefrontProducts(database.db, ids),
      productIdByHandle: (handle) => storefrontProductIdByHandle(database.db, handle),
      categories: () => storefrontCategories(database.db),
      collections: () => storefrontCollections(database.db),
      collectionByHandle: (handle) => collectionByHandle(database.db, handle),
      stock: batchedStockReads(database),
    },
    { feed: database.changes, ttlMs: deps.ttlSeconds * 1000 },
  );
  app.addHook('onClose', async () => catalog.close());
  return catalog;
}
