import { and, asc, eq, gt, ilike, inArray, isNotNull, isNull, type SQL } from 'drizzle-orm';
import type { Database, Db, Tx } from '../db/client.js';
import { foreignKeyViolation, uniqueViolation } from '../db/errors.js';
import { categories, productCategories, products, productVariants, taxClasses } from '../db/schema.js';
import { type ExplicitPrices, explicitPricesColumn, explicitPricesOf } from '../markets/variant-prices.repository.js';
import { pageOf } from '../http/paging.js';
import { Batcher } from '../shared/batcher.js';
import { DomainError, invalidField } from '../shared/errors.js';
import { imagesOf, type ProductImage } from '../media/media.repository.js';
import { handleClash, handleTaken, withFreeHandle } from './handles.repository.js';
import {
  assertRestorable,
  combinationsOf,
  giveCombination,
  giveDefaultOptions,
  optionsOf,
} from './options.repository.js';
import type { Combination, OptionList } from './options.rules.js';

export type ProductRow = typeof products.$inferSelect;
export type VariantRow = typeof productVariants.$inferSelect;
export type VariantValues = Omit<typeof productVariants.$inferInsert, 'id' | 'productId' | 'createdAt' | 'updatedAt'>;
export interface ProductWithVariants extends ProductRow {
  variants: VariantRow[];
  /** The categories the product is in, by id. */
  categoryIds: number[];
  /** Its images in their order. */
  images: ProductImage[];
  /** Its options with their values, in order. */
  options: OptionList[];
  /** Each variant's combination, by variant id (a variant made by SQL without one is missing). */
  combinations: ReadonlyMap<number, Combination>;
}

/** What an admin sets of a product besides its variants; undefined: left as it is (or the default, on creation). */
export interface ProductFields {
  name?: string;
  description?: string;
  taxClassId?: number | null;
  /** Undefined on creation: made from the name. */
  handle?: string;
  seoTitle?: string | null;
  seoDescription?: string | null;
  /** The whole list: replaces the product's categories. */
  categoryIds?: number[];
}

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
  const foreignKey = foreignKeyViolation(err);
  if (foreignKey?.includes('tax_class')) throw invalidField('tax_class_id', 'names no tax class');
  if (foreignKey?.includes('category')) throw invalidField('category_ids', 'names a category that does not exist');
  throw err;
}

/** The categories of these products, by product (one statement for a page of products). */
async function categoriesOf(db: Db | Tx, productIds: number[]): Promise<Map<number, number[]>> {
  const byProduct = new Map<number, number[]>(productIds.map((id) => [id, []]));
  if (productIds.length === 0) return byProduct;
  const rows = await db
    .select()
    .from(productCategories)
    .where(inArray(productCategories.productId, productIds))
    .orderBy(asc(productCategories.productId), asc(productCategories.categoryId));
  for (const row of rows) byProduct.get(row.productId)?.push(row.categoryId);
  return byProduct;
}

/** Replaces a product's categories with `categoryIds` (an unknown id: 422 through translateConstraintError). */
async function setCategories(tx: Tx, productId: number, categoryIds: number[] | undefined): Promise<void> {
  if (categoryIds === undefined) return;
  await tx.delete(productCategories).where(eq(productCategories.productId, productId));
  if (categoryIds.length === 0) return;
  await tx.insert(productCategories).values(categoryIds.map((categoryId) => ({ productId, categoryId })));
}

async function assertTaxClass(db: Db | Tx, id: number | null | undefined): Promise<void> {
  if (id === null || id === undefined) return;
  const [row] = await db.select({ id: taxClasses.id }).from(taxClasses).where(eq(taxClasses.id, id));
  if (!row) throw invalidField('tax_class_id', 'names no tax class');
}

/** Every variant of these products, archived ones included (the admin's view), by product. */
async function variantsOf(db: Db | Tx, productIds: number[]): Promise<Map<number, VariantRow[]>> {
  const byProduct = new Map<number, VariantRow[]>(productIds.map((id) => [id, []]));
  if (productIds.length === 0) return byProduct;
  const rows = await db
    .select()
    .from(productVariants)
    .where(inArray(productVariants.productId, productIds))
    .orderBy(asc(productVariants.productId), asc(productVariants.id));
  for (const row of rows) byProduct.get(row.productId)?.push(row);
  return byProduct;
}

