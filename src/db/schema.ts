import { relations, sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { StoredPromotionAction, StoredPromotionCondition } from '../pricing/promotions/promotion.types.js';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

export const users = pgTable(
  'users',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    email: text('email').notNull().unique(),
    passwordHash: text('password_hash').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    role: text('role', { enum: ['customer', 'admin'] })
      .notNull()
      .default('customer'),
    ...timestamps,
  },
  (t) => [check('users_role_check', sql`${t.role} in ('customer', 'admin')`)],
);

/**
 * One row per issued refresh token. A token is good once: refreshing marks it used and issues the
 * next token of the same family; presenting a used token again revokes the whole family.
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: uuid('family_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('refresh_tokens_user_idx').on(t.userId), index('refresh_tokens_family_idx').on(t.familyId)],
);

export const addresses = pgTable(
  'addresses',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    streetAddress: text('street_address').notNull().default(''),
    city: text('city').notNull().default(''),
    postalCode: text('postal_code').notNull().default(''),
    state: text('state').notNull().default(''),
    country: text('country').notNull(),
    email: text('email').notNull().default(''),
    phoneNumber: text('phone_number').notNull().default(''),
    isDefault: boolean('is_default').notNull().default(false),
    ...timestamps,
  },
  (t) => [index('addresses_user_idx').on(t.userId, t.id)],
);

/** Tax classes group products taxed alike ("Standard", "Reduced"); rates come with pricing. */
export const taxClasses = pgTable(
  'tax_classes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('tax_classes_name_idx').on(sql`lower(${t.name})`)],
);

export const products = pgTable(
  'products',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    taxClassId: integer('tax_class_id').references(() => taxClasses.id, { onDelete: 'set null' }),
    /** Archived products stay for order history but can't be seen or bought on the storefront. */
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    /**
     * Raised by a trigger (migration 0011) whenever a column a quote reads from this row changes: a
     * placement compares it with the version it was priced at instead of comparing each column.
     */
    pricingVersion: integer('pricing_version').notNull().default(0),
    /** The product's URL name, unique among products (src/catalog/handles.ts); made from its name unless given. */
    handle: text('handle').notNull(),
    /** Search engines' title and description; null: the storefront shows the name and the description. */
    seoTitle: text('seo_title'),
    seoDescription: text('seo_description'),
    ...timestamps,
  },
  (t) => [
    // Storefront listing walks active products in id order (keyset pagination).
    index('products_active_idx').on(t.id).where(sql`${t.archivedAt} is null`),
    uniqueIndex('products_handle_idx').on(t.handle),
    check('products_handle_check', handleCheck(t.handle)),
  ],
);

/** A handle as src/catalog/handles.ts defines it, checked again by the database (cheap, and SQL by hand obeys it). */
function handleCheck(column: AnyPgColumn) {
  return sql`${column} ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and length(${column}) <= 100`;
}

/**
 * The category tree: each category under one parent (null: a top-level one), ordered among its siblings by position.
 * No category is its own ancestor: src/catalog/category-tree.ts refuses such moves; the database refuses only the
 * direct case (parent_id = id), which costs nothing (docs/decisions/0033-categories-and-collections.md).
 */
export const categories = pgTable(
  'categories',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    parentId: integer('parent_id').references((): AnyPgColumn => categories.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    handle: text('handle').notNull(),
    description: text('description').notNull().default(''),
    seoTitle: text('seo_title'),
    seoDescription: text('seo_description'),
    position: integer('position').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('categories_handle_idx').on(t.handle),
    index('categories_parent_idx').on(t.parentId, t.position),
    check('categories_handle_check', handleCheck(t.handle)),
    check('categories_not_own_parent_check', sql`${t.parentId} <> ${t.id}`),
    check('categories_position_check', sql`${t.position} >= 0`),
  ],
);

/** A product in a category; a product may be in several. */
export const productCategories = pgTable(
  'product_categories',
  {
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    categoryId: integer('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.productId, t.categoryId] }),
    // A category's page walks its products in id order (keyset pagination).
    index('product_categories_category_idx').on(t.categoryId, t.productId),
  ],
);

/** A manual collection: products an admin picked, in the order chosen. */
export const collections = pgTable(
  'collections',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    handle: text('handle').notNull(),
    description: text('description').notNull().default(''),
    seoTitle: text('seo_title'),
    seoDescription: text('seo_description'),
    ...timestamps,
  },
  (t) => [uniqueIndex('collections_handle_idx').on(t.handle), check('collections_handle_check', handleCheck(t.handle))],
);

/** The products of a collection at positions 0, 1, 2, … (rewritten whole when the order changes). */
export const collectionProducts = pgTable(
  'collection_products',
  {
    collectionId: integer('collection_id')
      .notNull()
      .references(() => collections.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.collectionId, t.productId] }),
    uniqueIndex('collection_products_position_idx').on(t.collectionId, t.position),
    index('collection_products_product_idx').on(t.productId),
    check('collection_products_position_check', sql`${t.position} >= 0`),
  ],
);

/** A PostgreSQL full-text document (`tsvector`): read and written by SQL only. */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * A product's search document (src/search/, decision 0034): its name, handle, category names, variant names and SKUs,
 * option names and values, and description, weighted A to D; rebuilt by the database in the transaction of every
 * write that changes one of them (triggers of migrations 0030 and 0034), so it is never behind the catalog. Beside it,
 * what the facets count, kept by the same writes and those of prices and stock (migration 0035: only when a variant
 * starts or stops being available): the product's own categories, the option values of its active variants (name and
 * value at the same index), prices and availability, so that a search reads one row per matched product.
 */
export const productSearch = pgTable(
  'product_search',
  {
    productId: integer('product_id')
      .primaryKey()
      .references(() => products.id, { onDelete: 'cascade' }),
    document: tsvector('document').notNull(),
    categoryIds: integer('category_ids').array().notNull().default(sql`'{}'`),
    optionNames: text('option_names').array().notNull().default(sql`'{}'`),
    optionValues: text('option_values').array().notNull().default(sql`'{}'`),
    // What the price and stock facets need (migration 0035): whether an active variant can be bought now, the stored
    // prices of the active variants (distinct, ascending), and the currencies some of them have an explicit price in.
    inStock: boolean('in_stock').notNull().default(false),
    prices: bigint('prices', { mode: 'number' }).array().notNull().default(sql`'{}'`),
    pricedCurrencies: text('priced_currencies').array().notNull().default(sql`'{}'`),
  },
  // Without a pending list (fastupdate): a write adds its entries at once, and no search scans unmerged ones.
  (t) => [
    index('product_search_document_idx').using('gin', t.document).with({ fastupdate: false }),
    // The sold-out products, read by every search (migration 0037): as many entries as products sold out.
    index('product_search_sold_out_idx').on(t.productId).where(sql`not ${t.inStock}`),
  ],
);

