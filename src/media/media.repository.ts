import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import { type LineImageRow, productMedia, productMediaVariants, products, productVariants } from '../db/schema.js';
import { DomainError, invalidField } from '../shared/errors.js';
import { placeAt } from '../shared/positions.js';

export type MediaRow = typeof productMedia.$inferSelect;
/** An image with the variants it shows (their ids, ascending). */
export interface ProductImage extends MediaRow {
  variantIds: number[];
}

/**
 * A column for a select from `product_variants`: the image a line of the variant shows, as `[key, alt, width,
 * height]`: the first of the variant's own images, else its product's first (null when the product has none). One
 * index scan of the product's images; `lineImageOf` reads it.
 */
export const variantImageColumn = sql<[string, string, number, number] | null>`(select json_build_array(
  ${productMedia.storageKey}, ${productMedia.alt}, ${productMedia.width}, ${productMedia.height})
  from ${productMedia} where ${productMedia.productId} = ${productVariants.productId}
  order by exists (select 1 from ${productMediaVariants} where ${productMediaVariants.mediaId} = ${productMedia.id}
    and ${productMediaVariants.variantId} = ${productVariants.id}) desc, ${productMedia.position}, ${productMedia.id}
  limit 1)`;

/** `variantImageColumn` as read. */
export function lineImageOf(read: [string, string, number, number] | null): LineImageRow | null {
  if (read === null) return null;
  const [key, alt, width, height] = read;
  return { key, alt, width: Number(width), height: Number(height) };
}

const mediaNotFound = (id: number) => new DomainError('media_not_found', { detail: `image ${id} not found` });

/** The images of these products in their order, by product (two statements for any number of products). */
export async function imagesOf(db: Db | Tx, productIds: number[]): Promise<Map<number, ProductImage[]>> {
  const byProduct = new Map<number, ProductImage[]>(productIds.map((id) => [id, []]));
  if (productIds.length === 0) return byProduct;
  const rows = await db
    .select()
    .from(productMedia)
    .where(inArray(productMedia.productId, productIds))
    .orderBy(asc(productMedia.productId), asc(productMedia.position), asc(productMedia.id));
  if (rows.length === 0) return byProduct;
  const byId = new Map<number, ProductImage>();
  for (const row of rows) {
    const image = { ...row, variantIds: [] };
    byId.set(row.id, image);
    byProduct.get(row.productId)?.push(image);
  }
  const links = await db
    .select()
    .from(productMediaVariants)
    .where(inArray(productMediaVariants.mediaId, [...byId.keys()]))
    .orderBy(asc(productMediaVariants.mediaId), asc(productMediaVariants.variantId));
  for (const link of links) byId.get(link.mediaId)?.variantIds.push(link.variantId);
  return byProduct;
}

/** Locks the product (image writes of one product take turns) and answers its image ids in order. */
async function lockedImageIds(tx: Tx, productId: number): Promise<number[]> {
  const [product] = await tx.select({ id: products.id }).from(products).where(eq(products.id, productId)).for('update');
  if (!product) throw new DomainError('product_not_found', { detail: `product ${productId} not found` });
  const rows = await tx
    .select({ id: productMedia.id })
    .from(productMedia)
    .where(eq(productMedia.productId, productId))
    .orderBy(asc(productMedia.position), asc(productMedia.id));
  return rows.map((r) => r.id);
}

/** Writes positions 0, 1, 2, … in `order` (only the rows whose position changes). */
async function renumber(tx: Tx, order: number[], before: Map<number, number>): Promise<void> {
  for (const [position, id] of order.entries()) {
    if (before.get(id) !== position) await tx.update(productMedia).set({ position }).where(eq(productMedia.id, id));
  }
}

async function positionsOf(tx: Tx, productId: number): Promise<Map<number, number>> {
  const rows = await tx
    .select({ id: productMedia.id, position: productMedia.position })
    .from(productMedia)
    .where(eq(productMedia.productId, productId));
  return new Map(rows.map((r) => [r.id, r.position]));
}

