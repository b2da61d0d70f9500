import { and, asc, desc, eq, gt, ilike, inArray, isNotNull, isNull, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import { uniqueViolation } from '../db/errors.js';
import { products, promotions, users } from '../db/schema.js';
import { pageOf } from '../http/paging.js';
import { DomainError } from '../shared/errors.js';
import { FieldErrors, productReferences } from './promotions.values.js';

export type PromotionRow = typeof promotions.$inferSelect;
/** What an admin sets; the rest (id, times_used, archived_at, timestamps) the service keeps. */
export type PromotionValues = Omit<
  typeof promotions.$inferInsert,
  'id' | 'timesUsed' | 'archivedAt' | 'createdAt' | 'updatedAt'
>;

const notFound = (id: number) => new DomainError('promotion_not_found', { detail: `promotion ${id} not found` });

async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof DomainError) throw err;
    // promotions_code_idx: codes are unique among promotions not archived.
    if (uniqueViolation(err)?.includes('code')) {
      throw new DomainError('promo_code_taken', {
        detail: 'another promotion already has this code (codes ignore case)',
        errors: [{ field: 'code', message: 'is already in use' }],
      });
    }
    throw err;
  }
}

/** The ids of `ids` that name no row of `table`. */
async function missingIds(tx: Tx, table: typeof users | typeof products, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const found = new Set(
    (
      await tx
        .select({ id: table.id })
        .from(table)
        .where(inArray(table.id, [...ids]))
    ).map((r) => r.id),
  );
  return new Set(ids.filter((id) => !found.has(id)));
}

/** Every product and user a promotion names must exist (archived products do); each one that doesn't is named. */
async function assertReferences(tx: Tx, values: Partial<PromotionValues>): Promise<void> {
  const errors = new FieldErrors();
  const customers = values.specificCustomers ?? [];
  const unknownUsers = await missingIds(tx, users, customers);
  customers.forEach((id, i) => {
    if (unknownUsers.has(id)) errors.add(`specific_customers[${i}]`, 'names no user');
  });
  const references = productReferences(values);
  const unknownProducts = await missingIds(
    tx,
    products,
    references.flatMap((r) => r.ids),
  );
  for (const { field, ids } of references) {
    ids.forEach((id, i) => {
      if (unknownProducts.has(id)) errors.add(`${field}[${i}]`, 'names no product');
    });
  }
  errors.throwIfAny();
}

export interface PromotionFilter {
  limit: number;
  /** The last id of the previous page (keyset pagination in id order). */
  after?: number;
  isActive?: boolean;
  /** Any case. */
  code?: string;
  /** true: only automatic promotions (no code); false: only codes. */
  automatic?: boolean;
  /** Name contains, ignoring case. */
  search?: string;
  /** true: only archived ones; false: the others. */
  archived: boolean;
}

export async function listPromotions(db: Db, filter: PromotionFilter) {
  const where: SQL[] = [filter.archived ? isNotNull(promotions.archivedAt) : isNull(promotions.archivedAt)];
  if (filter.after !== undefined) where.push(gt(promotions.id, filter.after));
  if (filter.isActive !== undefined) where.push(eq(promotions.isActive, filter.isActive));
  if (filter.code !== undefined) where.push(eq(promotions.code, filter.code.trim().toUpperCase()));
  if (filter.automatic !== undefined)
    where.push(filter.automatic ? isNull(promotions.code) : isNotNull(promotions.code));
  if (filter.search) where.push(ilike(promotions.name, `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
  const rows = await db
    .select()
    .from(promotions)
    .where(and(...where))
    .orderBy(asc(promotions.id))
    .limit(filter.limit + 1);
  return pageOf(rows, filter.limit, (promotion) => promotion.id);
}

/** One promotion, archived ones included. */
export async function findPromotion(db: Db, id: number): Promise<PromotionRow> {
  const [row] = await db.select().from(promotions).where(eq(promotions.id, id));
  if (!row) throw notFound(id);
  return row;
}

/** Adds a promotion inside `tx`, its references checked. */
export async function insertPromotion(tx: Tx, values: PromotionValues): Promise<PromotionRow> {
  await assertReferences(tx, values);
  const [row] = await tx.insert(promotions).values(values).returning();
  if (!row) throw new Error('insert returned no promotion');
  return row;
}

/** Adds a promotion; `before` runs first in the same transaction (the promo-codes API checks its own fields there). */
export function createPromotion(
  db: Db | Tx,
  values: PromotionValues,
  before?: (tx: Tx) => Promise<void>,
): Promise<PromotionRow> {
  return guarded(() =>
    db.transaction(async (tx) => {
      await before?.(tx);
      return insertPromotion(tx, values);
    }),
  );
}

/**
 * Changes a promotion under a row lock: `change` sees the stored promotion and returns the column values, so rules
 * that span fields (starts vs expires) are checked on what will be stored. An archived promotion no longer changes.
 */
export function updatePromotion(
  db: Db,
  id: number,
  change: (current: PromotionRow, tx: Tx) => Partial<PromotionValues> | Promise<Partial<PromotionValues>>,
): Promise<PromotionRow> {
  return guarded(() =>
    db.transaction(async (tx) => {
      const [current] = await tx.select().from(promotions).where(eq(promotions.id, id)).for('update');
      if (!current) throw notFound(id);
      if (current.archivedAt !== null) {
        throw new DomainError('promotion_archived', {
          detail:
            `promotion ${id} was archived at ${current.archivedAt.toISOString()} and cannot change; `
            + 'create a new one',
        });
      }
      const values = await change(current, tx);
      await assertReferences(tx, values);
      const [row] = await tx
        .update(promotions)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(promotions.id, id))
        .returning();
      if (!row) throw notFound(id);
      return row;
    }),
  );
}

/**
 * Archives a promotion: it stops applying for good and frees its code; its redemptions and its orders' history stay.
 * Archiving an archived promotion changes nothing. `check` sees the stored promotion first and may refuse.
 */
export function archivePromotion(db: Db, id: number, check?: (current: PromotionRow) => void): Promise<PromotionRow> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(promotions).where(eq(promotions.id, id)).for('update');
    if (!current) throw notFound(id);
    check?.(current);
    if (current.archivedAt !== null) return current;
    const now = new Date();
    const [row] = await tx
      .update(promotions)
      .set({ archivedAt: now, isActive: false, updatedAt: now })
      .where(eq(promotions.id, id))
      .returning();
    if (!row) throw notFound(id);
    return row;
  });
}

// Reads for quotes and placement (SPEC section 10, step 1). Rows are in the stored form; promotionFromRow
// (promotions.mapper.ts) gives what pricing takes.

/**
 * The automatic promotions that may apply: switched on, not archived, in priority order (higher first, then lower id).
 * Their window, limits and conditions are the rules' to check.
 */
export function activePromotionRows(db: Db | Tx): Promise<PromotionRow[]> {
  return db
    .select()
    .from(promotions)
    .where(and(isNull(promotions.code), isNull(promotions.archivedAt), eq(promotions.isActive, true)))
    .orderBy(desc(promotions.priority), asc(promotions.id));
}

/**
 * The promotion a customer's code names (any case, surrounding spaces ignored), archived ones excepted; switched off
 * ones included, so the rules can say why it cannot be used.
 */
export async function promotionRowByCode(db: Db | Tx, code: string): Promise<PromotionRow | undefined> {
  const [row] = await db
    .select()
    .from(promotions)
    .where(and(eq(promotions.code, code.trim().toUpperCase()), isNull(promotions.archivedAt)));
  return row;
}
