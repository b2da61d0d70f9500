import { asc, eq, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import { categories } from '../db/schema.js';
import { DomainError, invalidField } from '../shared/errors.js';
import { ancestorIds, bySiblingOrder, parentIndex, placeAt, wouldCreateCycle } from './category-tree.js';
import { handleClash, handleTaken, withFreeHandle } from './handles.repository.js';

export type CategoryRow = typeof categories.$inferSelect;

/** What an admin sets of a category; undefined: left as it is (or the default, on creation). */
export interface CategoryFields {
  name?: string;
  /** Undefined on creation: made from the name. */
  handle?: string;
  description?: string;
  seoTitle?: string | null;
  seoDescription?: string | null;
  /** Null: a top-level category. */
  parentId?: number | null;
  /** Its place among its siblings, 0 first; past the end: last. */
  position?: number;
}

/**
 * Every category write holds this lock until it commits: two moves checked at once could each be fine alone and make a
 * cycle together (A under B, B under A). Category writes are rare; taking turns costs nothing.
 */
const CATEGORY_TREE_LOCK = 7236184629;

const notFound = (id: number) => new DomainError('category_not_found', { detail: `category ${id} not found` });

/** Every category, each parent's children in sibling order. */
export async function listCategories(db: Db | Tx): Promise<CategoryRow[]> {
  const rows = await db.select().from(categories).orderBy(asc(categories.position), asc(categories.id));
  return rows.sort(bySiblingOrder);
}

export async function findCategory(db: Db | Tx, id: number): Promise<CategoryRow> {
  const [row] = await db.select().from(categories).where(eq(categories.id, id));
  if (!row) throw notFound(id);
  return row;
}

/** The ids of a parent's children in sibling order. */
async function siblingIds(tx: Tx, parentId: number | null): Promise<number[]> {
  const rows = await tx
    .select({ id: categories.id, parentId: categories.parentId, position: categories.position })
    .from(categories)
    .where(parentId === null ? isNull(categories.parentId) : eq(categories.parentId, parentId));
  return rows.sort(bySiblingOrder).map((r) => r.id);
}

/** Gives siblings positions 0, 1, 2, … in the order given (only the rows whose position changes are written). */
async function renumber(tx: Tx, parentId: number | null, order: number[]): Promise<void> {
  const rows = await tx
    .select({ id: categories.id, position: categories.position })
    .from(categories)
    .where(parentId === null ? isNull(categories.parentId) : eq(categories.parentId, parentId));
  const current = new Map(rows.map((r) => [r.id, r.position]));
  for (const [position, id] of order.entries()) {
    if (current.get(id) !== position) await tx.update(categories).set({ position }).where(eq(categories.id, id));
  }
}

/** Refuses a parent that does not exist (422) or that would put the category under itself (422 category_cycle). */
async function assertParent(tx: Tx, id: number | null, parentId: number | null): Promise<void> {
  if (parentId === null) return;
  const links = await tx.select({ id: categories.id, parentId: categories.parentId }).from(categories);
  const parents = parentIndex(links);
  if (!parents.has(parentId)) throw invalidField('parent_id', 'names no category');
  if (id !== null && wouldCreateCycle(parents, id, parentId)) {
    throw new DomainError('category_cycle', {
      detail: `category ${parentId} is category ${id} or one of its subcategories: a category cannot be under itself`,
      errors: [{ field: 'parent_id', message: 'is the category itself or one of its subcategories' }],
      extra: { path: [...ancestorIds(parents, parentId), parentId] },
    });
  }
}

const lockTree = (tx: Tx) => tx.execute(sql`select pg_advisory_xact_lock(${CATEGORY_TREE_LOCK})`);

function columns(fields: CategoryFields): Partial<typeof categories.$inferInsert> {
  const values: Partial<typeof categories.$inferInsert> = {};
  if (fields.name !== undefined) values.name = fields.name;
  if (fields.handle !== undefined) values.handle = fields.handle;
  if (fields.description !== undefined) values.description = fields.description;
  if (fields.seoTitle !== undefined) values.seoTitle = fields.seoTitle;
  if (fields.seoDescription !== undefined) values.seoDescription = fields.seoDescription;
  if (fields.parentId !== undefined) values.parentId = fields.parentId;
  return values;
}

export async function createCategory(db: Db, fields: CategoryFields & { name: string }): Promise<CategoryRow> {
  const parentId = fields.parentId ?? null;
  return withFreeHandle(db, { kind: 'categories', given: fields.handle, name: fields.name }, (handle) =>
    db.transaction(async (tx) => {
      await lockTree(tx);
      await assertParent(tx, null, parentId);
      const before = await siblingIds(tx, parentId);
      const [row] = await tx
        .insert(categories)
        .values({ ...columns(fields), name: fields.name, handle, parentId, position: before.length })
        .returning();
      if (!row) throw new Error('insert returned no category');
      if (fields.position === undefined || fields.position >= before.length) return row;
      await renumber(tx, parentId, placeAt(before, row.id, fields.position));
      return findCategory(tx, row.id);
    }),
  );
}

/** Changes a category; a new parent or position moves it, and its old and new siblings are numbered again. */
export async function updateCategory(db: Db, id: number, fields: CategoryFields): Promise<CategoryRow> {
  try {
    return await db.transaction(async (tx) => {
      await lockTree(tx);
      const stored = await findCategory(tx, id);
      const parentId = fields.parentId === undefined ? stored.parentId : fields.parentId;
      const moved = parentId !== stored.parentId;
      if (moved) await assertParent(tx, id, parentId);
      await tx
        .update(categories)
        .set({ ...columns(fields), updatedAt: new Date() })
        .where(eq(categories.id, id));
      if (moved || fields.position !== undefined) {
        const siblings = await siblingIds(tx, parentId);
        const position = fields.position ?? (moved ? siblings.length : siblings.indexOf(id));
        await renumber(tx, parentId, placeAt(siblings, id, position));
        if (moved) await renumber(tx, stored.parentId, await siblingIds(tx, stored.parentId));
      }
      return findCategory(tx, id);
    });
  } catch (err) {
    if (fields.handle !== undefined && handleClash(err, 'categories')) throw handleTaken('categories', fields.handle);
    throw err;
  }
}

/**
 * Deletes a category that has no subcategories (409 category_has_children otherwise: move or delete them first); its
 * products stay, out of it.
 */
export async function deleteCategory(db: Db, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    await lockTree(tx);
    const stored = await findCategory(tx, id);
    const children = await siblingIds(tx, id);
    if (children.length > 0) {
      throw new DomainError('category_has_children', {
        detail: `category ${id} has ${children.length} subcategories: move or delete them first`,
        extra: { children },
      });
    }
    await tx.delete(categories).where(eq(categories.id, id));
    await renumber(tx, stored.parentId, await siblingIds(tx, stored.parentId));
  });
}