/**
 * Every word of the search documents, for typo tolerance: a query word no document word starts with is replaced by
 * the nearest words here by trigram similarity (pg_trgm). Words are added, never removed: one no product has any more
 * matches nothing.
 */
export const searchWords = pgTable('search_words', { word: text('word').primaryKey() }, (t) => [
  index('search_words_trigram_idx').using('gist', t.word.op('gist_trgm_ops')),
  index('search_words_prefix_idx').using('btree', t.word.op('text_pattern_ops')),
]);

/** Money columns hold integer minor units of the store currency. */
const minorUnits = (name: string) => bigint(name, { mode: 'number' });

export const productVariants = pgTable(
  'product_variants',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'restrict' }),
    alias: text('alias').notNull().unique(),
    name: text('name').notNull(),
    sku: text('sku').unique(),
    price: minorUnits('price').notNull(),
    compareAtPrice: minorUnits('compare_at_price'),
    /** Internal: what the store paid. Never shown on the storefront. */
    costPrice: minorUnits('cost_price'),
    weightGrams: numeric('weight_grams', { precision: 12, scale: 3 }),
    trackInventory: boolean('track_inventory').notNull().default(true),
    stock: integer('stock').notNull().default(0),
    allowBackorder: boolean('allow_backorder').notNull().default(false),
    purchaseLimitPerOrder: integer('purchase_limit_per_order'),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    /** Raised by a trigger (migration 0011) whenever a column a quote reads from this row changes. */
    pricingVersion: integer('pricing_version').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    index('product_variants_product_idx').on(t.productId, t.id),
    // The target of variant_option_values' foreign key: a variant's option values belong to its own product.
    unique('product_variants_id_product_unique').on(t.id, t.productId),
    check('product_variants_stock_check', sql`${t.stock} >= 0`),
    check('product_variants_price_check', sql`${t.price} >= 0`),
    check('product_variants_limit_check', sql`${t.purchaseLimitPerOrder} is null or ${t.purchaseLimitPerOrder} > 0`),
  ],
);

/**
 * A product's image: the stored original is named by the SHA-256 of its bytes (`storage_key`), re-encoded without
 * metadata at upload (src/media/). Products show them by `position` (0 first, rewritten 0, 1, 2, … on every change).
 */
export const productMedia = pgTable(
  'product_media',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    storageKey: text('storage_key').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    mime: text('mime').notNull(),
    byteSize: integer('byte_size').notNull(),
    alt: text('alt').notNull(),
    position: integer('position').notNull(),
    ...timestamps,
  },
  (t) => [
    // Positions are rewritten whole under the product's row lock; not unique, so one UPDATE can swap two.
    index('product_media_product_idx').on(t.productId, t.position),
    index('product_media_storage_key_idx').on(t.storageKey),
    check('product_media_storage_key_check', sql`${t.storageKey} ~ '^[0-9a-f]{64}$'`),
    check('product_media_size_check', sql`${t.width} > 0 and ${t.height} > 0 and ${t.byteSize} > 0`),
    check('product_media_alt_check', sql`length(btrim(${t.alt})) > 0`),
    check('product_media_position_check', sql`${t.position} >= 0`),
  ],
);

/** Which of a product's images show a variant (a variant shows its own first). */
export const productMediaVariants = pgTable(
  'product_media_variants',
  {
    mediaId: integer('media_id')
      .notNull()
      .references(() => productMedia.id, { onDelete: 'cascade' }),
    variantId: integer('variant_id')
      .notNull()
      .references(() => productVariants.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.mediaId, t.variantId] }),
    index('product_media_variants_variant_idx').on(t.variantId),
  ],
);

/**
 * A product's options ("Size", "Colour"), at positions 0, 1, 2, …; its variants are combinations of their values
 * (docs/decisions/0036-product-options.md). The rules (at most 3 options of 100 values, one value per option for each
 * active variant, no combination twice) are src/catalog/options.rules.ts; the database checks what rows can.
 */
export const productOptions = pgTable(
  'product_options',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    position: integer('position').notNull(),
  },
  (t) => [
    uniqueIndex('product_options_name_idx').on(t.productId, t.name),
    unique('product_options_id_product_unique').on(t.id, t.productId),
    check('product_options_position_check', sql`${t.position} >= 0`),
  ],
);

/** The values of an option ("S", "M", "L"), in the order the admin gave them. */
export const productOptionValues = pgTable(
  'product_option_values',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    optionId: integer('option_id')
      .notNull()
      .references(() => productOptions.id, { onDelete: 'cascade' }),
    value: text('value').notNull(),
    position: integer('position').notNull(),
  },
  (t) => [
    uniqueIndex('product_option_values_value_idx').on(t.optionId, t.value),
    unique('product_option_values_id_option_unique').on(t.id, t.optionId),
    check('product_option_values_position_check', sql`${t.position} >= 0`),
  ],
);

/**
 * A variant's value of one option of its product: at most one per option (the primary key), of an option of the
 * variant's own product and a value of that option (the composite foreign keys).
 */
