import { and, asc, eq, exists, getTableColumns, or, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import { foreignKeyViolation } from '../db/errors.js';
import { shippingMethods, shippingRatePrices, shippingRates } from '../db/schema.js';
import { DomainError, invalidField } from '../shared/errors.js';
import { assertTaxClass } from '../tax/tax.repository.js';
import type { ShippingRatePriceValues } from './shipping-rate-prices.values.js';
import { assertBracket } from './shipping.values.js';

export type ShippingMethodRow = typeof shippingMethods.$inferSelect;
export type ShippingMethodValues = Pick<
  typeof shippingMethods.$inferInsert,
  'name' | 'description' | 'isActive' | 'taxClassId'
>;
/** A rate with its amounts in other currencies (by currency, minor units of each; none: converted there). */
export type ShippingRateRow = typeof shippingRates.$inferSelect & { prices: ShippingRatePriceValues[] };

/**
 * A rate's amounts per currency as one column of the statement that reads the rate (no second round trip): a JSON
 * array of `[currency, base_rate, per_kg_rate]` ordered by currency, null when it has none.
 */
export const ratePricesColumn = sql<[string, number, number][] | null>`(select json_agg(json_build_array(
  ${shippingRatePrices.currency}, ${shippingRatePrices.baseRate}, ${shippingRatePrices.perKgRate})
  order by ${shippingRatePrices.currency})
  from ${shippingRatePrices} where ${shippingRatePrices.shippingRateId} = ${shippingRates.id})`;

/** The column as read. */
export function ratePricesOf(read: [string, number, number][] | null): ShippingRatePriceValues[] {
  return (read ?? []).map(([currency, baseRate, perKgRate]) => ({
    currency,
    baseRate: Number(baseRate),
    perKgRate: Number(perKgRate),
  }));
}

const rateColumns = { ...getTableColumns(shippingRates), prices: ratePricesColumn };
type RateRead = Omit<ShippingRateRow, 'prices'> & { prices: [string, number, number][] | null };
const rateOf = (read: RateRead): ShippingRateRow => ({ ...read, prices: ratePricesOf(read.prices) });

/** Column values of a rate: weights are decimal strings in kg, amounts minor units. */
export interface ShippingRateValues {
  shippingMethodId: number;
  country: string;
  state: string;
  city: string;
  weightMinKg: string;
  weightMaxKg: string | null;
  baseRate: number;
  perKgRate: number;
}

const methodNotFound = (id: number) =>
  new DomainError('shipping_method_not_found', { detail: `shipping method ${id} not found` });
const rateNotFound = (id: number) =>
  new DomainError('shipping_rate_not_found', { detail: `shipping rate ${id} not found` });
const unknownMethod = () => invalidField('shipping_method_id', 'names no shipping method');

export function listShippingMethods(db: Db): Promise<ShippingMethodRow[]> {
  return db.select().from(shippingMethods).orderBy(asc(shippingMethods.id));
}

export async function findShippingMethod(db: Db, id: number): Promise<ShippingMethodRow> {
  const [row] = await db.select().from(shippingMethods).where(eq(shippingMethods.id, id));
  if (!row) throw methodNotFound(id);
  return row;
}

export async function createShippingMethod(db: Db, values: ShippingMethodValues): Promise<ShippingMethodRow> {
  await assertTaxClass(db, values.taxClassId);
  try {
    const [row] = await db.insert(shippingMethods).values(values).returning();
    if (!row) throw new Error('insert returned no shipping method');
    return row;
  } catch (err) {
    return translateForeignKey(err);
  }
}

export async function updateShippingMethod(
  db: Db,
  id: number,
  values: Partial<ShippingMethodValues>,
): Promise<ShippingMethodRow> {
  await assertTaxClass(db, values.taxClassId);
  try {
    const [row] = await db
      .update(shippingMethods)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(shippingMethods.id, id))
      .returning();
    if (!row) throw methodNotFound(id);
    return row;
  } catch (err) {
    if (err instanceof DomainError) throw err;
    return translateForeignKey(err);
  }
}

/** Deletes the method with its rates; orders keep their snapshot (shipping_method_id becomes null). */
export async function deleteShippingMethod(db: Db, id: number): Promise<void> {
  const [row] = await db
    .delete(shippingMethods)
    .where(eq(shippingMethods.id, id))
    .returning({ id: shippingMethods.id });
  if (!row) throw methodNotFound(id);
}

/**
 * Active methods with at least one rate that can apply to the place: the rate's country is empty
 * or the given one, and its state empty or the given one (any case). Without a state, and always
 * for cities (never given here), narrower rates count: they may apply once the address is known.
 */
