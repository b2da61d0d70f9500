import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import { foreignKeyViolation, pgError, uniqueViolation } from '../db/errors.js';
import {
  marketCountries,
  marketPaymentPlugins,
  markets,
  marketShippingMethods,
  productVariants,
  shippingMethods,
} from '../db/schema.js';
import { DomainError, type FieldError, invalidField } from '../shared/errors.js';
import type { MarketColumns, MarketLists } from './markets.values.js';

export type MarketRow = typeof markets.$inferSelect;

/** A market with the lists it offers. */
export interface MarketRecord {
  row: MarketRow;
  countries: string[];
  paymentPlugins: string[];
  shippingMethodIds: number[];
}

const notFound = (id: number) => new DomainError('market_not_found', { detail: `market ${id} not found` });

/** Every market with its lists, the default first (it is the oldest), then in the order they were made. */
export async function listMarkets(db: Db): Promise<MarketRecord[]> {
  const [rows, countries, plugins, methods] = await Promise.all([
    db.select().from(markets).orderBy(asc(markets.id)),
    db.select().from(marketCountries).orderBy(asc(marketCountries.country)),
    db.select().from(marketPaymentPlugins).orderBy(asc(marketPaymentPlugins.pluginId)),
    db.select().from(marketShippingMethods).orderBy(asc(marketShippingMethods.shippingMethodId)),
  ]);
  return rows.map((row) => ({
    row,
    countries: countries.filter((c) => c.marketId === row.id).map((c) => c.country),
    paymentPlugins: plugins.filter((p) => p.marketId === row.id).map((p) => p.pluginId),
    shippingMethodIds: methods.filter((m) => m.marketId === row.id).map((m) => m.shippingMethodId),
  }));
}

async function recordOf(db: Db | Tx, row: MarketRow): Promise<MarketRecord> {
  // One after the other: inside a market write's transaction, one connection answers one query at a time.
  const countries = await db
    .select()
    .from(marketCountries)
    .where(eq(marketCountries.marketId, row.id))
    .orderBy(asc(marketCountries.country));
  const plugins = await db
    .select()
    .from(marketPaymentPlugins)
    .where(eq(marketPaymentPlugins.marketId, row.id))
    .orderBy(asc(marketPaymentPlugins.pluginId));
  const methods = await db
    .select()
    .from(marketShippingMethods)
    .where(eq(marketShippingMethods.marketId, row.id))
    .orderBy(asc(marketShippingMethods.shippingMethodId));
  return {
    row,
    countries: countries.map((c) => c.country),
    paymentPlugins: plugins.map((p) => p.pluginId),
    shippingMethodIds: methods.map((m) => m.shippingMethodId),
  };
}

export async function findMarketRow(db: Db | Tx, id: number): Promise<MarketRow> {
  const [row] = await db.select().from(markets).where(eq(markets.id, id));
  if (!row) throw notFound(id);
  return row;
}

export async function findMarket(db: Db, id: number): Promise<MarketRecord> {
  return recordOf(db, await findMarketRow(db, id));
}

/** The store's largest price or compare-at price, minor units of the store currency (0 without variants). */
export async function largestStorePrice(db: Db): Promise<number> {
  const [row] = await db
    .select({
      largest: sql<
        string | null
      >`max(greatest(${productVariants.price}, coalesce(${productVariants.compareAtPrice}, 0)))`,
    })
    .from(productVariants);
  return Number(row?.largest ?? 0);
}

/** A 409 naming each listed country that another market has, and that market. */
async function assertCountriesFree(tx: Tx, countries: string[], marketId: number | null): Promise<void> {
  if (countries.length === 0) return;
  const taken = await tx
    .select({ country: marketCountries.country, code: markets.code })
    .from(marketCountries)
    .innerJoin(markets, eq(markets.id, marketCountries.marketId))
    .where(
      and(
        inArray(marketCountries.country, countries),
        marketId === null ? undefined : ne(marketCountries.marketId, marketId),
      ),
    );
  if (taken.length === 0) return;
  const marketOf = new Map(taken.map((t) => [t.country, t.code]));
  const errors: FieldError[] = [];
  countries.forEach((country, i) => {
    const code = marketOf.get(country);
    if (code !== undefined) errors.push({ field: `countries[${i}]`, message: `${country} is in market "${code}"` });
  });
  const detail = errors.map((e) => e.message).join('; ');
  throw new DomainError('country_in_another_market', { detail, errors });
}