export const variantOptionValues = pgTable(
  'variant_option_values',
  {
    variantId: integer('variant_id').notNull(),
    productId: integer('product_id').notNull(),
    optionId: integer('option_id').notNull(),
    optionValueId: integer('option_value_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.variantId, t.optionId] }),
    foreignKey({
      name: 'variant_option_values_variant_fk',
      columns: [t.variantId, t.productId],
      foreignColumns: [productVariants.id, productVariants.productId],
    }).onDelete('cascade'),
    foreignKey({
      name: 'variant_option_values_option_fk',
      columns: [t.optionId, t.productId],
      foreignColumns: [productOptions.id, productOptions.productId],
    }).onDelete('cascade'),
    foreignKey({
      name: 'variant_option_values_value_fk',
      columns: [t.optionValueId, t.optionId],
      foreignColumns: [productOptionValues.id, productOptionValues.optionId],
    }).onDelete('cascade'),
    index('variant_option_values_product_idx').on(t.productId),
    index('variant_option_values_value_idx').on(t.optionValueId),
  ],
);

/**
 * A cart belongs to a user (one each) or to a guest holding its token. Only a SHA-256 of the
 * guest token is stored. A merged guest cart is closed: its token stops working.
 */
export const carts = pgTable(
  'carts',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .unique()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').unique(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** The market the cart was last written in by a request naming one (decision 0031); null: none named yet. */
    marketId: integer('market_id').references((): AnyPgColumn => markets.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    check('carts_owner_check', sql`(${t.userId} is null) <> (${t.tokenHash} is null)`),
    // Partial: a cart that keeps no market (every cart of a one-market store) costs this index nothing.
    index('carts_market_idx').on(t.marketId).where(sql`${t.marketId} is not null`),
  ],
);

export const cartItems = pgTable(
  'cart_items',
  {
    cartId: integer('cart_id')
      .notNull()
      .references(() => carts.id, { onDelete: 'cascade' }),
    variantId: integer('variant_id')
      .notNull()
      .references(() => productVariants.id, { onDelete: 'cascade' }),
    quantity: integer('quantity').notNull(),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.cartId, t.variantId] }), check('cart_items_quantity_check', sql`${t.quantity} > 0`)],
);

/**
 * A tax rate of a class in a country, or in one state of it (`state` empty: the whole country).
 * Without a class (`tax_class_id` null) it is the place's default rate, for classes with no rate there.
 */
export const taxRates = pgTable(
  'tax_rates',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    taxClassId: integer('tax_class_id').references(() => taxClasses.id, { onDelete: 'cascade' }),
    country: text('country').notNull(),
    state: text('state').notNull().default(''),
    /** Percent, up to 4 decimals: "7.25". */
    rate: numeric('rate', { precision: 7, scale: 4 }).notNull(),
    isActive: boolean('is_active').notNull().default(true),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('tax_rates_place_idx').on(t.taxClassId, t.country, sql`upper(${t.state})`),
    // NULLs are distinct in the index above, so it would let two default rates share a place.
    uniqueIndex('tax_rates_default_place_idx')
      .on(t.country, sql`upper(${t.state})`)
      .where(sql`${t.taxClassId} is null`),
    index('tax_rates_country_idx').on(t.country),
    check('tax_rates_rate_check', sql`${t.rate} >= 0 and ${t.rate} <= 100`),
  ],
);

export const shippingMethods = pgTable('shipping_methods', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  isActive: boolean('is_active').notNull().default(true),
  /** Shipping is taxed at this class's rate; null: at the highest rate of the order's lines. */
  taxClassId: integer('tax_class_id').references(() => taxClasses.id, { onDelete: 'set null' }),
  ...timestamps,
});

/**
 * A price of a shipping method for a place (empty country/state/city: any) and a weight bracket.
 * fee = base_rate + per_kg_rate × (order kg − weight_min_kg).
 */
export const shippingRates = pgTable(
  'shipping_rates',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    shippingMethodId: integer('shipping_method_id')
      .notNull()
      .references(() => shippingMethods.id, { onDelete: 'cascade' }),
    country: text('country').notNull().default(''),
    state: text('state').notNull().default(''),
    city: text('city').notNull().default(''),
    weightMinKg: numeric('weight_min_kg', { precision: 12, scale: 3 }).notNull().default('0'),
    weightMaxKg: numeric('weight_max_kg', { precision: 12, scale: 3 }),
    baseRate: minorUnits('base_rate').notNull(),
    perKgRate: minorUnits('per_kg_rate').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    index('shipping_rates_method_idx').on(t.shippingMethodId),
    check('shipping_rates_bracket_check', sql`${t.weightMaxKg} is null or ${t.weightMaxKg} > ${t.weightMinKg}`),
    check('shipping_rates_amounts_check', sql`${t.baseRate} >= 0 and ${t.perKgRate} >= 0`),
  ],
);

/**
 * A shipping rate's amounts in a currency other than the store's, in minor units of that currency (the row says
 * which): a market in that currency charges them instead of converting the rate's own (decision 0037). Same place
 * and bracket as its rate; only the money differs.
 */
export const shippingRatePrices = pgTable(
  'shipping_rate_prices',
  {
    shippingRateId: integer('shipping_rate_id')
      .notNull()
      .references(() => shippingRates.id, { onDelete: 'cascade' }),
    currency: text('currency').notNull(),
    baseRate: minorUnits('base_rate').notNull(),
    perKgRate: minorUnits('per_kg_rate').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.shippingRateId, t.currency] }),
    check('shipping_rate_prices_currency_check', sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check('shipping_rate_prices_amounts_check', sql`${t.baseRate} >= 0 and ${t.perKgRate} >= 0`),
  ],
);

/**
 * A promotion's conditions and action as stored (jsonb): the admin API's wire form (snake_case, product ids), except
 * that money is an integer of minor units of the store currency, as in every money column. The store currency lives
 * in the environment, not in the database, so a migration could not write "5.00"; minor units need no currency to be
 * written and cannot fail to parse when read. Percentages are canonical decimal strings ("12.5"). Optional fields are
 * stored as null when absent. Each kind's form is derived from its module's fields
 * (src/pricing/promotions/kind-fields.ts); src/promotions/promotions.mapper.ts turns them into what pricing uses.
 */
export type { StoredPromotionAction, StoredPromotionCondition };

/**
 * A discount the store runs (SPEC section 10): automatic when `code` is null, else the promo code a customer types.
 * Archived promotions are kept for their orders' history; they neither apply nor hold their code.
 */
export const promotions = pgTable(
  'promotions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    /** Stored upper-case; unique among promotions not archived. Null: automatic. */
    code: text('code'),
    isActive: boolean('is_active').notNull().default(true),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    /** Exclusive. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** Higher applies first. */
    priority: integer('priority').notNull().default(0),
    /** False: exclusive. */
    combinable: boolean('combinable').notNull().default(true),
    redemptionLimit: integer('redemption_limit'),
    usageLimitPerCustomer: integer('usage_limit_per_customer'),
    newCustomersOnly: boolean('new_customers_only').notNull().default(false),
    /** User ids allowed; null: anyone. */
    specificCustomers: integer('specific_customers').array(),
    conditions: jsonb('conditions').$type<StoredPromotionCondition[]>().notNull().default([]),
    action: jsonb('action').$type<StoredPromotionAction>().notNull(),
    /** Redemptions so far; raised in the placement transaction with a guarded update. */
    timesUsed: integer('times_used').notNull().default(0),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('promotions_code_idx').on(t.code).where(sql`${t.archivedAt} is null`),
    // The automatic promotions every quote considers.
    index('promotions_automatic_idx')
      .on(t.priority.desc(), t.id)
      .where(sql`${t.code} is null and ${t.archivedAt} is null and ${t.isActive}`),
    check('promotions_code_check', sql`${t.code} = upper(${t.code})`),
    check(
      'promotions_dates_check',
      sql`${t.startsAt} is null or ${t.expiresAt} is null or ${t.startsAt} < ${t.expiresAt}`,
    ),
    check('promotions_times_used_check', sql`${t.timesUsed} >= 0`),
  ],
);

