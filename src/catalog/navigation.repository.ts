import { and, asc, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { categories, collectionProducts, collections, productCategories, products } from '../db/schema.js';
import { pageOf } from '../http/paging.js';

// The storefront's reads of categories and collections: what src/catalog/storefront-catalog.ts keeps in memory.

/** A category as the storefront shows it. */
export interface CatalogCategory {
  id: number;
  parentId: number | null;
  position: number;
  name: string;
  handle: string;
  description: string;
  seoTitle: string | null;
  seoDescription: string | null;
}

/** A collection as the storefront shows it (its products are read page by page). */
export type CatalogCollection = Omit<CatalogCategory, 'parentId' | 'position'>;

const shownCategory = {
  id: categories.id,
  parentId: categories.parentId,
  position: categories.position,
  name: categories.name,
  handle: categories.handle,
  description: categories.description,
  seoTitle: categories.seoTitle,
  seoDescription: categories.seoDescription,
};

const shownCollection = {
  id: collections.id,
  name: collections.name,
  handle: collections.handle,
  description: collections.description,
  seoTitle: collections.seoTitle,
  seoDescription: collections.seoDescription,
};

/** Every category (a store has tens or hundreds: the storefront keeps them all). */
export async function storefrontCategories(db: Db): Promise<CatalogCategory[]> {
  return db.select(shownCategory).from(categories);
}

/**
 * Ids of a page of active products in any of these categories, in id order after a cursor (a product in two of them
 * once). The caller passes a category and its subcategories.
 */
export async function categoryPageIds(db: Db, query: { categoryIds: number[]; limit: number; after: number }) {
  const rows = await db
    .selectDistinct({ id: products.id })
    .from(productCategories)
    .innerJoin(products, eq(products.id, productCategories.productId))
    .where(
      and(
        inArray(productCategories.categoryId, query.categoryIds),
        isNull(products.archivedAt),
        gt(products.id, query.after),
      ),
    )
    .orderBy(asc(products.id))
    .limit(query.limit + 1);
  const page = pageOf(rows, query.limit, (p) => p.id);
  return { ids: page.items.map((p) => p.id), next: page.next };
}

export async function storefrontCollections(db: Db): Promise<CatalogCollection[]> {
  return db.select(shownCollection).from(collections).orderBy(asc(collections.id));
}

export async function collectionByHandle(db: Db, handle: string): Promise<CatalogCollection | null> {
  const [row] = await db.select(shownCollection).from(collections).where(eq(collections.handle, handle));
  return row ?? null;
}

/**
 * Ids of a page of a collection's active products in the collection's order, after a position (the cursor is the
 * position of the last product of the page before; -1 for the first page).
 */
export async function collectionPageIds(db: Db, query: { collectionId: number; limit: number; after: number }) {
  const rows = await db
    .select({ id: collectionProducts.productId, position: collectionProducts.position })
    .from(collectionProducts)
    .innerJoin(products, eq(products.id, collectionProducts.productId))
    .where(
      and(
        eq(collectionProducts.collectionId, query.collectionId),
        isNull(products.archivedAt),
        gt(collectionProducts.position, query.after),
      ),
    )
    .orderBy(asc(collectionProducts.position))
    .limit(query.limit + 1);
  const page = pageOf(rows, query.limit, (p) => p.position);
  return { ids: page.items.map((p) => p.id), next: page.next };
}
