import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import { uniqueViolation } from '../db/errors.js';
import { productOptions, productOptionValues, products, productVariants, variantOptionValues } from '../db/schema.js';
import { DomainError } from '../shared/errors.js';
import {
  assertDistinct,
  type Combination,
  checkCombination,
  checkRenames,
  checkSkuPattern,
  defaultOptions,
  isComplete,
  missingCombinations,
  type OptionEdit,
  type OptionList,
  planOptionChange,
  skuFromPattern,
  type VariantCombination,
  variantName,
} from './options.rules.js';

// A product's options and its variants' combinations: reads for the admin's and the storefront's answers, and the
// writes of src/catalog/options.rules.ts's decisions, each in one transaction under the product's row lock.

/** The options of these products, in position order, each with its values in order (one statement). */
export async function optionsOf(db: Db | Tx, productIds: number[]): Promise<Map<number, OptionList[]>> {
  const byProduct = new Map<number, OptionList[]>(productIds.map((id) => [id, []]));
  if (productIds.length === 0) return byProduct;
  const rows = await db
    .select({
      productId: productOptions.productId,
      optionId: productOptions.id,
      name: productOptions.name,
      value: productOptionValues.value,
    })
    .from(productOptions)
    .innerJoin(productOptionValues, eq(productOptionValues.optionId, productOptions.id))
    .where(inArray(productOptions.productId, productIds))
    .orderBy(
      asc(productOptions.productId),
      asc(productOptions.position),
      asc(productOptions.id),
      asc(productOptionValues.position),
      asc(productOptionValues.id),
    );
  let last: { id: number; option: OptionList } | undefined;
  for (const row of rows) {
    if (last?.id !== row.optionId) {
      last = { id: row.optionId, option: { name: row.name, values: [] } };
      byProduct.get(row.productId)?.push(last.option);
    }
    last.option.values.push(row.value);
  }
  return byProduct;
}

/** The combination of each variant of these products, by variant id (variants without one are missing). */
export async function combinationsOf(db: Db | Tx, productIds: number[]): Promise<Map<number, Combination>> {
  const byVariant = new Map<number, Record<string, string>>();
  if (productIds.length === 0) return byVariant;
  const rows = await db
    .select({ variantId: variantOptionValues.variantId, name: productOptions.name, value: productOptionValues.value })
    .from(variantOptionValues)
    .innerJoin(productOptions, eq(productOptions.id, variantOptionValues.optionId))
    .innerJoin(productOptionValues, eq(productOptionValues.id, variantOptionValues.optionValueId))
    .where(inArray(variantOptionValues.productId, productIds));
  for (const row of rows) {
    const combination = byVariant.get(row.variantId) ?? {};
    combination[row.name] = row.value;
    byVariant.set(row.variantId, combination);
  }
  return byVariant;
}

/**
 * A column for a select from `product_variants`: the variant's option values in the options' order, as
 * `[name, value]` pairs (null when it has none). Quotes read it with the variant, so an order line keeps them.
 */
export const variantOptionsColumn = sql<[string, string][] | null>`(select json_agg(json_build_array(
  ${productOptions.name}, ${productOptionValues.value}) order by ${productOptions.position}, ${productOptions.id})
  from ${variantOptionValues}
  join ${productOptions} on ${productOptions.id} = ${variantOptionValues.optionId}
  join ${productOptionValues} on ${productOptionValues.id} = ${variantOptionValues.optionValueId}
  where ${variantOptionValues.variantId} = ${productVariants.id})`;

const productNotFound = (id: number) => new DomainError('product_not_found', { detail: `product ${id} not found` });

/**
 * Takes the product's row lock for the rest of the transaction: option writes of one product take turns, so two
 * checked at once cannot give two variants one combination. `no key update` leaves carts and orders, which only
 * point at the product, unblocked.
 */
async function lockProduct(tx: Tx, productId: number): Promise<void> {
  const [row] = await tx
    .select({ id: products.id })
    .from(products)
    .where(eq(products.id, productId))
    .for('no key update');
  if (!row) throw productNotFound(productId);
}

