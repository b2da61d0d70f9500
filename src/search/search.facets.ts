import type { SearchAnswer, SearchQuery } from './product-search.js';
import { OPTIONS_NOT_FACETED, type SearchCursor } from './search.values.js';

/*
 * A search's page and facet counts from its matched products, in one pass over them (decision 0034). The matched
 * products come from the database (search.repository.ts) and may be kept between searches; whether each can be
 * bought now never is: it is passed in, read after the request arrived.
 */

/** A product that matches the words and every filter but price, stock and option, with what the facets need of it. */
export interface MatchedProduct {
  id: number;
  /** Relevance in millionths (0 for a search without words). */
  rank: number;
  /** Whether one of its variants is in the price filter's range (true without one). */
  inPriceRange: boolean;
  /** The price facet's ranges its variants fall in, as indexes into the query's price bounds, distinct. */
  buckets: number[];
  /** The categories it is in (not their ancestors). */
  categories: number[];
  /** Its option values (names at the same index), as the admin wrote them. */
  optionNames: string[];
  optionValues: string[];
  /** For each option filtered by (search.repository.ts `optionConditions`, in that order), whether it passes. */
  optionTests: boolean[];
}

/** Matched products best first, ties in id order: the order of the hits and of the cursor. */
export function inRankOrder(products: MatchedProduct[]): MatchedProduct[] {
  return products.sort((a, b) => b.rank - a.rank || a.id - b.id);
}

const bump = <K>(counts: Map<K, number>, key: K) => counts.set(key, (counts.get(key) ?? 0) + 1);

/** Counts a product once for each of its categories and their ancestors. */
function countCategories(counts: Map<number, number>, p: MatchedProduct, ancestry: SearchQuery['categoryAncestry']) {
  const facets = new Set<number>();
  for (const c of p.categories) for (const f of ancestry.get(c) ?? []) facets.add(f);
  for (const f of facets) bump(counts, f);
}

/** Whether a product comes after the cursor in rank order (every product without one). */
const isAfter = (p: MatchedProduct, after: SearchCursor | undefined) =>
  after === undefined || p.rank < after.rank || (p.rank === after.rank && p.id > after.id);

/** The counts of the option facet: each value with every filter but its own option's (multi-select facets). */
function optionCounts(matched: readonly MatchedProduct[], passes: (p: MatchedProduct) => boolean, filtered: string[]) {
  const counted = new Map<string, { name: string; values: Map<string, { value: string; n: number }> }>();
  for (const p of matched) {
    if (!p.inPriceRange || !passes(p)) continue;
    for (let i = 0; i < p.optionNames.length; i++) {
      const name = p.optionNames[i] ?? '';
      const value = p.optionValues[i] ?? '';
      const key = name.toLowerCase();
      if (OPTIONS_NOT_FACETED.includes(key)) continue;
      if (p.optionTests.some((ok, t) => !ok && filtered[t] !== key)) continue;
      const option = counted.get(key) ?? { name, values: new Map() };
      if (name < option.name) option.name = name;
      counted.set(key, option);
      const lower = value.toLowerCase();
      const found = option.values.get(lower) ?? { value, n: 0 };
      if (value < found.value) found.value = value;
      found.n++;
      option.values.set(lower, found);
    }
  }
  const options = new Map<string, Map<string, number>>();
  for (const { name, values } of counted.values()) {
    options.set(name, new Map([...values.values()].map((v) => [v.value, v.n])));
  }
  return options;
}

/**
 * The page after the query's cursor and the facet counts: each facet counted with every filter but its own, the
 * category facet within the category filter (a drill-down). `matched` in rank order (`inRankOrder`); `soldOut`: the
 * products none of whose variants can be bought now.
 */
export function answerOf(
  matched: readonly MatchedProduct[],
  query: SearchQuery,
  soldOut: ReadonlySet<number>,
): SearchAnswer {
  const filteredOptions = [...(query.options?.keys() ?? [])];
  const optionsPass = (p: MatchedProduct) => !p.optionTests.includes(false);
  const stockPasses = (p: MatchedProduct) => !query.inStock || !soldOut.has(p.id);
  const categories = new Map<number, number>();
  const prices = new Map<number, number>();
  const availability = { inStock: 0, all: 0 };
  const hits: { id: number; rank: number }[] = [];
  let total = 0;
  for (const p of matched) {
    if (!optionsPass(p)) continue;
    const stock = stockPasses(p);
    if (stock) for (const bucket of p.buckets) bump(prices, bucket);
    if (!p.inPriceRange) continue;
    availability.all++;
    if (!soldOut.has(p.id)) availability.inStock++;
    if (!stock) continue;
    total++;
    countCategories(categories, p, query.categoryAncestry);
    if (hits.length <= query.limit && isAfter(p, query.after)) hits.push({ id: p.id, rank: p.rank });
  }
  const page = hits.slice(0, query.limit);
  const last = page.at(-1);
  return {
    productIds: page.map((h) => h.id),
    next: hits.length > query.limit && last ? last : null,
    total,
    facets: {
      categories,
      prices,
      options: optionCounts(matched, (p) => stockPasses(p), filteredOptions),
      availability,
    },
  };
}
