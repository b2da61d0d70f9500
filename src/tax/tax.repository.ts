import { and, asc, eq, isNull, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import { foreignKeyViolation, uniqueViolation } from '../db/errors.js';
import { taxClasses, taxRates } from '../db/schema.js';
import { DomainError, invalidField } from '../shared/errors.js';

export type TaxClassRow = typeof taxClasses.$inferSelect;
export type TaxRateRow = typeof taxRates.$inferSelect;
export type TaxRateValues = Pick<
  typeof taxRates.$inferInsert,
  'taxClassId' | 'country' | 'state' | 'rate' | 'isActive'
>;

const classNotFound = (id: number) => new DomainError('tax_class_not_found', { detail: `tax class ${id} not found` });
const rateNotFound = (id: number) => new DomainError('tax_rate_not_found', { detail: `tax rate ${id} not found` });

/** Unique and foreign-key violations as the 409 and 422 answers of this domain. */
function translateConstraintError(err: unknown): never {
  const unique = uniqueViolation(err);
  if (unique?.includes('tax_classes')) {
    throw new DomainError('tax_class_taken', {
      detail: 'another tax class already has this name',
      errors: [{ field: 'name', message: 'is already in use' }],
    });
  }
  if (unique?.includes('tax_rates_default')) {
    const detail = 'a default rate (no tax class) already exists for this country and state';
    throw new DomainError('tax_rate_exists', { detail });
  }
  if (unique?.includes('tax_rates')) {
    throw new DomainError('tax_rate_exists', {
      detail: 'this tax class already has a rate for this country and state',
    });
  }
  if (foreignKeyViolation(err)?.includes('tax_class')) throw invalidField('tax_class_id', 'names no tax class');
  throw err;
}

async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof DomainError) throw err;
    return translateConstraintError(err);
  }
}

export function listTaxClasses(db: Db): Promise<TaxClassRow[]> {
  return db.select().from(taxClasses).orderBy(asc(taxClasses.id));
}

export async function findTaxClass(db: Db, id: number): Promise<TaxClassRow> {
  const [row] = await db.select().from(taxClasses).where(eq(taxClasses.id, id));
  if (!row) throw classNotFound(id);
  return row;
}

export function createTaxClass(db: Db, name: string): Promise<TaxClassRow> {
  return guarded(async () => {
    const [row] = await db.insert(taxClasses).values({ name }).returning();
    if (!row) throw new Error('insert returned no tax class');
    return row;
  });
}

export function renameTaxClass(db: Db, id: number, name: string | undefined): Promise<TaxClassRow> {
  return guarded(async () => {
    const [row] = await db
      .update(taxClasses)
      .set({ updatedAt: new Date(), ...(name === undefined ? {} : { name }) })
      .where(eq(taxClasses.id, id))
      .returning();
    if (!row) throw classNotFound(id);
    return row;
  });
}

/**
 * Deletes the class with its rates; its products become untaxed and its shipping methods are taxed
 * as if they named no class (tax_class_id null, by the foreign keys).
 */
export async function deleteTaxClass(db: Db, id: number): Promise<void> {
  const [row] = await db.delete(taxClasses).where(eq(taxClasses.id, id)).returning({ id: taxClasses.id });
  if (!row) throw classNotFound(id);
}

/** A tax class that must exist for a write to refer to it; null (a default rate, or no class) and absent need none. */
export async function assertTaxClass(db: Db | Tx, id: number | null | undefined): Promise<void> {
  if (id === undefined || id === null) return;
  const [row] = await db.select({ id: taxClasses.id }).from(taxClasses).where(eq(taxClasses.id, id));
  if (!row) throw invalidField('tax_class_id', 'names no tax class');
}

/** Rates in id order; `taxClassId` null lists the default rates. */
export function listTaxRates(db: Db, filter: { taxClassId?: number | null; country?: string }): Promise<TaxRateRow[]> {
  const conditions: SQL[] = [];
  if (filter.taxClassId === null) conditions.push(isNull(taxRates.taxClassId));
  else if (filter.taxClassId !== undefined) conditions.push(eq(taxRates.taxClassId, filter.taxClassId));
  if (filter.country !== undefined) conditions.push(eq(taxRates.country, filter.country));
  return db
    .select()
    .from(taxRates)
    .where(and(...conditions))
    .orderBy(asc(taxRates.id));
}

export async function findTaxRate(db: Db, id: number): Promise<TaxRateRow> {
  const [row] = await db.select().from(taxRates).where(eq(taxRates.id, id));
  if (!row) throw rateNotFound(id);
  return row;
}

export function createTaxRate(db: Db, values: TaxRateValues): Promise<TaxRateRow> {
  return guarded(async () => {
    await assertTaxClass(db, values.taxClassId);
    const [row] = await db.insert(taxRates).values(values).returning();
    if (!row) throw new Error('insert returned no tax rate');
    return row;
  });
}

export function updateTaxRate(db: Db, id: number, values: Partial<TaxRateValues>): Promise<TaxRateRow> {
  return guarded(async () => {
    const [exists] = await db.select({ id: taxRates.id }).from(taxRates).where(eq(taxRates.id, id));
    if (!exists) throw rateNotFound(id);
    await assertTaxClass(db, values.taxClassId);
    const [row] = await db
      .update(taxRates)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(taxRates.id, id))
      .returning();
    if (!row) throw rateNotFound(id);
    return row;
  });
}

export async function deleteTaxRate(db: Db, id: number): Promise<void> {
  const [row] = await db.delete(taxRates).where(eq(taxRates.id, id)).returning({ id: taxRates.id });
  if (!row) throw rateNotFound(id);
}
