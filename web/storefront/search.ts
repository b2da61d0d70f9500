// The search page's address: the query and filters of GET /product/storefront/api/search/ as /search?… parameters,
// so a results page can be linked, bookmarked and gone back to.

/** The filters a results page can carry (the API's, minus paging). */
export interface SearchFilters {
  q?: string;
  category?: string;
  collection?: string;
  price_min?: string;
  price_max?: string;
  in_stock?: string;
}

const KEYS = ['q', 'category', 'collection', 'price_min', 'price_max', 'in_stock'] as const;

/** The filters of a page address's query (unknown parameters dropped, blank ones too). */
export function searchFiltersOf(query: Record<string, string | undefined>): SearchFilters {
  const filters: SearchFilters = {};
  for (const key of KEYS) {
    const value = query[key];
    if (value !== undefined && value !== '') filters[key] = value;
  }
  return filters;
}

/** /search?… for these filters, in a stable order. */
export function searchHref(filters: SearchFilters): string {
  const params = new URLSearchParams();
  for (const key of KEYS) {
    const value = filters[key];
    if (value !== undefined && value !== '') params.set(key, value);
  }
  const query = params.toString();
  return query === '' ? '/search' : `/search?${query}`;
}

/** The same filters with one changed (undefined: removed). */
export function withFilter(filters: SearchFilters, change: SearchFilters): SearchFilters {
  return searchFiltersOf({ ...filters, ...change });
}
