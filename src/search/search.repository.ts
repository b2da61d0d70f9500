import { createHash } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { CATALOG_TABLES } from '../catalog/storefront-catalog.js';
import type { Database, Statement } from '../db/client.js';
import { Batcher } from '../shared/batcher.js';
import { CachedLookup } from '../shared/cached-lookup.js';
import { answerOf, inRankOrder, type MatchedProduct } from './search.facets.js';
import { storeAmountAtLeast } from './search.values.js';
import {
  MIN_TYPO_LENGTH,
  NAME_SIMILARITY_WEIGHT,
  NO_UPPER_BOUND,
  RANK_SCALE,
  searchTerms,
  TYPO_ALTERNATIVES,
  TYPO_SIMILARITY,
  tsqueryOf,
} from './search.values.js';
import type { ProductSearch, SearchQuery } from './product-search.js';

// Search on PostgreSQL (and PGlite): the documents and words of migration 0030, read in two statements per search not
// kept (the typo lookup when there is text, then the matched products with their facets' facts), and the sold-out
// products on every search. Decision 0034 says why it is built so.

const array = (values: readonly unknown[]) => sql.param(values);
const dialect = new PgDialect();

/**
 * Runs a statement built with Drizzle's `sql` as a prepared statement named after its text: a search's statements
 * take a handful of shapes (which filters are given), each planned once per connection, not on every search.
 */