/** Refuses variant ids that are not the product's (422 naming `variant_ids`), then links the image to exactly them. */
async function setVariants(tx: Tx, image: { id: number; productId: number }, variantIds: number[]): Promise<void> {
  if (variantIds.length > 0) {
    const own = await tx
      .select({ id: productVariants.id })
      .from(productVariants)
      .where(and(eq(productVariants.productId, image.productId), inArray(productVariants.id, variantIds)));
    const owned = new Set(own.map((v) => v.id));
    const foreign = variantIds.filter((id) => !owned.has(id));
    if (foreign.length > 0) {
      throw invalidField(
        'variant_ids',
        `names variants that are not product ${image.productId}'s: ${foreign.join(', ')}`,
      );
    }
  }
  await tx.delete(productMediaVariants).where(eq(productMediaVariants.mediaId, image.id));
  if (variantIds.length > 0) {
    await tx.insert(productMediaVariants).values(variantIds.map((variantId) => ({ mediaId: image.id, variantId })));
  }
}

async function imageById(db: Db | Tx, id: number): Promise<ProductImage> {
  const [row] = await db.select().from(productMedia).where(eq(productMedia.id, id));
  if (!row) throw mediaNotFound(id);
  const images = await imagesOf(db, [row.productId]);
  const image = images.get(row.productId)?.find((i) => i.id === id);
  if (!image) throw mediaNotFound(id);
  return image;
}

export interface NewImage {
  productId: number;
  key: string;
  width: number;
  height: number;
  mime: string;
  byteSize: number;
  alt: string;
  /** Undefined: last. */
  position?: number;
  variantIds?: number[];
}

/** Adds an image to a product, at `position` or last, the others keeping their order. */
export async function addImage(db: Db, input: NewImage): Promise<ProductImage> {
  const id = await db.transaction(async (tx) => {
    const ids = await lockedImageIds(tx, input.productId);
    const [row] = await tx
      .insert(productMedia)
      .values({
        productId: input.productId,
        storageKey: input.key,
        width: input.width,
        height: input.height,
        mime: input.mime,
        byteSize: input.byteSize,
        alt: input.alt,
        position: ids.length,
      })
      .returning({ id: productMedia.id });
    if (!row) throw new Error('insert returned no image');
    if (input.position !== undefined && input.position < ids.length) {
      await renumber(tx, placeAt(ids, row.id, input.position), await positionsOf(tx, input.productId));
    }
    if (input.variantIds) await setVariants(tx, { id: row.id, productId: input.productId }, input.variantIds);
    return row.id;
  });
  return imageById(db, id);
}

export interface ImageChange {
  alt?: string;
  position?: number;
  /** The whole list: replaces the variants the image shows. */
  variantIds?: number[];
}

/** Changes an image's alt text, moves it among its product's images, or sets the variants it shows. */
export async function changeImage(db: Db, id: number, change: ImageChange): Promise<ProductImage> {
  await db.transaction(async (tx) => {
    const [found] = await tx.select().from(productMedia).where(eq(productMedia.id, id));
    if (!found) throw mediaNotFound(id);
    const ids = await lockedImageIds(tx, found.productId);
    if (!ids.includes(id)) throw mediaNotFound(id);
    if (change.alt !== undefined) {
      await tx.update(productMedia).set({ alt: change.alt, updatedAt: new Date() }).where(eq(productMedia.id, id));
    }
    if (change.position !== undefined) {
      await renumber(tx, placeAt(ids, id, change.position), await positionsOf(tx, found.productId));
    }
    if (change.variantIds !== undefined) await setVariants(tx, found, change.variantIds);
  });
  return imageById(db, id);
}

/**
 * Takes an image off its product; the others close the gap. The stored file stays: another product may show the
 * same bytes (names are content hashes), and a page cached somewhere may still ask for it.
 */
export async function deleteImage(db: Db, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [found] = await tx.select().from(productMedia).where(eq(productMedia.id, id));
    if (!found) throw mediaNotFound(id);
    const ids = await lockedImageIds(tx, found.productId);
    await tx.delete(productMedia).where(eq(productMedia.id, id));
    const before = await positionsOf(tx, found.productId);
    await renumber(
      tx,
      ids.filter((other) => other !== id),
      before,
    );
  });
}

/** The images of one product (404 when there is no such product). */
export async function productImages(db: Db, productId: number): Promise<ProductImage[]> {
  const [product] = await db.select({ id: products.id }).from(products).where(eq(products.id, productId));
  if (!product) throw new DomainError('product_not_found', { detail: `product ${productId} not found` });
  return (await imagesOf(db, [productId])).get(productId) ?? [];
}