/**
 * The terms of a promotion as an order applied them, in the stored form of `promotions` (priority, combinable,
 * conditions, action): what pricing the order again needs, kept with the order because the promotion may change or be
 * archived later. Who and when it was for (window, limits, customers) held at placement and is not kept.
 */
export interface OrderPromotionTerms {
  priority: number;
  combinable: boolean;
  conditions: StoredPromotionCondition[];
  action: StoredPromotionAction;
}

/** An applied promotion as an order keeps it (amounts in minor units). */
export interface OrderPromotion {
  id: number;
  name: string;
  code: string | null;
  kind: string;
  amount: number;
  /** Its terms as they were when the order was placed; absent on orders placed before they were kept. */
  terms?: OrderPromotionTerms;
}

/** What one promotion took off one order line (minor units). */
export interface LineAdjustmentRow {
  promotion_id: number;
  amount: number;
}

/**
 * One option value of a sold variant ("Size": "Small"), as it was at placement (empty for a product whose only option
 * is the stand-in "Title" of decision 0036, and on lines placed before lines kept them).
 */
export interface LineOptionRow {
  name: string;
  value: string;
}

/**
 * The image a line showed when it was sold (the variant's first, else its product's; decision 0039): the stored
 * original's key (content-addressed, never deleted, so it stays servable) with its alt text and size.
 */
export interface LineImageRow {
  key: string;
  alt: string;
  width: number;
  height: number;
}

/** An address as it was when the order was placed (the seed's address object). */
export interface AddressSnapshot {
  first_name: string;
  last_name: string;
  street_address: string;
  city: string;
  postal_code: string;
  state: string;
  country: string;
  email: string;
  phone_number: string;
}

export const orderStatuses = ['pending', 'approved', 'processing', 'shipped', 'delivered', 'cancelled'] as const;
/** How far an order's units went out: a function of its lines and fulfillments (src/orders/fulfillment.decide.ts). */
export const fulfillmentStatuses = [
  'unfulfilled',
  'partially_fulfilled',
  'fulfilled',
  'partially_shipped',
  'shipped',
  'delivered',
  'partially_returned',
  'returned',
] as const;
/** An order's payment status: a function of its ledger (src/orders/order-ledger.ts). */
export const paymentStatuses = [
  'unpaid',
  'authorized',
  'partially_paid',
  'paid',
  'partially_refunded',
  'refunded',
  'overpaid',
] as const;

/**
 * A placed order: prices, tax rates, discount and addresses are snapshots, so later catalog or
 * rate changes never alter it. Amounts in minor units of `currency`.
 */
export const orders = pgTable(
  'orders',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    alias: text('alias').notNull().unique(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Normalised email of the buyer (the user's, or the guest's from the address). */
    email: text('email'),
    /** SHA-256 of the guest's order token. */
    orderTokenHash: text('order_token_hash'),
    /** The admin who placed it for the customer, if any. */
    placedBy: integer('placed_by').references(() => users.id, { onDelete: 'set null' }),
    status: text('status', { enum: orderStatuses }).notNull().default('pending'),
    paymentStatus: text('payment_status', { enum: paymentStatuses }).notNull().default('unpaid'),
    currency: text('currency').notNull(),
    pricesIncludeTax: boolean('prices_include_tax').notNull(),
    /**
     * The market it was placed in (issue #28, decision 0031), its exchange rate then (major units of `currency` per
     * major unit of the store currency, exact) and its total in the store currency, for reports. Null on orders placed
     * before markets (migration 0028): those are the default market's, at rate 1, `total` in the store currency.
     */
    marketId: integer('market_id').references(() => markets.id, { onDelete: 'restrict' }),
    exchangeRate: numeric('exchange_rate', { precision: 24, scale: 10 }),
    totalInStoreCurrency: minorUnits('total_in_store_currency'),
    subtotal: minorUnits('subtotal').notNull(),
    discount: minorUnits('discount').notNull(),
    discountName: text('discount_name'),
    /** The code the customer typed, when its promotion applied. */
    promoCode: text('promo_code'),
    /** The promotions that applied, as the result showed them (SPEC section 10). */
    promotions: jsonb('promotions').$type<OrderPromotion[]>().notNull().default([]),
    /** What promotions took off the shipping fee; part of `discount`. */
    shippingDiscount: minorUnits('shipping_discount').notNull().default(0),
    shippingMethodId: integer('shipping_method_id').references(() => shippingMethods.id, { onDelete: 'set null' }),
    shippingName: text('shipping_name'),
    shippingFee: minorUnits('shipping_fee').notNull(),
    shippingTaxRate: numeric('shipping_tax_rate', { precision: 7, scale: 4 }),
    shippingTax: minorUnits('shipping_tax').notNull(),
    estimatedTax: minorUnits('estimated_tax').notNull(),
    totalWithoutTax: minorUnits('total_without_tax').notNull(),
    total: minorUnits('total').notNull(),
    totalItems: integer('total_items').notNull(),
    shippingAddress: jsonb('shipping_address').$type<AddressSnapshot>(),
    billingAddress: jsonb('billing_address').$type<AddressSnapshot>(),
    note: text('note').notNull().default(''),
    /**
     * The sequence number of the order's latest event (src/events): each event about the order takes the next one,
     * in the transaction of the change it records, so an order's events are numbered 1, 2, 3… without gaps.
     */
    eventSeq: integer('event_seq').notNull().default(0),
    /**
     * Why a cancelled order was cancelled, when the service did it rather than an admin: `expired` (unpaid past
     * UNPAID_ORDER_TTL_MINUTES, src/orders/order-expiry.ts). Null otherwise.
     */
    cancelReason: text('cancel_reason', { enum: ['expired'] }),
    /**
     * The order's ledger totals over all its payments, kept with every change of a payment in the same transaction
     * (src/payments/payments-ledger.ts): money authorized, captured and refunded, and what was credited (given back
     * without changing the order's lines: the goodwill part of refunds).
     */
    amountAuthorized: minorUnits('amount_authorized').notNull().default(0),
    amountCaptured: minorUnits('amount_captured').notNull().default(0),
    amountRefunded: minorUnits('amount_refunded').notNull().default(0),
    amountCredited: minorUnits('amount_credited').notNull().default(0),
    /** Money held by open authorizations (authorized, not yet captured or voided). */
    amountCapturable: minorUnits('amount_capturable').notNull().default(0),
    /**
     * How far its units have gone out (fulfillmentStatuses), kept with every change of its fulfillments in the same
     * transaction: the one function `fulfillmentStatusOf` (src/orders/fulfillment.decide.ts) derives it.
     */
    fulfillmentStatus: text('fulfillment_status', { enum: fulfillmentStatuses }).notNull().default('unfulfilled'),
    /**
     * What refunded returns gave back for the goods (and shipping) that came back (src/returns): the order charges its
     * total less this (src/orders/order-ledger.ts), so a return's refund is not a credit. Kept with every refunded
     * return in its transaction; the order's lines and total stay as sold.
     */
    amountReturned: minorUnits('amount_returned').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    index('orders_user_idx').on(t.userId, t.id),
    index('orders_email_idx').on(t.email),
    index('orders_status_idx').on(t.status, t.id),
    index('orders_created_idx').on(t.createdAt),
    index('orders_market_idx').on(t.marketId),
  ],
);