/** The product's options and its variants as the rules see them, read under its lock. */
async function currentState(tx: Tx, productId: number) {
  const options = (await optionsOf(tx, [productId])).get(productId) ?? [];
  const combinations = await combinationsOf(tx, [productId]);
  const rows = await tx
    .select({ id: productVariants.id, name: productVariants.name, archivedAt: productVariants.archivedAt })
    .from(productVariants)
    .where(eq(productVariants.productId, productId))
    .orderBy(asc(productVariants.id));
  const variants: VariantCombination[] = rows.map((v) => ({
    id: v.id,
    name: v.name,
    archived: v.archivedAt !== null,
    values: combinations.get(v.id) ?? {},
  }));
  return { options, variants };
}

/**
 * Renames rows by id (`renames`: id → new text) in two steps, so names that swap, or take one being freed, never meet
 * the unique index: first each to a text no row has, then to its own.
 */
async function renameRows(
  renames: ReadonlyMap<number, string>,
  rename: (id: number, text: string) => Promise<unknown>,
) {
  for (const id of renames.keys()) await rename(id, `\u0001${id}`);
  for (const [id, text] of renames) await rename(id, text);
}

/**
 * Writes the product's options as given (keeping the ids of those that stay or are renamed) and returns their ids by
 * name.
 */
async function writeOptions(tx: Tx, productId: number, next: readonly OptionEdit[]) {
  const stored = await tx.select().from(productOptions).where(eq(productOptions.productId, productId));
  const ids = new Map<string, { id: number; values: Map<string, number> }>();
  const sourceOf = (option: OptionEdit) => option.renamedFrom ?? option.name;
  for (const old of stored) {
    if (!next.some((o) => sourceOf(o) === old.name)) {
      await tx.delete(productOptions).where(eq(productOptions.id, old.id));
    }
  }
  const renames = new Map<number, string>();
  for (const option of next) {
    const kept = stored.find((o) => o.name === sourceOf(option));
    if (kept && kept.name !== option.name) renames.set(kept.id, option.name);
  }
  await renameRows(renames, (id, name) => tx.update(productOptions).set({ name }).where(eq(productOptions.id, id)));
  for (const [position, option] of next.entries()) {
    const kept = stored.find((o) => o.name === sourceOf(option));
    let optionId: number;
    if (kept) {
      optionId = kept.id;
      if (kept.position !== position) {
        await tx.update(productOptions).set({ position }).where(eq(productOptions.id, kept.id));
      }
    } else {
      const [row] = await tx
        .insert(productOptions)
        .values({ productId, name: option.name, position })
        .returning({ id: productOptions.id });
      if (!row) throw new Error('insert returned no option');
      optionId = row.id;
    }
    ids.set(option.name, { id: optionId, values: await writeValues(tx, optionId, option) });
  }
  return ids;
}

async function writeValues(tx: Tx, optionId: number, option: OptionEdit): Promise<Map<string, number>> {
  const { values } = option;
  const sourceOf = (value: string) => option.valuesRenamedFrom?.[value] ?? value;
  const stored = await tx.select().from(productOptionValues).where(eq(productOptionValues.optionId, optionId));
  const gone = stored.filter((v) => !values.some((value) => sourceOf(value) === v.value)).map((v) => v.id);
  if (gone.length > 0) await tx.delete(productOptionValues).where(inArray(productOptionValues.id, gone));
  const renames = new Map<number, string>();
  for (const value of values) {
    const kept = stored.find((v) => v.value === sourceOf(value));
    if (kept && kept.value !== value) renames.set(kept.id, value);
  }
  await renameRows(renames, (id, value) =>
    tx.update(productOptionValues).set({ value }).where(eq(productOptionValues.id, id)),
  );
  const ids = new Map<string, number>();
  for (const [position, value] of values.entries()) {
    const kept = stored.find((v) => v.value === sourceOf(value));
    if (kept) {
      ids.set(value, kept.id);
      if (kept.position !== position) {
        await tx.update(productOptionValues).set({ position }).where(eq(productOptionValues.id, kept.id));
      }
      continue;
    }
    const [row] = await tx
      .insert(productOptionValues)
      .values({ optionId, value, position })
      .returning({ id: productOptionValues.id });
    if (!row) throw new Error('insert returned no option value');
    ids.set(value, row.id);
  }
  return ids;
}

type OptionIds = Awaited<ReturnType<typeof writeOptions>>;

/** The rows that give variants their combinations. */
function combinationRows(
  productId: number,
  optionIds: OptionIds,
  variants: readonly { id: number; values: Combination }[],
) {
  return variants.flatMap((v) =>
    Object.entries(v.values).flatMap(([name, value]) => {
      const option = optionIds.get(name);
      const optionValueId = option?.values.get(value);
      return option && optionValueId !== undefined
        ? [{ variantId: v.id, productId, optionId: option.id, optionValueId }]
        : [];
    }),
  );
}