async function assertShippingMethods(tx: Tx, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const found = await tx
    .select({ id: shippingMethods.id })
    .from(shippingMethods)
    .where(inArray(shippingMethods.id, ids));
  const known = new Set(found.map((row) => row.id));
  const missing = ids.findIndex((id) => !known.has(id));
  if (missing >= 0) throw invalidField(`shipping_method_ids[${missing}]`, 'names no shipping method');
}

/** Replaces the lists that are given; the ones absent stay as they are. */
async function writeLists(tx: Tx, marketId: number, lists: MarketLists): Promise<void> {
  if (lists.countries) {
    await assertCountriesFree(tx, lists.countries, marketId);
    await tx.delete(marketCountries).where(eq(marketCountries.marketId, marketId));
    if (lists.countries.length > 0) {
      await tx.insert(marketCountries).values(lists.countries.map((country) => ({ country, marketId })));
    }
  }
  if (lists.paymentPlugins) {
    await tx.delete(marketPaymentPlugins).where(eq(marketPaymentPlugins.marketId, marketId));
    if (lists.paymentPlugins.length > 0) {
      await tx.insert(marketPaymentPlugins).values(lists.paymentPlugins.map((pluginId) => ({ marketId, pluginId })));
    }
  }
  if (lists.shippingMethodIds) {
    await assertShippingMethods(tx, lists.shippingMethodIds);
    await tx.delete(marketShippingMethods).where(eq(marketShippingMethods.marketId, marketId));
    if (lists.shippingMethodIds.length > 0) {
      const rows = lists.shippingMethodIds.map((shippingMethodId) => ({ marketId, shippingMethodId }));
      await tx.insert(marketShippingMethods).values(rows);
    }
  }
}

/** Unique and foreign-key violations of a race between the checks and the writes, as the checks would answer. */
function translateViolation(err: unknown): never {
  const unique = uniqueViolation(err);
  if (unique?.includes('markets_code'))
    throw new DomainError('market_code_taken', { detail: 'a market has that code' });
  if (unique?.includes('market_countries')) {
    throw new DomainError('country_in_another_market', { detail: 'a country listed belongs to another market' });
  }
  if (foreignKeyViolation(err)?.includes('shipping_method')) {
    throw invalidField('shipping_method_ids', 'names a shipping method that was deleted');
  }
  throw err;
}

export async function createMarket(
  db: Db,
  input: { columns: MarketColumns; lists: MarketLists },
): Promise<MarketRecord> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx.insert(markets).values(input.columns).returning();
      if (!row) throw new Error('insert returned no market');
      await writeLists(tx, row.id, input.lists);
      return recordOf(tx, row);
    });
  } catch (err) {
    if (err instanceof DomainError) throw err;
    return translateViolation(err);
  }
}

export async function updateMarket(
  db: Db,
  id: number,
  input: { columns: Partial<MarketColumns>; lists: MarketLists },
): Promise<MarketRecord> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .update(markets)
        .set({ ...input.columns, updatedAt: new Date() })
        .where(eq(markets.id, id))
        .returning();
      if (!row) throw notFound(id);
      await writeLists(tx, id, input.lists);
      return recordOf(tx, row);
    });
  } catch (err) {
    if (err instanceof DomainError) throw err;
    return translateViolation(err);
  }
}

/**
 * Deletes a market and its lists. The default market stays (409), and so does a market with orders (409, by the
 * `restrict` foreign key of orders.market_id, migration 0028).
 */
export async function deleteMarket(db: Db, id: number): Promise<void> {
  const row = await findMarketRow(db, id);
  if (row.isDefault) {
    throw new DomainError('default_market_required', {
      detail: 'the default market is the store itself and cannot be deleted',
    });
  }
  try {
    await db.delete(markets).where(and(eq(markets.id, id), eq(markets.isDefault, false)));
  } catch (err) {
    // ON DELETE RESTRICT answers 23001 (restrict_violation), NO ACTION 23503: either means orders name it.
    const pg = pgError(err);
    if (!(pg?.code === '23001' || pg?.code === '23503') || !pg.constraint?.includes('orders')) throw err;
    throw new DomainError('market_has_orders', {
      detail: `market "${row.code}" has orders; it keeps them (rename it, or take its countries away, instead)`,
    });
  }
}
