import { and, asc, eq, gt, ilike, inArray, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import { foreignKeyViolation, uniqueViolation } from '../db/errors.js';
import { products, productVariants, taxClasses } from '../db/schema.js';
import { pageOf } from '../http/paging.js';
import { DomainError, invalidField } from '../shared/errors.js';

export type ProductRow = typeof products.$inferSelect;
export type VariantRow = typeof productVariants.$inferSelect;
export type VariantValues = Omit<typeof productVariants.$inferInsert, 'id' | 'productId' | 'createdAt' | 'updatedAt'>;
export interface ProductWithVariants extends ProductRow {
  variants: VariantRow[];
}

export type Visibility = 'storefront' | 'admin';

/** Turns unique and foreign-key violations into the domain's 409 and 422 answers. */
export function translateConstraintError(err: unknown, field = ''): never {
  const unique = uniqueViolation(err);
  if (unique?.includes('alias'))
    throw new DomainError('alias_taken', {
      detail: 'another variant already has this alias',
      errors: [{ field: `${field}alias`, message: 'is already in use' }],
    });
  if (unique?.includes('sku'))
    throw new DomainError('sku_taken', {
      detail: 'another variant already has this SKU',
      errors: [{ field: `${field}sku`, message: 'is already in use' }],
    });
  if (foreignKeyViolation(err)?.includes('tax_class')) throw invalidField('tax_class_id', 'names no tax class');
  throw err;
}

async function assertTaxClass(db: Db | Tx, id: number | null | undefined): Promise<void> {
  if (id === null || id === undefined) return;
  const [row] = await db.select({ id: taxClasses.id }).from(taxClasses).where(eq(taxClasses.id, id));
  if (!row) throw invalidField('tax_class_id', 'names no tax class');
}

async function variantsOf(
  db: Db | Tx,
  productIds: number[],
  visibility: Visibility,
): Promise<Map<number, VariantRow[]>> {
  const byProduct = new Map<number, VariantRow[]>(productIds.map((id) => [id, []]));
  if (productIds.length === 0) return byProduct;
  const conditions: SQL[] = [inArray(productVariants.productId, productIds)];
  if (visibility === 'storefront') conditions.push(isNull(productVariants.archivedAt));
  const rows = await db
    .select()
    .from(productVariants)
    .where(and(...conditions))
    .orderBy(asc(productVariants.productId), asc(productVariants.id));
  for (const row of rows) byProduct.get(row.productId)?.push(row);
  return byProduct;
}

export async function createProduct(
  db: Db,
  input: { name: string; description: string; taxClassId: number | null; variants: VariantValues[] },
): Promise<ProductWithVariants> {
  await assertTaxClass(db, input.taxClassId);
  try {
    return await db.transaction(async (tx) => {
      const [product] = await tx
        .insert(products)
        .values({ name: input.name, description: input.description, taxClassId: input.taxClassId })
        .returning();
      if (!product) throw new Error('insert returned no product');
      const variants = await tx
        .insert(productVariants)
        .values(input.variants.map((v) => ({ ...v, productId: product.id })))
        .returning();
      return { ...product, variants: variants.sort((a, b) => a.id - b.id) };
    });
  } catch (err) {
    return translateConstraintError(err, 'variants[].');
  }
}

export async function findProduct(
  db: Db,
  id: number,
  visibility: Visibility,
): Promise<ProductWithVariants | undefined> {
  const conditions: SQL[] = [eq(products.id, id)];
  if (visibility === 'storefront') conditions.push(isNull(products.archivedAt));
  const [product] = await db
    .select()
    .from(products)
    .where(and(...conditions));
  if (!product) return undefined;
  const variants = await variantsOf(db, [product.id], visibility);
  return { ...product, variants: variants.get(product.id) ?? [] };
}

export interface ProductListQuery {
  limit: number;
  /** Id of the last product of the previous page (keyset pagination: no offset scans). */
  after?: number;
  status?: 'active' | 'archived' | 'all';
  search?: string;
}

/**
 * The storefront's product page, prepared once per database: active products after a cursor with
 * their active variants, in one statement (one round trip) whatever the page size.
 */
export function preparedStorefrontPage(db: Db) {
  const page = db.query.products
    .findMany({
      where: (p, { and: all, gt: after, isNull: missing }) =>
        all(missing(p.archivedAt), after(p.id, sql.placeholder('after'))),
      orderBy: (p, { asc: up }) => [up(p.id)],
      limit: sql.placeholder('limit'),
      with: {
        variants: { where: (v, { isNull: missing }) => missing(v.archivedAt), orderBy: (v, { asc: up }) => [up(v.id)] },
      },
    })
    .prepare('storefront_products_page');
  return async (query: { limit: number; after?: number }) => {
    const rows = await page.execute({ after: query.after ?? 0, limit: query.limit + 1 });
    const current = pageOf(rows, query.limit, (p) => p.id);
    // The storefront shows only products that have something to buy.
    return { items: current.items.filter((p) => p.variants.length > 0), next: current.next };
  };
}

/** A page of products in id order with their variants, fetched in two queries whatever the page size. */
export async function listProducts(db: Db, query: ProductListQuery, visibility: Visibility) {
  const conditions: SQL[] = [];
  const status = visibility === 'storefront' ? 'active' : (query.status ?? 'all');
  if (status === 'active') conditions.push(isNull(products.archivedAt));
  if (status === 'archived') conditions.push(isNotNull(products.archivedAt));
  if (query.after !== undefined) conditions.push(gt(products.id, query.after));
  if (query.search) conditions.push(ilike(products.name, `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
  const rows = await db
    .select()
    .from(products)
    .where(and(...conditions))
    .orderBy(asc(products.id))
    .limit(query.limit + 1);
  const page = pageOf(rows, query.limit, (p) => p.id);
  const variants = await variantsOf(
    db,
    page.items.map((p) => p.id),
    visibility,
  );
  const items = page.items
    .map((p) => ({ ...p, variants: variants.get(p.id) ?? [] }))
    // The storefront shows only products that have something to buy.
    .filter((p) => visibility === 'admin' || p.variants.length > 0);
  return { items, next: page.next };
}

export async function updateProduct(
  db: Db,
  id: number,
  patch: { name?: string; description?: string; taxClassId?: number | null; archived?: boolean },
): Promise<ProductWithVariants> {
  await assertTaxClass(db, patch.taxClassId);
  const values: Partial<typeof products.$inferInsert> = { updatedAt: new Date() };
  if (patch.name !== undefined) values.name = patch.name;
  if (patch.description !== undefined) values.description = patch.description;
  if (patch.taxClassId !== undefined) values.taxClassId = patch.taxClassId;
  if (patch.archived !== undefined) values.archivedAt = patch.archived ? new Date() : null;
  const [row] = await db.update(products).set(values).where(eq(products.id, id)).returning({ id: products.id });
  if (!row) throw new DomainError('product_not_found', { detail: `product ${id} not found` });
  const product = await findProduct(db, id, 'admin');
  if (!product) throw new DomainError('product_not_found', { detail: `product ${id} not found` });
  return product;
}

/** Archives a product (soft delete): it stays in order history but can't be seen or bought. */
export async function archiveProduct(db: Db, id: number): Promise<void> {
  const [row] = await db
    .update(products)
    .set({ archivedAt: new Date(), updatedAt: new Date() })
    .where(eq(products.id, id))
    .returning({ id: products.id });
  if (!row) throw new DomainError('product_not_found', { detail: `product ${id} not found` });
}

export async function addVariant(db: Db, productId: number, values: VariantValues): Promise<VariantRow> {
  const [product] = await db.select({ id: products.id }).from(products).where(eq(products.id, productId));
  if (!product) throw new DomainError('product_not_found', { detail: `product ${productId} not found` });
  try {
    const [row] = await db
      .insert(productVariants)
      .values({ ...values, productId })
      .returning();
    if (!row) throw new Error('insert returned no variant');
    return row;
  } catch (err) {
    return translateConstraintError(err);
  }
}

export async function findVariant(db: Db, id: number): Promise<VariantRow | undefined> {
  const [row] = await db.select().from(productVariants).where(eq(productVariants.id, id));
  return row;
}

export async function updateVariant(db: Db, id: number, values: Partial<VariantValues>): Promise<VariantRow> {
  try {
    const [row] = await db
      .update(productVariants)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(productVariants.id, id))
      .returning();
    if (!row) throw new DomainError('variant_not_found', { detail: `variant ${id} not found` });
    return row;
  } catch (err) {
    if (err instanceof DomainError) throw err;
    return translateConstraintError(err);
  }
}
