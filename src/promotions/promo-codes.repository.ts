import { asc, eq, gt, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import { uniqueViolation } from '../db/errors.js';
import { products, promoCodes, users } from '../db/schema.js';
import { DomainError, type FieldError } from '../shared/errors.js';

export type PromoCodeRow = typeof promoCodes.$inferSelect;
export type PromoCodeValues = Omit<typeof promoCodes.$inferInsert, 'id' | 'timesUsed' | 'createdAt' | 'updatedAt'>;

const notFound = (id: number) => new DomainError('promo_code_not_found', { detail: `promo code ${id} not found` });

async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof DomainError) throw err;
    if (uniqueViolation(err)?.includes('code')) {
      throw new DomainError('promo_code_taken', {
        detail: 'another promo code is already written this way (codes ignore case)',
        errors: [{ field: 'code', message: 'is already in use' }],
      });
    }
    throw err;
  }
}

/** Every listed user and product must exist; each one that doesn't is named by its position. */
async function assertReferences(tx: Tx, values: Partial<PromoCodeValues>): Promise<void> {
  const errors: FieldError[] = [];
  const check = async ({
    field,
    ids,
    table,
    noun,
  }: {
    field: string;
    ids: number[] | null | undefined;
    table: typeof users | typeof products;
    noun: string;
  }) => {
    if (!ids || ids.length === 0) return;
    const found = new Set(
      (await tx.select({ id: table.id }).from(table).where(inArray(table.id, ids))).map((r) => r.id),
    );
    ids.forEach((id, i) => {
      if (!found.has(id)) errors.push({ field: `${field}[${i}]`, message: `names no ${noun}` });
    });
  };
  await check({ field: 'specific_customers', ids: values.specificCustomers, table: users, noun: 'user' });
  await check({ field: 'applicable_products', ids: values.applicableProducts, table: products, noun: 'product' });
  if (errors.length > 0) {
    throw new DomainError('validation_error', {
      detail: errors.map((e) => `${e.field} ${e.message}`).join('; '),
      errors,
    });
  }
}

/** A page of codes in id order; `after` is the last id of the previous page (keyset pagination). */
export async function listPromoCodes(db: Db, query: { limit: number; after?: number }) {
  const rows = await db
    .select()
    .from(promoCodes)
    .where(query.after === undefined ? undefined : gt(promoCodes.id, query.after))
    .orderBy(asc(promoCodes.id))
    .limit(query.limit + 1);
  const items = rows.slice(0, query.limit);
  const last = items.at(-1);
  return { items, nextAfter: rows.length > query.limit && last ? last.id : null };
}

export async function findPromoCode(db: Db, id: number): Promise<PromoCodeRow> {
  const [row] = await db.select().from(promoCodes).where(eq(promoCodes.id, id));
  if (!row) throw notFound(id);
  return row;
}

export function createPromoCode(db: Db, values: PromoCodeValues): Promise<PromoCodeRow> {
  return guarded(() =>
    db.transaction(async (tx) => {
      await assertReferences(tx, values);
      const [row] = await tx.insert(promoCodes).values(values).returning();
      if (!row) throw new Error('insert returned no promo code');
      return row;
    }),
  );
}

/**
 * Changes a code under a row lock: `change` sees the stored code and returns the column values,
 * so rules that span fields (value vs type, starts vs expires) are checked on what will be stored.
 */
export function updatePromoCode(
  db: Db,
  id: number,
  change: (current: PromoCodeRow) => Partial<PromoCodeValues>,
): Promise<PromoCodeRow> {
  return guarded(() =>
    db.transaction(async (tx) => {
      const [current] = await tx.select().from(promoCodes).where(eq(promoCodes.id, id)).for('update');
      if (!current) throw notFound(id);
      const values = change(current);
      await assertReferences(tx, values);
      const [row] = await tx
        .update(promoCodes)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(promoCodes.id, id))
        .returning();
      if (!row) throw notFound(id);
      return row;
    }),
  );
}

/** Hard delete: its redemption records go too; orders keep the code's text (promo_code_id null). */
export async function deletePromoCode(db: Db, id: number): Promise<void> {
  const [row] = await db.delete(promoCodes).where(eq(promoCodes.id, id)).returning({ id: promoCodes.id });
  if (!row) throw notFound(id);
}