function run<R>(database: Database, query: SQL): Promise<R[]> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  const name = `search_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
  return database.run<R>({ name, text }, params);
}

/**
 * The words that stand in for each term no document word starts with, nearest first (pg_trgm's `<->` distance over
 * the GiST index of search_words). A term some word starts with stands for itself alone.
 */
async function typoAlternatives(database: Database, terms: string[]): Promise<Map<string, string[]>> {
  const candidates = terms.filter((t) => [...t].length >= MIN_TYPO_LENGTH);
  const found = new Map<string, string[]>();
  if (candidates.length === 0) return found;
  const rows = await run<{ term: string; word: string }>(
    database,
    sql`
      select t.term, a.word
      from unnest(${array(candidates)}::text[]) as t(term)
      cross join lateral (
        select w.word from search_words w
        where not exists (
          select 1 from search_words k where k.word ~>=~ t.term and k.word ~<~ (t.term || chr(1114111)))
        order by w.word <-> t.term
        limit ${TYPO_ALTERNATIVES}::int
      ) a
      where similarity(a.word, t.term) >= ${TYPO_SIMILARITY}::real`,
  );
  for (const { term, word } of rows) found.set(term, [...(found.get(term) ?? []), word]);
  return found;
}

/**
 * A condition on a variant's price in the market: `test(column, 'market')` on its explicit price in the market's
 * currency when it has one, else `test(column, 'store')` on its stored price, against the store-currency amounts
 * that convert to the market's bounds (storeAmountAtLeast). In the store's own currency, the stored price alone.
 */
function byMarketPrice(query: SearchQuery, test: (amount: SQL, side: 'market' | 'store') => SQL): SQL {
  if (query.market.conversion === null) return test(sql`v.price`, 'store');
  const explicit = test(sql`v.amount`, 'market');
  return sql`case when v.amount is not null then ${explicit} else ${test(sql`v.price`, 'store')} end`;
}

/**
 * A matched product's prices as rows (price: stored; amount: explicit in the market's currency, or null): its search
 * row's stored prices, or, only for a product with an explicit price in that currency, its active variants'.
 */
function pricesOf(query: SearchQuery): SQL {
  if (query.market.conversion === null) return sql`select v.price from unnest(m.prices) as v(price)`;
  const currency = sql`${query.market.currency}::text`;
  return sql`
    select v.price, null::int8 as amount from unnest(m.prices) as v(price)
    where not (${currency} = any(m.priced_currencies))
    union all
    select v.price, vp.amount from product_variants v
    left join variant_prices vp on vp.variant_id = v.id and vp.currency = ${currency}
    where ${currency} = any(m.priced_currencies) and v.product_id = m.id and v.archived_at is null`;
}

function priceConditions(query: SearchQuery) {
  const bounds = {
    market: query.priceBounds,
    store: query.priceBounds.map((b) => storeAmountAtLeast(b, query.market)),
  };
  const bucket = byMarketPrice(query, (amount, side) => sql`width_bucket(${amount}, ${array(bounds[side])}::int8[])`);
  const { min, max } = query.price ?? {};
  if (min === undefined && max === undefined) return { bucket, inRange: sql`true` };
  const range = {
    market: [min ?? 0, max ?? NO_UPPER_BOUND],
    store: [
      storeAmountAtLeast(min ?? 0, query.market),
      max === undefined ? NO_UPPER_BOUND : storeAmountAtLeast(max, query.market),
    ],
  };
  const inRange = byMarketPrice(
    query,
    (amount, side) => sql`(${amount} >= ${range[side][0]}::int8 and ${amount} < ${range[side][1]}::int8)`,
  );
  return { bucket, inRange: sql`bool_or(${inRange})` };
}

/** What a search reads of each matched product's search row besides its document (migrations 0034 and 0035). */
const FACTS = sql`s.category_ids, s.option_names, s.option_values, s.in_stock, s.prices, s.priced_currencies`;

function matchedProducts(query: SearchQuery, tsquery: string | undefined): SQL {
  const column = tsquery === undefined ? sql`p.id` : sql`s.product_id`;
  const collection =
    query.collectionId === undefined
      ? sql``
      : sql`and ${column} in (select product_id from collection_products
          where collection_id = ${query.collectionId}::int)`;
  // The category filter narrows the products first: its facet counts drill down (the chosen category's subcategories).
  const category =
    query.categoryId === undefined
      ? sql``
      : sql`and ${column} in (select product_id from product_categories
          where category_id = any(${array(subtreeOf(query))}::int[]))`;
  if (tsquery === undefined) {
    return sql`select p.id, 0::int8 as rank, ${FACTS}
      from products p join product_search s on s.product_id = p.id
      where p.archived_at is null ${collection} ${category}`;
  }
  // The product is looked up by its key for each document matched (offset 0 keeps the planner from joining all
  // products instead: a few hundred matches of 20,000 products).
  return sql`
    select s.product_id as id, round((ts_rank(s.document, ${tsquery}::tsquery)
      + ${NAME_SIMILARITY_WEIGHT}::float8 * word_similarity(${query.text}::text, p.name)) * ${RANK_SCALE}::float8)::int8
      as rank, ${FACTS}
    from product_search s
    cross join lateral (
      select p.name from products p where p.id = s.product_id and p.archived_at is null offset 0
    ) p
    where s.document @@ ${tsquery}::tsquery ${collection} ${category}`;
}

/** The category filter's category and its subcategories: the categories whose ancestry holds it. */
function subtreeOf(query: SearchQuery): number[] {
  const ids: number[] = [];
  for (const [category, counted] of query.categoryAncestry) {
    if (query.categoryId !== undefined && counted.includes(query.categoryId)) ids.push(category);
  }
  return ids;
}

/**
 * The option filter as SQL: for each option filtered by, whether the product has one of the values asked for (in any
 * case, as options.rules.ts compares names and values), and the option's name in lower case, at the same index.
 */
function optionConditions(query: SearchQuery) {
  const names: string[] = [];
  const tests: SQL[] = [];
  for (const [name, values] of query.options ?? []) {
    names.push(name);
    tests.push(sql`exists (select 1 from unnest(m.option_names, m.option_values) o(name, value)
      where lower(o.name) = lower(${name}::text)
        and lower(o.value) in (select lower(x) from unnest(${array(values)}::text[]) as x))`);
  }
  return { names, tests: tests.length === 0 ? sql`array[]::bool[]` : sql`array[${sql.join(tests, sql`, `)}]` };
}

interface MatchedRow {
  id: number;
  rank: string | number;
  p_ok: boolean;
  buckets: (number | null)[];
  category_ids: number[];
  option_names: string[];
  option_values: string[];
  option_tests: boolean[];
}

/**
 * The products that match the words and the category and collection filters, each with what the page and the facets
 * need (search.facets.ts counts them): its rank, whether it is in the price filter's range, its price ranges, its
 * categories and option values, and its result for each option filter. Products without active variants are left out.
 */
async function matchedRows(
  database: Database,
  query: SearchQuery,
  tsquery: string | undefined,
): Promise<MatchedProduct[]> {
  const { bucket, inRange } = priceConditions(query);
  const options = optionConditions(query);
  const rows = await run<MatchedRow>(
    database,
    sql`
      with matched as (${matchedProducts(query, tsquery)})
      select m.id, m.rank, v.p_ok, v.buckets, m.category_ids, m.option_names, m.option_values,
        ${options.tests} as option_tests
      from matched m
      cross join lateral (
        select ${inRange} as p_ok, array_agg(distinct ${bucket}) as buckets from (${pricesOf(query)}) v
      ) v
      where cardinality(m.prices) > 0`,
  );
  return inRankOrder(
    rows.map((r) => ({
      id: r.id,
      rank: Number(r.rank),
      inPriceRange: r.p_ok,
      // width_bucket counts from 1: the range that starts at bound 0 is bucket 1.
      buckets: r.buckets.flatMap((b) => (b === null ? [] : [b - 1])),
      categories: r.category_ids,
      optionNames: r.option_names,
      optionValues: r.option_values,
      optionTests: r.option_tests,
    })),
  );
}

/** The products none of whose active variants can be bought now (`in_stock`, migration 0035; its partial index). */
const soldOutProducts: Statement = {
  name: 'search_sold_out',
  text: 'select product_id as id from product_search where not in_stock',
};

/**
 * The sold-out products, read for every search after its request arrived; the searches that arrive while a read is
 * under way share the next one (as the catalog's stock reads do).
 */
function batchedSoldOutReads(database: Database): () => Promise<ReadonlySet<number>> {
  const batcher = new Batcher<null, ReadonlySet<number>>(
    async (asked) => {
      const rows = await database.run<{ id: number }>(soldOutProducts, []);
      const soldOut = new Set<number>();
      for (const row of rows) soldOut.add(row.id);
      return asked.map(() => soldOut);
    },
    { maxBatch: SOLD_OUT_READ_BATCH, maxInFlight: 1 },
  );
  return () => batcher.submit(null);
}

/** What a search's matched products depend on besides the catalog: everything asked but stock, cursor and limit. */
function matchKey(query: SearchQuery, terms: string[]): string {
  return JSON.stringify(
    [
      terms,
      query.categoryId ?? null,
      query.collectionId ?? null,
      query.price?.min ?? null,
      query.price?.max ?? null,
      [...(query.options ?? [])],
      query.market,
      query.priceBounds,
    ],
    (_, value) => (typeof value === 'bigint' ? value.toString() : value),
  );
}

/**
 * The limits of what one process keeps of searches' matched products (decision 0034): at most this many searches and
 * matched products in all (some 300 bytes each), the oldest going first; a search matching more is not kept.
 */
export const SEARCH_CACHE_LIMITS = { searches: 1_000, products: 100_000 };
const SOLD_OUT_READ_BATCH = 1_000;

/**
 * Search on the service's own database: PostgreSQL, or PGlite with pg_trgm. Each search's matched products are kept
 * in this process's memory as the storefront's catalog keeps its pages: until the change feed announces a change to
 * the catalog's tables, or this process's own admin write clears them (`invalidate`), never longer than `ttlMs`, and
 * nothing while the feed is down. Stock is never kept: the sold-out products are read for every search.
 */
export function postgresProductSearch(
  database: Database,
  options: { ttlMs: number },
): ProductSearch & { invalidate(): void; close(): void } {
  const cache = new CachedLookup<string, MatchedProduct[]>(
    {
      ttlMs: options.ttlMs,
      maxEntries: SEARCH_CACHE_LIMITS.searches,
      weight: { of: (products) => products.length, max: SEARCH_CACHE_LIMITS.products },
    },
    () => database.changes.live,
  );
  // Reads under way by key, shared by the searches that ask the same meanwhile (after a change, every popular search
  // misses at once); forgotten at a change, so that a search after it never joins a read begun before it.
  const reading = new Map<string, Promise<MatchedProduct[]>>();
  const invalidate = () => {
    cache.invalidate();
    reading.clear();
  };
  const unsubscribe = database.changes.subscribe((table) => {
    if (CATALOG_TABLES.has(table)) invalidate();
  });
  const soldOut = batchedSoldOutReads(database);
  const matched = async (query: SearchQuery, terms: string[]) => {
    if (terms.length === 0) return matchedRows(database, query, undefined);
    return matchedRows(database, query, tsqueryOf(terms, await typoAlternatives(database, terms)));
  };
  const shared = (key: string, query: SearchQuery, terms: string[]) => {
    const under = reading.get(key);
    if (under) return under;
    const read = matched(query, terms).finally(() => {
      if (reading.get(key) === read) reading.delete(key);
    });
    reading.set(key, read);
    return read;
  };
  return {
    async search(query) {
      const terms = searchTerms(query.text);
      const key = matchKey(query, terms);
      const [products, sold] = await Promise.all([cache.get(key, () => shared(key, query, terms)), soldOut()]);
      return answerOf(products, query, sold);
    },
    invalidate,
    close: unsubscribe,
  };
}