export async function createProduct(
  db: Db,
  input: ProductFields & { name: string; variants: VariantValues[] },
): Promise<ProductWithVariants> {
  await assertTaxClass(db, input.taxClassId);
  try {
    return await withFreeHandle(db, { kind: 'products', given: input.handle, name: input.name }, (handle) =>
      db.transaction(async (tx) => {
        const [product] = await tx
          .insert(products)
          .values({
            name: input.name,
            description: input.description ?? '',
            taxClassId: input.taxClassId ?? null,
            handle,
            seoTitle: input.seoTitle ?? null,
            seoDescription: input.seoDescription ?? null,
          })
          .returning();
        if (!product) throw new Error('insert returned no product');
        const variants = await tx
          .insert(productVariants)
          .values(input.variants.map((v) => ({ ...v, productId: product.id })))
          .returning();
        await setCategories(tx, product.id, input.categoryIds);
        variants.sort((a, b) => a.id - b.id);
        await giveDefaultOptions(tx, product.id, variants);
        return {
          ...product,
          variants,
          categoryIds: [...(input.categoryIds ?? [])].sort((a, b) => a - b),
          images: [],
          options: (await optionsOf(tx, [product.id])).get(product.id) ?? [],
          combinations: await combinationsOf(tx, [product.id]),
        };
      }),
    );
  } catch (err) {
    if (err instanceof DomainError) throw err;
    return translateConstraintError(err, 'variants[].');
  }
}

/** A product with all its variants, archived or not (the admin's view; the storefront's is storefrontProducts). */
export async function findProduct(db: Db, id: number): Promise<ProductWithVariants | undefined> {
  const [product] = await db.select().from(products).where(eq(products.id, id));
  if (!product) return undefined;
  const variants = await variantsOf(db, [product.id]);
  const categoryIds = await categoriesOf(db, [product.id]);
  const images = await imagesOf(db, [product.id]);
  return {
    ...product,
    variants: variants.get(product.id) ?? [],
    categoryIds: categoryIds.get(product.id) ?? [],
    images: images.get(product.id) ?? [],
    options: (await optionsOf(db, [product.id])).get(product.id) ?? [],
    combinations: await combinationsOf(db, [product.id]),
  };
}

export interface ProductListQuery {
  limit: number;
  /** Id of the last product of the previous page (keyset pagination: no offset scans). */
  after?: number;
  status?: 'active' | 'archived' | 'all';
  search?: string;
}

/** A variant as the storefront shows it, without its stock (read with every answer, never kept). */
export type CatalogVariant = Pick<
  VariantRow,
  | 'id'
  | 'alias'
  | 'name'
  | 'sku'
  | 'price'
  | 'compareAtPrice'
  | 'weightGrams'
  | 'trackInventory'
  | 'allowBackorder'
  | 'purchaseLimitPerOrder'
> & {
  /** Its explicit prices in other currencies (decision 0031); absent or null: none. */
  explicitPrices?: ExplicitPrices | null;
  /** Its value of each of the product's options; absent or empty: a variant made by SQL without them. */
  options?: Combination;
};

/** A category as a product's answer names it. */
export interface CategoryRef {
  id: number;
  name: string;
  handle: string;
}

/** An active product as the storefront shows it, with its active variants in id order and its categories. */
export interface CatalogProduct {
  id: number;
  name: string;
  description: string;
  handle: string;
  seoTitle: string | null;
  seoDescription: string | null;
  variants: CatalogVariant[];
  /** The categories it is in (not their ancestors), in id order. */
  categories: CategoryRef[];
  /** Its images in their order, each with the variants it shows. */
  images: CatalogImage[];
  /** Its options with all their values, in order (docs/catalog.md#options). */
  options: OptionList[];
}

/** An image as the storefront shows it: `key` names the stored original. */
export interface CatalogImage {
  id: number;
  key: string;
  alt: string;
  width: number;
  height: number;
  variantIds: number[];
}

