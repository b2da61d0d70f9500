import { asc, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import { foreignKeyViolation } from '../db/errors.js';
import { collectionProducts, collections } from '../db/schema.js';
import { DomainError, invalidField } from '../shared/errors.js';
import { placeAt } from './category-tree.js';
import { handleClash, handleTaken, withFreeHandle } from './handles.repository.js';

export type CollectionRow = typeof collections.$inferSelect;

/** A collection with its products' ids in the collection's order. */
export interface CollectionRecord extends CollectionRow {
  productIds: number[];
}

/** What an admin sets of a collection; undefined: left as it is (or the default, on creation). */
export interface CollectionFields {
  name?: string;
  /** Undefined on creation: made from the name. */
  handle?: string;
  description?: string;
  seoTitle?: string | null;
  seoDescription?: string | null;
  /** The whole list, in order: replaces the collection's products. */
  productIds?: number[];
}

const notFound = (id: number) => new DomainError('collection_not_found', { detail: `collection ${id} not found` });

/** The products of these collections in order, by collection. */
async function productsOf(db: Db | Tx, ids: number[]): Promise<Map<number, number[]>> {
  const byCollection = new Map<number, number[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return byCollection;
  const rows = await db
    .select()
    .from(collectionProducts)
    .where(inArray(collectionProducts.collectionId, ids))
    .orderBy(asc(collectionProducts.collectionId), asc(collectionProducts.position));
  for (const row of rows) byCollection.get(row.collectionId)?.push(row.productId);
  return byCollection;
}

export async function listCollections(db: Db): Promise<CollectionRecord[]> {
  const rows = await db.select().from(collections).orderBy(asc(collections.id));
  const products = await productsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({ ...row, productIds: products.get(row.id) ?? [] }));
}

export async function findCollection(db: Db | Tx, id: number): Promise<CollectionRecord> {
  const [row] = await db.select().from(collections).where(eq(collections.id, id));
  if (!row) throw notFound(id);
  return { ...row, productIds: (await productsOf(db, [id])).get(id) ?? [] };
}

/** The collection's row, locked until the transaction ends: changes to one collection's list take turns. */
async function lockCollection(tx: Tx, id: number): Promise<CollectionRow> {
  const [row] = await tx.select().from(collections).where(eq(collections.id, id)).for('update');
  if (!row) throw notFound(id);
  return row;
}

/** Writes the collection's products at positions 0, 1, 2, … in the order given. */
async function writeProducts(tx: Tx, collectionId: number, productIds: number[]): Promise<void> {
  await tx.delete(collectionProducts).where(eq(collectionProducts.collectionId, collectionId));
  if (productIds.length === 0) return;
  await tx
    .insert(collectionProducts)
    .values(productIds.map((productId, position) => ({ collectionId, productId, position })));
}

function columns(fields: CollectionFields): Partial<typeof collections.$inferInsert> {
  const values: Partial<typeof collections.$inferInsert> = {};
  if (fields.name !== undefined) values.name = fields.name;
  if (fields.handle !== undefined) values.handle = fields.handle;
  if (fields.description !== undefined) values.description = fields.description;
  if (fields.seoTitle !== undefined) values.seoTitle = fields.seoTitle;
  if (fields.seoDescription !== undefined) values.seoDescription = fields.seoDescription;
  return values;
}

/** An unknown product in the list is a 422 naming the field; the rest is thrown as it is. */
function translated(err: unknown, fields: CollectionFields, field = 'product_ids'): never {
  if (foreignKeyViolation(err)?.includes('product')) throw invalidField(field, 'names a product that does not exist');
  if (fields.handle !== undefined && handleClash(err, 'collections')) throw handleTaken('collections', fields.handle);
  throw err;
}

export async function createCollection(db: Db, fields: CollectionFields & { name: string }): Promise<CollectionRecord> {
  try {
    return await withFreeHandle(db, { kind: 'collections', given: fields.handle, name: fields.name }, (handle) =>
      db.transaction(async (tx) => {
        const [row] = await tx
          .insert(collections)
          .values({ ...columns(fields), name: fields.name, handle })
          .returning();
        if (!row) throw new Error('insert returned no collection');
        await writeProducts(tx, row.id, fields.productIds ?? []);
        return { ...row, productIds: fields.productIds ?? [] };
      }),
    );
  } catch (err) {
    return translated(err, {});
  }
}

export async function updateCollection(db: Db, id: number, fields: CollectionFields): Promise<CollectionRecord> {
  try {
    return await db.transaction(async (tx) => {
      await lockCollection(tx, id);
      await tx
        .update(collections)
        .set({ ...columns(fields), updatedAt: new Date() })
        .where(eq(collections.id, id));
      if (fields.productIds !== undefined) await writeProducts(tx, id, fields.productIds);
      return findCollection(tx, id);
    });
  } catch (err) {
    return translated(err, fields);
  }
}

export async function deleteCollection(db: Db, id: number): Promise<void> {
  const [row] = await db.delete(collections).where(eq(collections.id, id)).returning({ id: collections.id });
  if (!row) throw notFound(id);
}

/**
 * Puts a product in a collection at `position` (0 first; past the end or absent: last), or moves it there when it is
 * in already; the others keep their order.
 */
export async function placeCollectionProduct(
  db: Db,
  input: { collectionId: number; productId: number; position?: number },
): Promise<CollectionRecord> {
  try {
    return await db.transaction(async (tx) => {
      await lockCollection(tx, input.collectionId);
      const current = (await productsOf(tx, [input.collectionId])).get(input.collectionId) ?? [];
      const order = placeAt(current, input.productId, input.position ?? current.length);
      await writeProducts(tx, input.collectionId, order);
      return findCollection(tx, input.collectionId);
    });
  } catch (err) {
    return translated(err, {}, 'product_id');
  }
}

/** Takes a product out of a collection (404 product_not_found when it is not in it). */
export async function removeCollectionProduct(
  db: Db,
  input: { collectionId: number; productId: number },
): Promise<CollectionRecord> {
  return db.transaction(async (tx) => {
    await lockCollection(tx, input.collectionId);
    const current = (await productsOf(tx, [input.collectionId])).get(input.collectionId) ?? [];
    if (!current.includes(input.productId)) {
      throw new DomainError('product_not_found', {
        detail: `product ${input.productId} is not in collection ${input.collectionId}`,
      });
    }
    await writeProducts(
      tx,
      input.collectionId,
      current.filter((id) => id !== input.productId),
    );
    return findCollection(tx, input.collectionId);
  });
}