/**
 * Replaces a product's options (matched by name, or the name they are renamed from; values likewise) and moves its
 * variants onto them as `planOptionChange` decides: archived when a value of theirs is removed, renamed when their
 * combination changed.
 */
export async function setProductOptions(db: Db, productId: number, next: readonly OptionEdit[]): Promise<void> {
  await db.transaction(async (tx) => {
    await lockProduct(tx, productId);
    const { options, variants } = await currentState(tx, productId);
    checkRenames(options, next);
    const changes = planOptionChange(next, variants);
    await tx.delete(variantOptionValues).where(eq(variantOptionValues.productId, productId));
    const optionIds = await writeOptions(tx, productId, next);
    const now = new Date();
    for (const change of changes) {
      if (!change.archive && change.name === undefined) continue;
      await tx
        .update(productVariants)
        .set({
          updatedAt: now,
          ...(change.archive ? { archivedAt: now } : {}),
          ...(change.name === undefined ? {} : { name: change.name }),
        })
        .where(eq(productVariants.id, change.id));
    }
    const rows = combinationRows(productId, optionIds, changes);
    if (rows.length > 0) await tx.insert(variantOptionValues).values(rows);
  });
}

/** What a generated variant starts with; everything else is the column's default (tracked, no stock unless given). */
export interface GeneratedVariantDefaults {
  price: number;
  compareAtPrice?: number | null;
  skuPattern?: string;
  stock?: number;
}

/**
 * Creates a variant for every combination of the product's options that no variant has (an archived one counts: it
 * is restored, not made again), named after it ("S / Black"). Returns the ids of the variants made.
 */
export async function generateVariants(
  db: Db,
  productId: number,
  defaults: GeneratedVariantDefaults,
): Promise<number[]> {
  return db.transaction(async (tx) => {
    await lockProduct(tx, productId);
    const { options, variants } = await currentState(tx, productId);
    if (options.length === 0) {
      throw new DomainError('validation_error', {
        detail: `product ${productId} has no options to combine`,
        errors: [{ field: 'options', message: 'the product has no options: set them first' }],
      });
    }
    if (defaults.skuPattern !== undefined) checkSkuPattern(defaults.skuPattern, options);
    const missing = missingCombinations(options, variants);
    if (missing.length === 0) return [];
    const values = missing.map((combination) => ({
      productId,
      alias: randomUUID(),
      name: variantName(options, combination),
      sku: defaults.skuPattern === undefined ? null : skuFromPattern(defaults.skuPattern, options, combination),
      price: defaults.price,
      compareAtPrice: defaults.compareAtPrice ?? null,
      stock: defaults.stock ?? 0,
    }));
    let made: { id: number }[];
    try {
      made = await tx.insert(productVariants).values(values).returning({ id: productVariants.id });
    } catch (err) {
      if (uniqueViolation(err)?.includes('sku')) {
        throw new DomainError('sku_taken', {
          detail: 'a SKU the pattern gives is already in use (or given twice: name every option in the pattern)',
          errors: [{ field: 'sku_pattern', message: 'gives a SKU that is already in use' }],
        });
      }
      throw err;
    }
    const optionIds = await storedOptionIds(tx, productId);
    const rows = combinationRows(
      productId,
      optionIds,
      made.map((row, i) => ({ id: row.id, values: missing[i] ?? {} })),
    );
    if (rows.length > 0) await tx.insert(variantOptionValues).values(rows);
    return made.map((row) => row.id);
  });
}

/** The ids of the product's options and values, by name, as stored. */
async function storedOptionIds(tx: Tx, productId: number): Promise<OptionIds> {
  const rows = await tx
    .select({
      optionId: productOptions.id,
      name: productOptions.name,
      valueId: productOptionValues.id,
      value: productOptionValues.value,
    })
    .from(productOptions)
    .innerJoin(productOptionValues, eq(productOptionValues.optionId, productOptions.id))
    .where(eq(productOptions.productId, productId));
  const ids: OptionIds = new Map();
  for (const row of rows) {
    const option = ids.get(row.name) ?? { id: row.optionId, values: new Map<string, number>() };
    option.values.set(row.value, row.valueId);
    ids.set(row.name, option);
  }
  return ids;
}