export const orderLines = pgTable(
  'order_lines',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    variantId: integer('variant_id').references(() => productVariants.id, { onDelete: 'set null' }),
    productId: integer('product_id'),
    alias: text('alias').notNull(),
    /**
     * What was sold, as it was at placement (a later rename or deletion in the catalog changes none of it): the
     * product's name (null on lines placed before migration 0020 whose product was gone by then), the variant's name
     * (column `name`), its SKU and option values. `lineDisplayName` (src/orders/order-line.ts) makes one name of them.
     */
    productName: text('product_name'),
    variantName: text('name').notNull(),
    sku: text('sku'),
    options: jsonb('options').$type<LineOptionRow[]>().notNull().default([]),
    /** Its image as sold; null: the product had none (or the line was placed before lines kept one). */
    image: jsonb('image').$type<LineImageRow>(),
    quantity: integer('quantity').notNull(),
    unitPrice: minorUnits('unit_price').notNull(),
    subtotal: minorUnits('subtotal').notNull(),
    discount: minorUnits('discount').notNull(),
    /** What each applied promotion took off this line (Σ = discount). */
    adjustments: jsonb('adjustments').$type<LineAdjustmentRow[]>().notNull().default([]),
    taxClassName: text('tax_class_name'),
    taxRate: numeric('tax_rate', { precision: 7, scale: 4 }).notNull(),
    tax: minorUnits('tax').notNull(),
    total: minorUnits('total').notNull(),
    /** Whether stock was taken for this line (tracked, non-backorder), so a cancel gives it back. */
    stockReserved: boolean('stock_reserved').notNull().default(false),
  },
  (t) => [index('order_lines_order_idx').on(t.orderId)],
);

export const fulfillmentStates = ['pending', 'shipped', 'delivered', 'cancelled'] as const;

/**
 * One shipment of some of an order's units (src/orders/fulfillment-states.ts): `pending` (being packed) → `shipped`
 * → `delivered`, or `cancelled` from pending only, which gives its quantities back to what can be fulfilled.
 * `tracking_url` is the carrier's page for `tracking_number` (from CARRIER_TRACKING_URLS, or given); each moment is
 * kept as it happened. `created_by`: the admin who made it.
 */
export const fulfillments = pgTable(
  'fulfillments',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    status: text('status', { enum: fulfillmentStates }).notNull().default('pending'),
    carrier: text('carrier'),
    trackingNumber: text('tracking_number'),
    trackingUrl: text('tracking_url'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    shippedAt: timestamp('shipped_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index('fulfillments_order_idx').on(t.orderId, t.id),
    check('fulfillments_status_check', sql`${t.status} in ('pending', 'shipped', 'delivered', 'cancelled')`),
  ],
);

/** How many units of one order line a fulfillment holds. */
export const fulfillmentLines = pgTable(
  'fulfillment_lines',
  {
    fulfillmentId: integer('fulfillment_id')
      .notNull()
      .references(() => fulfillments.id, { onDelete: 'cascade' }),
    orderLineId: integer('order_line_id')
      .notNull()
      .references(() => orderLines.id, { onDelete: 'cascade' }),
    quantity: integer('quantity').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.fulfillmentId, t.orderLineId] }),
    index('fulfillment_lines_order_line_idx').on(t.orderLineId),
    check('fulfillment_lines_quantity_check', sql`${t.quantity} > 0`),
  ],
);

/** One use of a promotion by one order; released when the order is cancelled. */
export const promotionRedemptions = pgTable(
  'promotion_redemptions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    promotionId: integer('promotion_id')
      .notNull()
      .references(() => promotions.id, { onDelete: 'cascade' }),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Normalised email of the buyer: a guest's usage is counted by it. */
    email: text('email'),
    releasedAt: timestamp('released_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('promotion_redemptions_order_idx').on(t.promotionId, t.orderId),
    index('promotion_redemptions_user_idx').on(t.promotionId, t.userId),
    index('promotion_redemptions_email_idx').on(t.promotionId, t.email),
  ],
);

/**
 * The first successful answer to a request sent with an Idempotency-Key, kept so a retry gets the
 * same answer instead of a second order. Keys are scoped to the caller and kept 24 hours.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    responseStatus: integer('response_status').notNull(),
    responseBody: jsonb('response_body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

/**
 * Secrets the service generates for the store (the token signing key, plugins' keys): created once,
 * at the first start, and read by every process on this database, so they belong to the store and
 * not to a machine or a checkout.
 */
export const storeSecrets = pgTable('store_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Rate-limit counters shared by every process of a store on PostgreSQL: the hits of one key (limit,
 * client) in its current window. A row whose window has ended counts from 1 again on the next hit.
 * UNLOGGED (in the migration): losing counts in a crash is harmless, and no hit writes WAL.
 */
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    windowEndsAt: timestamp('window_ends_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limit_counters_window_ends_idx').on(t.windowEndsAt)],
);

