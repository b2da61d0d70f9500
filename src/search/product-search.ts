import type { MarketPricing } from '../markets/market-price.js';
import type { SearchCursor } from './search.values.js';

/*
 * The seam between the storefront's search route and the engine behind it (docs/catalog.md#search, decision 0034).
 * The one implementation is PostgreSQL's (search.repository.ts: full text, trigrams, facets counted in one
 * statement); another engine (Meilisearch, OpenSearch, Typesense) would implement `ProductSearch` and be passed to
 * `searchStorefrontRoutes` instead. The route does everything else: parameters, categories, markets, presentation.
 */

/** What a shopper asked for, every amount in minor units of the market's currency. */
export interface SearchQuery {
  /** As typed; blank: every product, by the filters, in id order. */
  text: string;
  /** Only products in this category or one of its subcategories. */
  categoryId?: number;
  /** Only products in this collection. */
  collectionId?: number;
  /** Only products with a variant priced at least `min` and below `max` in the market (either may be absent). */
  price?: { min?: number; max?: number };
  /** true: only products with a variant that can be bought now. */
  inStock?: boolean;
  /**
   * Only products with an active variant of one of these values of each option named (in any case; keys and values
   * in lower case, search.values.ts `optionFiltersOf`).
   */
  options?: ReadonlyMap<string, readonly string[]>;
  /** The request's market: its prices are the ones filtered and grouped. */
  market: MarketPricing;
  /**
   * Each category with the categories a product in it counts for: itself and its ancestors (a product in "Mugs"
   * is in "Coffee" too). The engine takes the tree from here, not from its own copy.
   */
  categoryAncestry: ReadonlyMap<number, readonly number[]>;
  /** Lower bounds of the price facet's ranges, ascending, from 0 (search.values.ts `priceBucketBounds`). */
  priceBounds: readonly number[];
  limit: number;
  after?: SearchCursor;
}

/** How many products match in each value of a facet, every other filter applied (not the facet's own). */
export interface SearchFacets {
  /**
   * Category id → products in it or in its subcategories, the category filter applied too (a drill-down: with a
   * category chosen, its subcategories and ancestors are counted). Categories without any are left out.
   */
  categories: ReadonlyMap<number, number>;
  /** Index into `priceBounds` → products with a variant priced in that range. Empty ranges are left out. */
  prices: ReadonlyMap<number, number>;
  /** Products with a variant that can be bought now, and all products, the stock filter left out. */
  availability: { inStock: number; all: number };
  /**
   * Option name → value → products with an active variant of that value, every filter applied but this option's
   * own (the other options' filters too). Names and values as the admin wrote them (one spelling for those that
   * differ only in case); options in OPTIONS_NOT_FACETED and values without products are left out.
   */
  options: ReadonlyMap<string, ReadonlyMap<string, number>>;
}

export interface SearchAnswer {
  /** Product ids of the page, best first (ties in id order). */
  productIds: number[];
  next: SearchCursor | null;
  /** Products matching the query and every filter. */
  total: number;
  facets: SearchFacets;
}

/** A search engine over the storefront's products. */
export interface ProductSearch {
  search(query: SearchQuery): Promise<SearchAnswer>;
}