/**
 * Gives a new product (no options yet) its options and its variants their combinations, checked: each complete and
 * none twice (the demo's products, with options of their own).
 */
export async function giveOptions(
  tx: Tx,
  product: { id: number; options: readonly OptionList[] },
  variants: readonly { id: number; values: Combination }[],
): Promise<void> {
  const combinations = variants.map((v) => ({ id: v.id, name: '', archived: false, values: v.values }));
  for (const v of combinations) checkCombination(product.options, v.values, `variants[${v.id}].options`);
  assertDistinct(product.options, combinations);
  const optionIds = await writeOptions(tx, product.id, product.options);
  const rows = combinationRows(product.id, optionIds, variants);
  if (rows.length > 0) await tx.insert(variantOptionValues).values(rows);
}

/** Gives a product made with variants but no options the "Title" option (`defaultOptions`), inside its creation. */
export async function giveDefaultOptions(
  tx: Tx,
  productId: number,
  variants: readonly { id: number; name: string }[],
): Promise<void> {
  if (variants.length === 0) return;
  const { option, values } = defaultOptions(variants);
  await giveOptions(
    tx,
    { id: productId, options: [option] },
    variants.map((v) => ({ id: v.id, values: { [option.name]: values.get(v.id) ?? '' } })),
  );
}

/**
 * Gives a variant just added its combination: the one given (every option of the product, with one of its values),
 * or, for a product with a single option and none given, its name as that option's value (added to the option when
 * new), as adding a variant worked before options. 409 when an active variant has the combination.
 */
export async function giveCombination(
  tx: Tx,
  variant: { id: number; productId: number; name: string },
  given: Combination | undefined,
): Promise<void> {
  await lockProduct(tx, variant.productId);
  const { options, variants } = await currentState(tx, variant.productId);
  if (options.length === 0) return; // a product made by SQL without options: its variants have none either
  let combination: Combination;
  let next = options;
  if (given !== undefined) combination = checkCombination(options, given);
  else if (options.length === 1 && options[0]) {
    const option = options[0];
    combination = { [option.name]: variant.name };
    if (!option.values.includes(variant.name)) next = [{ name: option.name, values: [...option.values, variant.name] }];
  } else {
    throw new DomainError('validation_error', {
      detail: `the product has ${options.length} options: give the variant a value of each`,
      errors: [{ field: 'options', message: `is required: name a value of ${options.map((o) => o.name).join(', ')}` }],
    });
  }
  assertDistinct(next, [
    ...variants.filter((v) => v.id !== variant.id),
    { ...variant, archived: false, values: combination },
  ]);
  const optionIds =
    next === options ? await storedOptionIds(tx, variant.productId) : await writeOptions(tx, variant.productId, next);
  await tx
    .insert(variantOptionValues)
    .values(combinationRows(variant.productId, optionIds, [{ id: variant.id, values: combination }]));
}

/** Refuses to restore a variant whose combination is incomplete (a value of it was removed) or held by another. */
export async function assertRestorable(tx: Tx, variantId: number): Promise<void> {
  const [row] = await tx
    .select({ productId: productVariants.productId })
    .from(productVariants)
    .where(eq(productVariants.id, variantId));
  if (!row) return;
  await lockProduct(tx, row.productId);
  const { options, variants } = await currentState(tx, row.productId);
  const variant = variants.find((v) => v.id === variantId);
  if (!variant || options.length === 0) return;
  if (!isComplete(options, variant.values)) {
    throw new DomainError('variant_combination_taken', {
      detail: `variant ${variantId} has no value of every option (one was removed): it cannot be restored`,
      extra: { variants: [variantId] },
    });
  }
  assertDistinct(
    options,
    variants.map((v) => (v.id === variantId ? { ...v, archived: false } : v)),
  );
}

/** One variant's combination (the admin's answer for one variant). */
export async function combinationOfVariant(db: Db, variant: { id: number; productId: number }): Promise<Combination> {
  const rows = await db
    .select({ name: productOptions.name, value: productOptionValues.value })
    .from(variantOptionValues)
    .innerJoin(productOptions, eq(productOptions.id, variantOptionValues.optionId))
    .innerJoin(productOptionValues, eq(productOptionValues.id, variantOptionValues.optionValueId))
    .where(and(eq(variantOptionValues.variantId, variant.id), eq(variantOptionValues.productId, variant.productId)));
  return Object.fromEntries(rows.map((r) => [r.name, r.value]));
}