const catalogVariantColumns = {
  id: productVariants.id,
  productId: productVariants.productId,
  alias: productVariants.alias,
  name: productVariants.name,
  sku: productVariants.sku,
  price: productVariants.price,
  compareAtPrice: productVariants.compareAtPrice,
  weightGrams: productVariants.weightGrams,
  trackInventory: productVariants.trackInventory,
  allowBackorder: productVariants.allowBackorder,
  purchaseLimitPerOrder: productVariants.purchaseLimitPerOrder,
  explicitPrices: explicitPricesColumn,
};

/** Ids of a page of active products after a cursor, in id order (keyset pagination: no offset scans). */
export async function storefrontPageIds(db: Db, query: { limit: number; after: number }) {
  const rows = await db
    .select({ id: products.id })
    .from(products)
    .where(and(isNull(products.archivedAt), gt(products.id, query.after)))
    .orderBy(asc(products.id))
    .limit(query.limit + 1);
  const page = pageOf(rows, query.limit, (p) => p.id);
  return { ids: page.items.map((p) => p.id), next: page.next };
}

/** The storefront's view of these products, with their active variants: null for an archived or unknown id. */
export async function storefrontProducts(db: Db, ids: number[]): Promise<Map<number, CatalogProduct | null>> {
  const found = new Map<number, CatalogProduct | null>(ids.map((id) => [id, null]));
  if (ids.length === 0) return found;
  const rows = await db
    .select({
      id: products.id,
      name: products.name,
      description: products.description,
      handle: products.handle,
      seoTitle: products.seoTitle,
      seoDescription: products.seoDescription,
    })
    .from(products)
    .where(and(inArray(products.id, ids), isNull(products.archivedAt)));
  const options = await optionsOf(db, ids);
  const combinations = await combinationsOf(db, ids);
  for (const row of rows)
    found.set(row.id, { ...row, variants: [], categories: [], images: [], options: options.get(row.id) ?? [] });
  const variants = await db
    .select(catalogVariantColumns)
    .from(productVariants)
    .where(and(inArray(productVariants.productId, ids), isNull(productVariants.archivedAt)))
    .orderBy(asc(productVariants.productId), asc(productVariants.id));
  for (const { productId, explicitPrices, ...variant } of variants) {
    found.get(productId)?.variants.push({
      ...variant,
      explicitPrices: explicitPricesOf(explicitPrices),
      options: combinations.get(variant.id) ?? {},
    });
  }
  const memberships = await db
    .select({
      productId: productCategories.productId,
      id: categories.id,
      name: categories.name,
      handle: categories.handle,
    })
    .from(productCategories)
    .innerJoin(categories, eq(categories.id, productCategories.categoryId))
    .where(inArray(productCategories.productId, ids))
    .orderBy(asc(productCategories.productId), asc(categories.id));
  for (const { productId, ...category } of memberships) found.get(productId)?.categories.push(category);
  for (const [productId, images] of await imagesOf(db, ids)) {
    const product = found.get(productId);
    if (!product) continue;
    for (const { id, storageKey, alt, width, height, variantIds } of images) {
      product.images.push({ id, key: storageKey, alt, width, height, variantIds });
    }
  }
  return found;
}

/** The id of the active product with this handle, or null. */
export async function storefrontProductIdByHandle(db: Db, handle: string): Promise<number | null> {
  const [row] = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.handle, handle), isNull(products.archivedAt)));
  return row?.id ?? null;
}

/** Units on hand of these variants (ids of variants that are gone are missing). */
export type StockReads = (variantIds: number[]) => Promise<ReadonlyMap<number, number>>;

const stockOfVariants = {
  name: 'storefront_stock',
  text: 'select id, stock from product_variants where id = any($1::integer[])',
};
/** Stock reads under way at once: one keeps batches full under load (docs/decisions/0004). */
const STOCK_READS_IN_FLIGHT = 1;
const MAX_PAGES_PER_STOCK_READ = 64;

/**
 * The storefront's stock reads. Pages asked for while a read is under way are read together, in one statement
 * (prepared once per connection), as the cart reads are (src/cart/cart.repository.ts): each read begins after its
 * requests arrived, so an answer never shows stock from before its request.
 */