/** In the order a payment may move through them (see src/payments/payment-states.ts). */
export const paymentStatesList = [
  'pending',
  'expired',
  'superseded',
  'failed',
  'authorized',
  'voided',
  'succeeded',
  'partially_refunded',
  'refunded',
] as const;

/**
 * One attempt to pay (part of) an order through one plugin. `reference` is what the service gives
 * the gateway and the only key webhooks are matched on; amounts in minor units of `currency`.
 */
export const payments = pgTable(
  'payments',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    reference: text('reference').notNull().unique(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    pluginId: text('plugin_id').notNull(),
    status: text('status', { enum: paymentStatesList }).notNull().default('pending'),
    amount: minorUnits('amount').notNull(),
    currency: text('currency').notNull(),
    amountCaptured: minorUnits('amount_captured').notNull().default(0),
    amountRefunded: minorUnits('amount_refunded').notNull().default(0),
    /** How start() asked the gateway to take the money (PAYMENT_CAPTURE and the plugin's capabilities). */
    captureMethod: text('capture_method', { enum: ['automatic', 'manual'] })
      .notNull()
      .default('automatic'),
    /** Money the gateway holds for this attempt (manual capture), or held and taken at once (automatic). */
    amountAuthorized: minorUnits('amount_authorized').notNull().default(0),
    /** What of the authorization was released unused (a void, or the rest after a final partial capture). */
    amountVoided: minorUnits('amount_voided').notNull().default(0),
    /** When the gateway lets the authorization lapse, if it said. */
    authorizationExpiresAt: timestamp('authorization_expires_at', { withTimezone: true }),
    /** The gateway's own id of the attempt (a Checkout Session id, say), once it has one. */
    gatewayRef: text('gateway_ref'),
    /** The gateway's id of the money movement (a PaymentIntent id), learnt from its events. */
    gatewayPaymentRef: text('gateway_payment_ref'),
    redirectUrl: text('redirect_url'),
    returnUrl: text('return_url'),
    cancelUrl: text('cancel_url'),
    ...timestamps,
  },
  (t) => [
    index('payments_order_idx').on(t.orderId),
    index('payments_gateway_ref_idx').on(t.pluginId, t.gatewayRef),
    index('payments_gateway_payment_ref_idx').on(t.pluginId, t.gatewayPaymentRef),
  ],
);

export const paymentOperationKinds = ['capture', 'void', 'refund'] as const;
export const paymentOperationStatuses = ['pending', 'succeeded', 'failed'] as const;

/**
 * The ledger's records of money moving on a payment: captures and refunds (and voids) the store asked for, and those
 * a gateway reported that the store did not ask for (`source` gateway). A payment's captured and refunded figures are
 * the sums of its succeeded records; a pending record (its gateway call not yet answered, or answered with an
 * unknown outcome) reserves its amount, so two admins can never refund more than was captured. `credit`: the part of a
 * refund that was given back without changing the order (goodwill), decided when the refund is recorded.
 * `request_key`: the Idempotency-Key of the admin request, so a retry resumes the same record and the gateway sees the
 * same key (`gateway_key`).
 */
export const paymentOperations = pgTable(
  'payment_operations',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'restrict' }),
    orderId: integer('order_id').notNull(),
    kind: text('kind', { enum: paymentOperationKinds }).notNull(),
    status: text('status', { enum: paymentOperationStatuses }).notNull(),
    source: text('source', { enum: ['admin', 'gateway', 'system'] }).notNull(),
    amount: minorUnits('amount').notNull(),
    credit: minorUnits('credit').notNull().default(0),
    requestKey: text('request_key'),
    gatewayKey: text('gateway_key').notNull(),
    gatewayRef: text('gateway_ref'),
    error: text('error'),
    adminId: integer('admin_id'),
    /** The return whose refund this is (src/returns), if it is one. */
    returnId: integer('return_id'),
    ...timestamps,
  },
  (t) => [
    index('payment_operations_payment_idx').on(t.paymentId, t.id),
    index('payment_operations_order_idx').on(t.orderId, t.id),
    uniqueIndex('payment_operations_request_idx')
      .on(t.paymentId, t.kind, t.requestKey)
      .where(sql`${t.requestKey} is not null`),
  ],
);

/** Every webhook event once, by (plugin, gateway event id): a repeat delivery finds it and changes nothing. */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    pluginId: text('plugin_id').notNull(),
    eventId: text('event_id').notNull(),
    paymentId: integer('payment_id').references(() => payments.id, { onDelete: 'set null' }),
    kind: text('kind').notNull(),
    amount: minorUnits('amount'),
    currency: text('currency'),
    /**
     * For an event that matched no payment yet: the gateway payment id it named, so it can be
     * applied when a later event teaches a payment that id (gateways don't promise delivery order).
     */
    pendingGatewayPaymentRef: text('pending_gateway_payment_ref'),
    /** Whether the event moved the payment (false: duplicate state, out of order, or unmatched). */
    applied: boolean('applied').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payment_events_once_idx').on(t.pluginId, t.eventId),
    index('payment_events_pending_idx')
      .on(t.pluginId, t.pendingGatewayPaymentRef)
      .where(sql`${t.pendingGatewayPaymentRef} is not null`),
  ],
);

/** What the service tells the world about (SPEC section 11; docs/events.md). */
export const eventTypes = [
  'order.placed',
  'order.paid',
  'order.status_changed',
  'order.cancelled',
  'order.expired',
  'order.paid_after_expiry',
  'order.edited',
  'payment.succeeded',
  'payment.failed',
  'payment.refunded',
  'payment.authorized',
  'payment.captured',
  'payment.voided',
  'fulfillment.created',
  'fulfillment.shipped',
  'fulfillment.delivered',
  'fulfillment.cancelled',
  'return.requested',
  'return.received',
  'return.refunded',
  'return.rejected',
  'return.cancelled',
] as const;

/**
 * The transactional outbox: every event, written in the transaction of the change it records, and kept. `data` is
 * the order (or payment) as the admin API shows it right after the change. `id` is a UUID version 7 (time first),
 * so ids sort by creation: the list's order and page cursor. `seq` numbers an order's events 1, 2, 3…
 * (orders.event_seq holds the last). No foreign keys: an event is written only with its order, by this service, and
 * orders are never deleted, while a key's check would cost every placement a lookup and a row lock per event
 * (docs/events.md).
 */
