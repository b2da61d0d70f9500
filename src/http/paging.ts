import { type TSchema, Type } from 'typebox';
import { Cursor } from './schemas.js';

// Keyset paging, the one way every list pages (products, orders, events, webhook deliveries, promotions, promo codes):
// a query's `limit` and `cursor`, an answer's `items` and `next_cursor`, and a page cut from `limit + 1` rows read in
// key order after (or before) the cursor.

/** How many items a page holds: 1 to 100, 20 unless asked. */
export const PageLimit = Type.Integer({ minimum: 1, maximum: 100, default: 20 });

/** A list's query: `limit`, and `cursor`, the `next_cursor` of the previous page (a row id). */
export const PageQuery = Type.Object({ limit: PageLimit, cursor: Type.Optional(Cursor) });

/** A list's answer: the page's items, and the cursor of the page after it (null on the last page). */
export const Page = <T extends TSchema>(item: T) =>
  Type.Object({ items: Type.Array(item), next_cursor: Type.Union([Type.String(), Type.Null()]) });

/** A page of rows, and the key of its last row when another page follows (the next page's cursor). */
export interface KeysetPage<R, K> {
  items: R[];
  next: K | null;
}

/** The page of `rows`, read with `limit + 1`: the one more row tells whether another page follows. */
export function pageOf<R, K>(rows: readonly R[], limit: number, keyOf: (row: R) => K): KeysetPage<R, K> {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, next: rows.length > limit && last !== undefined ? keyOf(last) : null };
}

/** `next_cursor` as lists answer it: the key as text, null on the last page. */
export const nextCursor = (key: number | string | null): string | null => (key === null ? null : String(key));