export function shippingMethodsFor(db: Db, place: { country: string; state: string | null }) {
  const conditions: SQL[] = [
    eq(shippingRates.shippingMethodId, shippingMethods.id),
    or(eq(shippingRates.country, ''), eq(shippingRates.country, place.country)) as SQL,
  ];
  if (place.state !== null) {
    conditions.push(or(eq(shippingRates.state, ''), sql`lower(${shippingRates.state}) = lower(${place.state})`) as SQL);
  }
  const matchingRate = db
    .select({ one: sql`1` })
    .from(shippingRates)
    .where(and(...conditions));
  return db
    .select({ id: shippingMethods.id, name: shippingMethods.name, description: shippingMethods.description })
    .from(shippingMethods)
    .where(and(eq(shippingMethods.isActive, true), exists(matchingRate)))
    .orderBy(asc(shippingMethods.id));
}

async function assertMethod(db: Db | Tx, id: number | undefined): Promise<void> {
  if (id === undefined) return;
  const [row] = await db.select({ id: shippingMethods.id }).from(shippingMethods).where(eq(shippingMethods.id, id));
  if (!row) throw unknownMethod();
}

/** A method or tax class deleted between the check and the write still answers 422, not 500. */
function translateForeignKey(err: unknown): never {
  const constraint = foreignKeyViolation(err);
  if (constraint?.includes('tax_class')) throw invalidField('tax_class_id', 'names no tax class');
  if (constraint?.includes('shipping_method')) throw unknownMethod();
  throw err;
}

export async function listShippingRates(db: Db, filter: { shippingMethodId?: number }): Promise<ShippingRateRow[]> {
  const where =
    filter.shippingMethodId === undefined ? undefined : eq(shippingRates.shippingMethodId, filter.shippingMethodId);
  const rows = await db.select(rateColumns).from(shippingRates).where(where).orderBy(asc(shippingRates.id));
  return rows.map(rateOf);
}

async function readRate(db: Db | Tx, id: number): Promise<ShippingRateRow> {
  const [row] = await db.select(rateColumns).from(shippingRates).where(eq(shippingRates.id, id));
  if (!row) throw rateNotFound(id);
  return rateOf(row);
}

export function findShippingRate(db: Db, id: number): Promise<ShippingRateRow> {
  return readRate(db, id);
}

/** Replaces a rate's amounts per currency (an empty list: every currency converted again). */
async function replaceRatePrices(tx: Tx, rateId: number, prices: readonly ShippingRatePriceValues[]): Promise<void> {
  await tx.delete(shippingRatePrices).where(eq(shippingRatePrices.shippingRateId, rateId));
  if (prices.length > 0) {
    await tx.insert(shippingRatePrices).values(prices.map((price) => ({ ...price, shippingRateId: rateId })));
  }
}

/** A rate, with its amounts per currency if given, in one transaction. */
export async function createShippingRate(
  db: Db,
  values: ShippingRateValues,
  prices: readonly ShippingRatePriceValues[] = [],
): Promise<ShippingRateRow> {
  await assertMethod(db, values.shippingMethodId);
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx.insert(shippingRates).values(values).returning({ id: shippingRates.id });
      if (!row) throw new Error('insert returned no shipping rate');
      await replaceRatePrices(tx, row.id, prices);
      return readRate(tx, row.id);
    });
  } catch (err) {
    return translateForeignKey(err);
  }
}

/**
 * Changes a rate; the bracket is checked against the stored ends the change leaves in place. `prices`, when given,
 * replaces the rate's amounts per currency whole.
 */
export async function updateShippingRate(
  db: Db,
  id: number,
  change: { values: Partial<ShippingRateValues>; prices?: readonly ShippingRatePriceValues[] | undefined },
): Promise<ShippingRateRow> {
  const { values, prices } = change;
  try {
    return await db.transaction(async (tx) => {
      const [current] = await tx.select().from(shippingRates).where(eq(shippingRates.id, id)).for('update');
      if (!current) throw rateNotFound(id);
      assertBracket(
        values.weightMinKg ?? current.weightMinKg,
        values.weightMaxKg === undefined ? current.weightMaxKg : values.weightMaxKg,
      );
      await assertMethod(tx, values.shippingMethodId);
      await tx
        .update(shippingRates)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(shippingRates.id, id));
      if (prices !== undefined) await replaceRatePrices(tx, id, prices);
      return readRate(tx, id);
    });
  } catch (err) {
    if (err instanceof DomainError) throw err;
    return translateForeignKey(err);
  }
}

export async function deleteShippingRate(db: Db, id: number): Promise<void> {
  const [row] = await db.delete(shippingRates).where(eq(shippingRates.id, id)).returning({ id: shippingRates.id });
  if (!row) throw rateNotFound(id);
}

/** The countries of the rates of active methods, each once ('' for a rate of any country). */
export async function shippingRateCountries(db: Db): Promise<string[]> {
  const rows = await db
    .selectDistinct({ country: shippingRates.country })
    .from(shippingRates)
    .innerJoin(shippingMethods, eq(shippingMethods.id, shippingRates.shippingMethodId))
    .where(eq(shippingMethods.isActive, true));
  return rows.map((r) => r.country);
}
