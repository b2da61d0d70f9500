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
  /** Option values asked for, each `Name:Value` (the API's repeatable `option`). */
  option?: string[];
}

const KEYS = ['q', 'category', 'collection', 'price_min', 'price_max', 'in_stock'] as const;

/**
 * The filters of a page address's query (unknown parameters dropped, blank ones too); `options`: every `option`
 * parameter of the address (a query object holds only one of them).
 */
export function searchFiltersOf(
  query: Record<string, string | undefined>,
  options: readonly string[] = [],
): SearchFilters {
  const filters: SearchFilters = {};
  for (const key of KEYS) {
    const value = query[key];
    if (value !== undefined && value !== '') filters[key] = value;
  }
  const option = [...new Set(options.filter((o) => o !== ''))];
  if (option.length > 0) filters.option = option;
  return filters;
}

/** The option filter of one value of an option, as the API takes it. */
export const optionFilter = (name: string, value: string) => `${name}:${value}`;

/** Whether a value of an option is among the filters (options are compared in any case). */
export function hasOption(filters: SearchFilters, filter: string): boolean {
  return (filters.option ?? []).some((o) => o.toLowerCase() === filter.toLowerCase());
}

/** The filters with one option value added, or taken off when it is there. */
export function toggledOption(filters: SearchFilters, filter: string): SearchFilters {
  const others = (filters.option ?? []).filter((o) => o.toLowerCase() !== filter.toLowerCase());
  return withFilter(filters, { option: hasOption(filters, filter) ? others : [...others, filter] });
}

/** /search?… for these filters, in a stable order. */
export function searchHref(filters: SearchFilters): string {
  const params = new URLSearchParams();
  for (const key of KEYS) {
    const value = filters[key];
    if (value !== undefined && value !== '') params.set(key, value);
  }
  for (const option of filters.option ?? []) params.append('option', option);
  const query = params.toString();
  return query === '' ? '/search' : `/search?${query}`;
}

/** The same filters with one changed (undefined: removed). */
export function withFilter(filters: SearchFilters, change: SearchFilters): SearchFilters {
  const { option, ...rest } = { ...filters, ...change };
  return searchFiltersOf(rest, option ?? []);
}