export const events = pgTable(
  'events',
  {
    id: uuid('id').primaryKey(),
    type: text('type', { enum: eventTypes }).notNull(),
    orderId: integer('order_id'),
    paymentId: integer('payment_id'),
    seq: integer('seq'),
    data: jsonb('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('events_order_seq_idx').on(t.orderId, t.seq), index('events_type_idx').on(t.type, t.id)],
);

export const jobStatuses = ['queued', 'running', 'done', 'failed'] as const;

/**
 * Background work every process of the store shares (src/jobs): a worker claims due rows with FOR UPDATE SKIP
 * LOCKED, setting a lease (`locked_by`, `locked_until`) it renews while the job runs; a lease that runs out (its
 * process died) makes the job due again. `attempts` counts claims. A job with a `key` exists once per (kind, key).
 * `max_attempts` and `give_up_at` override the kind's retry policy for one job.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    key: text('key'),
    payload: jsonb('payload').notNull().default({}),
    status: text('status', { enum: jobStatuses }).notNull().default('queued'),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts'),
    giveUpAt: timestamp('give_up_at', { withTimezone: true }),
    lockedBy: text('locked_by'),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('jobs_kind_key_idx').on(t.kind, t.key).where(sql`${t.key} is not null`),
    // In the claim's order (run_at, id), so a claim reads the few rows it takes however long the queue is.
    index('jobs_queued_idx').on(t.runAt, t.id).where(sql`${t.status} = 'queued'`),
    index('jobs_lease_idx').on(t.lockedUntil).where(sql`${t.status} = 'running'`),
    index('jobs_finished_idx').on(t.finishedAt).where(sql`${t.finishedAt} is not null`),
    check('jobs_status_check', sql`${t.status} in ('queued', 'running', 'done', 'failed')`),
  ],
);

/**
 * A receiver of outbound webhooks. `secret` (`whsec_` + base64) signs every delivery, so it is kept
 * as it is, like the store's other secrets (src/db/store-secrets.ts); the API shows it only when it is
 * made (create, rotate). `failing_since`: when the first of the failures since its last success
 * happened; past 24 hours the endpoint is switched off and `disabled_reason` says why.
 */
export const webhookEndpoints = pgTable('webhook_endpoints', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  url: text('url').notNull(),
  events: text('events').array().notNull(),
  description: text('description').notNull().default(''),
  isActive: boolean('is_active').notNull().default(true),
  disabledReason: text('disabled_reason'),
  secret: text('secret').notNull(),
  failingSince: timestamp('failing_since', { withTimezone: true }),
  ...timestamps,
});

export const webhookDeliveryStatuses = ['pending', 'succeeded', 'failed'] as const;

/**
 * One event for one endpoint. `event_id` names the event of the outbox (no foreign key: the events
 * table is another module's, and deliveries keep their own copy of the envelope in `payload`).
 * `message_id` is the `webhook-id` header, the same on every attempt so receivers can drop repeats.
 * `next_attempt_at` is null once the delivery is settled; while an attempt runs it holds the end of
 * that attempt's lease. `first_attempt_at` starts the retry window (a redelivery clears it). A pending
 * delivery is its own queue entry: the dispatcher claims the due ones (decision 0044).
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    messageId: text('message_id').notNull().unique(),
    payload: jsonb('payload').notNull(),
    status: text('status', { enum: webhookDeliveryStatuses }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    firstAttemptAt: timestamp('first_attempt_at', { withTimezone: true }),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    lastResponseCode: integer('last_response_code'),
    lastDurationMs: integer('last_duration_ms'),
    lastError: text('last_error'),
    ...timestamps,
  },
  (t) => [
    check('webhook_deliveries_status_check', sql`${t.status} in ('pending', 'succeeded', 'failed')`),
    uniqueIndex('webhook_deliveries_event_once_idx').on(t.endpointId, t.eventId),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id),
    // The dispatcher's queue: pending deliveries in the order they come due (decision 0044).
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt, t.id).where(sql`${t.status} = 'pending'`),
  ],
);

/** Every attempt of a delivery, for its log. `response_snippet`: the start of the answer's body, nothing more. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    deliveryId: integer('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull(),
    responseCode: integer('response_code'),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
    responseSnippet: text('response_snippet'),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.id)],
);

/**
 * Why customers send things back (issue #27 item 2): a list the admin keeps. A return line names one by `code`; a
 * reason no longer offered is made inactive, never deleted, so the returns that named it still say why.
 */
export const returnReasons = pgTable('return_reasons', {
  code: text('code').primaryKey(),
  label: text('label').notNull(),
  active: boolean('active').notNull().default(true),
  /** Where it comes in the lists (then by code). */
  position: integer('position').notNull().default(0),
  ...timestamps,
});

export const returnStates = ['requested', 'received', 'refunded', 'rejected', 'cancelled'] as const;

/** The figures a refunded return gave back (src/pricing/return-refund.ts), minor units of the order's currency. */
export interface ReturnRefundRow {
  goods: number;
  discount: number;
  tax: number;
  shipping_fee: number;
  shipping_discount: number;
  shipping_tax: number;
  amount: number;
}

/**
 * A return of shipped units of one order (src/returns/return-states.ts): `requested` (by the customer or an admin) →
 * `received` (the goods are back; restocked per line) → `refunded` (what the units were paid, given back), or
 * `rejected` / `cancelled`. `refund`: the figures it gave back, once refunded.
 */
export const returns = pgTable(
  'returns',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    status: text('status', { enum: returnStates }).notNull().default('requested'),
    note: text('note').notNull().default(''),
    requestedBy: text('requested_by', { enum: ['customer', 'admin'] }).notNull(),
    /** The admin who opened it, when one did. */
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** Why an admin rejected it (shown to the customer). */
    rejectReason: text('reject_reason'),
    refundShipping: boolean('refund_shipping').notNull().default(false),
    refund: jsonb('refund').$type<ReturnRefundRow>(),
    receivedAt: timestamp('received_at', { withTimezone: true }),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    rejectedAt: timestamp('rejected_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index('returns_order_idx').on(t.orderId, t.id),
    index('returns_status_idx').on(t.status, t.id),
    check('returns_status_check', sql`${t.status} in ('requested', 'received', 'refunded', 'rejected', 'cancelled')`),
  ],
);

/** Units of one order line a return gives back, why, and whether they went back into stock when received. */
export const returnLines = pgTable(
  'return_lines',
  {
    returnId: integer('return_id')
      .notNull()
      .references(() => returns.id, { onDelete: 'cascade' }),
    orderLineId: integer('order_line_id')
      .notNull()
      .references(() => orderLines.id, { onDelete: 'cascade' }),
    quantity: integer('quantity').notNull(),
    reasonCode: text('reason_code')
      .notNull()
      .references(() => returnReasons.code, { onDelete: 'restrict', onUpdate: 'cascade' }),
    /** Set when received: whether its units went back into stock. */
    restock: boolean('restock'),
  },
  (t) => [
    primaryKey({ columns: [t.returnId, t.orderLineId] }),
    index('return_lines_order_line_idx').on(t.orderLineId),
    check('return_lines_quantity_check', sql`${t.quantity} > 0`),
  ],
);

/** One line of an order edit as its history keeps it: the quantity before and after (0: absent), at its unit price. */
export interface OrderEditLineRow {
  alias: string;
  name: string;
  unit_price: number;
  before: number;
  after: number;
}

/**
 * An admin's edit of an order's lines (issue #27 item 3), kept for the order's history: who, when, why, the lines that
 * changed and the totals around it. The order's own figures are the edited ones; the ledger shows the difference.
 */
export const orderEdits = pgTable(
  'order_edits',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    editedBy: integer('edited_by').references(() => users.id, { onDelete: 'set null' }),
    note: text('note').notNull().default(''),
    lines: jsonb('lines').$type<OrderEditLineRow[]>().notNull(),
    totalBefore: minorUnits('total_before').notNull(),
    totalAfter: minorUnits('total_after').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('order_edits_order_idx').on(t.orderId, t.id)],
);

