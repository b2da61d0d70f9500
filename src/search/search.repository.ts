import { createHash } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client.js';
import { storeAmountAtLeast } from './search.values.js';
import {
  MIN_TYPO_LENGTH,
  NAME_SIMILARITY_WEIGHT,
  NO_UPPER_BOUND,
  OPTIONS_NOT_FACETED,
  RANK_SCALE,
  searchTerms,
  TYPO_ALTERNATIVES,
  TYPO_SIMILARITY,
  tsqueryOf,
} from './search.values.js';
import type { ProductSearch, SearchAnswer, SearchQuery } from './product-search.js';

// Search on PostgreSQL (and PGlite): the documents and words of migration 0030, read in two statements per search
// (the typo lookup when there is text, then hits and facets together). Decision 0034 says why it is built so.

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

interface FacetRow {
  kind: 'hit' | 'total' | 'category' | 'price' | 'in_stock' | 'all' | 'option';
  key: number;
  n: string | number;
  name: string | null;
  value: string | null;
}

async function searchOnce(database: Database, query: SearchQuery, tsquery: string | undefined): Promise<SearchAnswer> {
  const { bucket, inRange } = priceConditions(query);
  const options = optionConditions(query);
  const members: number[] = [];
  const facets: number[] = [];
  for (const [category, counted] of query.categoryAncestry) {
    for (const facet of counted) {
      members.push(category);
      facets.push(facet);
    }
  }
  const inStock = query.inStock ? sql`f.in_stock` : sql`true`;
  const after =
    query.after === undefined
      ? sql``
      : sql`and (rank < ${query.after.rank}::int8
          or (rank = ${query.after.rank}::int8 and id > ${query.after.id}::int))`;
  const rows = await run<FacetRow>(
    database,
    sql`
      with matched as (${matchedProducts(query, tsquery)}),
      facts as (
        select m.id, m.rank, m.in_stock, v.p_ok, v.buckets, m.category_ids as categories, m.option_names,
          m.option_values, ${options.tests} as option_tests
        from matched m
        cross join lateral (
          select ${inRange} as p_ok, array_agg(distinct ${bucket}) as buckets from (${pricesOf(query)}) v
        ) v
        where cardinality(m.prices) > 0
      ),
      f as (
        select f.*, ${inStock} as s_ok, not (false = any(f.option_tests)) as o_ok from facts f
      ),
      ancestry as (select * from unnest(${array(members)}::int[], ${array(facets)}::int[]) as x(member, facet))
      select 'hit' as kind, id as key, rank as n, null::text as name, null::text as value from (
        select id, rank from f where p_ok and s_ok and o_ok ${after}
        order by rank desc, id limit ${query.limit + 1}::int
      ) h
      union all select 'total', 0, count(*), null, null from f where p_ok and s_ok and o_ok
      union all select 'category', x.facet, count(distinct f.id), null, null
        from f cross join unnest(f.categories) as c(id)
        join ancestry x on x.member = c.id where p_ok and s_ok and o_ok group by x.facet
      union all select 'price', b.bucket, count(*), null, null
        from f cross join unnest(f.buckets) as b(bucket) where s_ok and o_ok group by b.bucket
      union all select 'in_stock', 0, count(*), null, null from f where p_ok and in_stock and o_ok
      union all select 'all', 0, count(*), null, null from f where p_ok and o_ok
      -- An option's values are counted with every other option's filter (a product failing only this option's).
      union all select 'option', 0, count(*), min(min(o.name)) over (partition by lower(o.name)), min(o.value)
        from f cross join unnest(f.option_names, f.option_values) as o(name, value)
        where p_ok and s_ok and lower(o.name) <> all(${array(OPTIONS_NOT_FACETED)}::text[])
          and not exists (select 1 from unnest(f.option_tests, ${array(options.names)}::text[]) as t(ok, name)
            where not t.ok and lower(t.name) <> lower(o.name))
        group by lower(o.name), lower(o.value)`,
  );
  return answerOf(rows, query.limit);
}

function answerOf(rows: FacetRow[], limit: number): SearchAnswer {
  const hits: { id: number; rank: number }[] = [];
  const categories = new Map<number, number>();
  const prices = new Map<number, number>();
  const options = new Map<string, Map<string, number>>();
  const counts = { total: 0, inStock: 0, all: 0 };
  for (const row of rows) {
    const n = Number(row.n);
    if (row.kind === 'hit') hits.push({ id: row.key, rank: n });
    else if (row.kind === 'category') categories.set(row.key, n);
    // width_bucket counts from 1: the range that starts at bound 0 is bucket 1.
    else if (row.kind === 'price') prices.set(row.key - 1, n);
    else if (row.kind === 'option' && row.name !== null && row.value !== null) {
      const values = options.get(row.name) ?? new Map<string, number>();
      options.set(row.name, values.set(row.value, n));
    } else if (row.kind === 'total') counts.total = n;
    else if (row.kind === 'in_stock') counts.inStock = n;
    else counts.all = n;
  }
  hits.sort((a, b) => b.rank - a.rank || a.id - b.id);
  const page = hits.slice(0, limit);
  const last = page.at(-1);
  return {
    productIds: page.map((h) => h.id),
    next: hits.length > limit && last ? last : null,
    total: counts.total,
    facets: { categories, prices, options, availability: { inStock: counts.inStock, all: counts.all } },
  };
}

/** Search on the service's own database: PostgreSQL, or PGlite with pg_trgm. */
export function postgresProductSearch(database: Database): ProductSearch {
  return {
    async search(query) {
      const terms = searchTerms(query.text);
      if (terms.length === 0) return searchOnce(database, query, undefined);
      return searchOnce(database, query, tsqueryOf(terms, await typoAlternatives(database, terms)));
    },
  };
}