export function batchedStockReads(database: Database): StockReads {
  const batcher = new Batcher<number[], ReadonlyMap<number, number>>(
    async (asked) => {
      // Plain loops: on the hot path, `flat()` and a Map built from pairs cost five times as much.
      const ids = new Set<number>();
      for (const list of asked) for (const id of list) ids.add(id);
      const rows = await database.run<{ id: number; stock: number }>(stockOfVariants, [[...ids]]);
      const stock = new Map<number, number>();
      for (const row of rows) stock.set(row.id, row.stock);
      return asked.map(() => stock);
    },
    { maxBatch: MAX_PAGES_PER_STOCK_READ, maxInFlight: STOCK_READS_IN_FLIGHT },
  );
  return (variantIds) => batcher.submit(variantIds);
}

/**
 * A page of products in id order with all their variants (the admin's view), fetched in two queries whatever the
 * page size.
 */
export async function listProducts(db: Db, query: ProductListQuery) {
  const conditions: SQL[] = [];
  const status = query.status ?? 'all';
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
  const ids = page.items.map((p) => p.id);
  const variants = await variantsOf(db, ids);
  const categoryIds = await categoriesOf(db, ids);
  const images = await imagesOf(db, ids);
  const options = await optionsOf(db, ids);
  const combinations = await combinationsOf(db, ids);
  const items = page.items.map((p) => ({
    ...p,
    variants: variants.get(p.id) ?? [],
    categoryIds: categoryIds.get(p.id) ?? [],
    images: images.get(p.id) ?? [],
    options: options.get(p.id) ?? [],
    combinations,
  }));
  return { items, next: page.next };
}

export async function updateProduct(
  db: Db,
  id: number,
  patch: ProductFields & { archived?: boolean },
): Promise<ProductWithVariants> {
  await assertTaxClass(db, patch.taxClassId);
  const values: Partial<typeof products.$inferInsert> = { updatedAt: new Date() };
  if (patch.name !== undefined) values.name = patch.name;
  if (patch.description !== undefined) values.description = patch.description;
  if (patch.taxClassId !== undefined) values.taxClassId = patch.taxClassId;
  if (patch.handle !== undefined) values.handle = patch.handle;
  if (patch.seoTitle !== undefined) values.seoTitle = patch.seoTitle;
  if (patch.seoDescription !== undefined) values.seoDescription = patch.seoDescription;
  if (patch.archived !== undefined) values.archivedAt = patch.archived ? new Date() : null;
  try {
    await db.transaction(async (tx) => {
      const [row] = await tx.update(products).set(values).where(eq(products.id, id)).returning({ id: products.id });
      if (!row) throw new DomainError('product_not_found', { detail: `product ${id} not found` });
      await setCategories(tx, id, patch.categoryIds);
    });
  } catch (err) {
    if (err instanceof DomainError) throw err;
    if (patch.handle !== undefined && handleClash(err, 'products')) throw handleTaken('products', patch.handle);
    return translateConstraintError(err);
  }
  const product = await findProduct(db, id);
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

/** Adds a variant with its combination of the product's options (options.repository.ts `giveCombination`). */
export async function addVariant(
  db: Db,
  productId: number,
  input: { values: VariantValues; combination?: Combination },
): Promise<VariantRow> {
  const { values, combination } = input;
  const [product] = await db.select({ id: products.id }).from(products).where(eq(products.id, productId));
  if (!product) throw new DomainError('product_not_found', { detail: `product ${productId} not found` });
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(productVariants)
        .values({ ...values, productId })
        .returning();
      if (!row) throw new Error('insert returned no variant');
      await giveCombination(tx, row, combination);
      return row;
    });
  } catch (err) {
    if (err instanceof DomainError) throw err;
    return translateConstraintError(err);
  }
}

export async function findVariant(db: Db, id: number): Promise<VariantRow | undefined> {
  const [row] = await db.select().from(productVariants).where(eq(productVariants.id, id));
  return row;
}

/** Changes a variant; restoring one (`archivedAt: null`) needs its combination complete and free. */
export async function updateVariant(db: Db, id: number, values: Partial<VariantValues>): Promise<VariantRow> {
  try {
    return await db.transaction(async (tx) => {
      if (values.archivedAt === null) await assertRestorable(tx, id);
      const [row] = await tx
        .update(productVariants)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(productVariants.id, id))
        .returning();
      if (!row) throw new DomainError('variant_not_found', { detail: `variant ${id} not found` });
      return row;
    });
  } catch (err) {
    if (err instanceof DomainError) throw err;
    return translateConstraintError(err);
  }
}