export const productRelations = relations(products, ({ many }) => ({ variants: many(productVariants) }));
export const variantRelations = relations(productVariants, ({ one }) => ({
  product: one(products, { fields: [productVariants.productId], references: [products.id] }),
}));

export const roundingDirections = ['nearest', 'up', 'down'] as const;

/**
 * A market (issue #28, decision 0031): countries sold to in one currency. The default market is the store as it was
 * before markets: its currency, tax inclusivity, rate and rounding are null here and read from STORE_CURRENCY and
 * PRICES_INCLUDE_TAX, which a migration cannot know. Every other market has its currency, its inclusivity and an exact
 * exchange rate from the default currency (major units of its currency per major unit of the default one).
 */
export const markets = pgTable(
  'markets',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    currency: text('currency'),
    pricesIncludeTax: boolean('prices_include_tax'),
    exchangeRate: numeric('exchange_rate', { precision: 24, scale: 10 }),
    /** Major units of the market's currency; null: its minor unit (no rounding beyond its precision). */
    roundingStep: numeric('rounding_step', { precision: 28, scale: 4 }),
    /** Major units, below the step: converted prices become k × step + ending. */
    priceEnding: numeric('price_ending', { precision: 28, scale: 4 }).notNull().default('0'),
    roundingDirection: text('rounding_direction', { enum: roundingDirections }).notNull().default('nearest'),
    isDefault: boolean('is_default').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('markets_code_idx').on(t.code),
    // At most one default; the migration makes it and the API never removes it, so there is exactly one.
    uniqueIndex('markets_one_default_idx').on(t.isDefault).where(sql`${t.isDefault}`),
    check('markets_code_check', sql`${t.code} ~ '^[a-z0-9_-]{1,32}$'`),
    check('markets_currency_check', sql`${t.currency} is null or ${t.currency} ~ '^[A-Z]{3}$'`),
    check(
      'markets_default_check',
      sql`(${t.isDefault} and ${t.currency} is null and ${t.pricesIncludeTax} is null and ${t.exchangeRate} is null)
        or (not ${t.isDefault} and ${t.currency} is not null and ${t.pricesIncludeTax} is not null
            and ${t.exchangeRate} > 0)`,
    ),
    check(
      'markets_rounding_check',
      sql`${t.priceEnding} >= 0
        and (${t.roundingStep} is null or (${t.roundingStep} > 0 and ${t.priceEnding} < ${t.roundingStep}))`,
    ),
    check('markets_rounding_direction_check', sql`${t.roundingDirection} in ('nearest', 'up', 'down')`),
  ],
);

/** The countries of a market: a country belongs to at most one (its primary key). The default market serves the rest. */
export const marketCountries = pgTable(
  'market_countries',
  {
    country: text('country').primaryKey(),
    marketId: integer('market_id')
      .notNull()
      .references(() => markets.id, { onDelete: 'cascade' }),
  },
  (t) => [
    index('market_countries_market_idx').on(t.marketId),
    check('market_countries_country_check', sql`${t.country} ~ '^[A-Z]{2}$'`),
  ],
);

/**
 * Payment plugins a market offers (none listed: every enabled plugin). Plugins are folders and packages enabled by
 * PAYMENT_PLUGINS, not rows, so the id has no foreign key.
 */
export const marketPaymentPlugins = pgTable(
  'market_payment_plugins',
  {
    marketId: integer('market_id')
      .notNull()
      .references(() => markets.id, { onDelete: 'cascade' }),
    pluginId: text('plugin_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.marketId, t.pluginId] })],
);

/** Shipping methods a market offers (none listed: every active method). */
export const marketShippingMethods = pgTable(
  'market_shipping_methods',
  {
    marketId: integer('market_id')
      .notNull()
      .references(() => markets.id, { onDelete: 'cascade' }),
    shippingMethodId: integer('shipping_method_id')
      .notNull()
      .references(() => shippingMethods.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.marketId, t.shippingMethodId] }),
    index('market_shipping_methods_method_idx').on(t.shippingMethodId),
  ],
);

/**
 * A variant's explicit price in a currency other than the default one, in minor units of that currency (the row says
 * which). Without one, a market shows the default price converted at its rate (src/markets/market-price.ts).
 */
export const variantPrices = pgTable(
  'variant_prices',
  {
    variantId: integer('variant_id')
      .notNull()
      .references(() => productVariants.id, { onDelete: 'cascade' }),
    currency: text('currency').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    compareAtAmount: bigint('compare_at_amount', { mode: 'number' }),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.variantId, t.currency] }),
    check('variant_prices_currency_check', sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check(
      'variant_prices_amounts_check',
      sql`${t.amount} >= 0 and (${t.compareAtAmount} is null or ${t.compareAtAmount} >= 0)`,
    ),
  ],
);
