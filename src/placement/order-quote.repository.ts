import { and, count, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import { isBuyable } from '../catalog/availability.js';
import type { Db, Tx } from '../db/client.js';
import { orderOwners, redemptionOwner } from '../pricing/promotions/customer.js';
import type { Promotion } from '../pricing/promotions/promotion.types.js';
import { promotionFromRow } from '../promotions/promotions.mapper.js';
import { activePromotionRows, type PromotionRow, promotionRowByCode } from '../promotions/promotions.repository.js';
import {
  addresses,
  type LineImageRow,
  type LineOptionRow,
  orders,
  products,
  productVariants,
  promotionRedemptions,
  promotions,
  shippingMethods,
  shippingRates,
  taxClasses,
  taxRates,
} from '../db/schema.js';
import { type ExplicitPrices, explicitPricesColumn, explicitPricesOf } from '../markets/variant-prices.repository.js';
import { ratePricesColumn, ratePricesOf } from '../shipping/shipping.repository.js';
import { lineImageOf, variantImageColumn } from '../media/media.repository.js';
import { variantOptionsColumn } from '../catalog/options.repository.js';
import { optionsAsSold } from '../orders/order-line.js';

type Conn = Db | Tx;

export interface OrderableVariant {
  id: number;
  alias: string;
  name: string;
  sku: string | null;
  productId: number;
  productName: string;
  /** The variant's option values as an order line keeps them (`optionsAsSold`). */
  options: LineOptionRow[];
  /** Its image: its own first, else its product's first; null when the product has none. */
  image: LineImageRow | null;
  price: number;
  weightGrams: string | null;
  trackInventory: boolean;
  allowBackorder: boolean;
  purchaseLimitPerOrder: number | null;
  buyable: boolean;
  taxClassId: number | null;
  taxClassName: string | null;
  /** The variant's and its product's pricing versions: a placement is written only if both still hold. */
  pricingVersion: number;
  productPricingVersion: number;
  /** Its explicit prices in other currencies (variant_prices, decision 0031), by currency; null: none. */
  explicitPrices?: ExplicitPrices | null;
}

function variantsQuery(db: Conn) {
  return db
    .select({
      id: productVariants.id,
      alias: productVariants.alias,
      name: productVariants.name,
      sku: productVariants.sku,
      productId: products.id,
      productName: products.name,
      price: productVariants.price,
      weightGrams: productVariants.weightGrams,
      trackInventory: productVariants.trackInventory,
      allowBackorder: productVariants.allowBackorder,
      purchaseLimitPerOrder: productVariants.purchaseLimitPerOrder,
      archivedAt: productVariants.archivedAt,
      productArchivedAt: products.archivedAt,
      taxClassId: taxClasses.id,
      taxClassName: taxClasses.name,
      pricingVersion: productVariants.pricingVersion,
      productPricingVersion: products.pricingVersion,
      explicitPrices: explicitPricesColumn,
      options: variantOptionsColumn,
      image: variantImageColumn,
    })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .leftJoin(taxClasses, eq(taxClasses.id, products.taxClassId));
}

type VariantQueryRow = Awaited<ReturnType<ReturnType<typeof variantsQuery>['where']>>[number];

function toVariantMap(rows: VariantQueryRow[]): Map<string, OrderableVariant> {
  return new Map(
    rows.map(({ archivedAt, productArchivedAt, explicitPrices, options, image, ...row }) => [
      row.alias,
      {
        ...row,
        options: optionsAsSold(options),
        image: lineImageOf(image),
        buyable: isBuyable({ archivedAt, productArchivedAt }),
        explicitPrices: explicitPricesOf(explicitPrices),
      },
    ]),
  );
}

/** A tax rate as a quote reads it (`taxClassId` null: a default rate of the place). */
export type QuoteTaxRate = {
  id: number;
  taxClassId: number | null;
  country: string;
  state: string;
  rate: string;
  isActive: boolean;
};
/** A shipping method as a quote reads it: its row. */
export type QuoteShippingMethod = typeof shippingMethods.$inferSelect;
/** A shipping rate as a quote reads it: its bracket, with money in minor units. */
export interface QuoteShippingRate {
  id: number;
  country: string;
  state: string;
  city: string;
  weightMinKg: string;
  weightMaxKg: string | null;
  baseRateMinor: number;
  perKgRateMinor: number;
  /** The rate's own amounts in other currencies (decision 0037); null: none, every market converts. */
  pricesByCurrency: Readonly<Record<string, { baseRateMinor: number; perKgRateMinor: number }>> | null;
}

/**
 * A promotion as quotes read it: in the form pricing takes, mapped from its row once as it is read (so once per fill
 * of the reference cache, not per quote), with the version of it read and its redemptions then.
 */
export interface ReadPromotion {
  promotion: Promotion;
  /** `updated_at` of the row in epoch ms: any admin change to the promotion changes it. */
  version: number;
  /** Redemptions when it was read: may be old, ask `QuoteReads.timesUsed` when a limit depends on it. */
  timesUsed: number;
}

export function readPromotion(row: PromotionRow): ReadPromotion {
  return { promotion: promotionFromRow(row), version: row.updatedAt.getTime(), timesUsed: row.timesUsed };
}

const readPromotionRow = (row: PromotionRow | undefined) => (row ? readPromotion(row) : undefined);

/**
 * The reference data a quote reads. Implemented on a connection (`directQuoteReads`), with
 * prepared statements on the pool (`preparedQuoteReads`), and in memory over either
 * (`ReferenceCache.reads` in reference-cache.ts).
 */
export interface QuoteReads {
  /** The variants named, with product and tax class; unknown aliases are missing from the map. */
  variantsByAlias(aliases: string[]): Promise<Map<string, OrderableVariant>>;
  /** Every tax rate of a country, active or not, default rates (no class) included. */
  taxRatesOf(country: string): Promise<QuoteTaxRate[]>;
  /** An active method with its rates (maybe none); undefined when the method is unknown or inactive. */
  shippingMethodWithRates(
    methodId: number,
  ): Promise<{ method: QuoteShippingMethod; rates: QuoteShippingRate[] } | undefined>;
  /**
   * The promotion a code names (normalised), archived ones excepted, switched-off ones included (the rules say why
   * they cannot be used). Its `timesUsed` may be old: ask `timesUsed` when it matters.
   */
  promotionByCode(code: string): Promise<ReadPromotion | undefined>;
  /** The automatic promotions that are switched on and not archived (window, limits and conditions not checked). */
  automaticPromotions(): Promise<ReadPromotion[]>;
  /** A promotion's redemptions so far (never cached: placements raise it). */
  timesUsed(promotionId: number): Promise<number>;
}

const taxRateColumns = {
  id: taxRates.id,
  taxClassId: taxRates.taxClassId,
  country: taxRates.country,
  state: taxRates.state,
  rate: taxRates.rate,
  isActive: taxRates.isActive,
};

function shippingQuery(db: Conn) {
  return db
    .select({ method: shippingMethods, rate: shippingRates, prices: ratePricesColumn })
    .from(shippingMethods)
    .leftJoin(shippingRates, eq(shippingRates.shippingMethodId, shippingMethods.id));
}

type ShippingQueryRow = Awaited<ReturnType<ReturnType<typeof shippingQuery>['where']>>[number];

function toShipping(rows: ShippingQueryRow[]) {
  const method = rows[0]?.method;
  if (!method) return undefined;
  return {
    method,
    rates: rows.flatMap(({ rate: r, prices }) =>
      r === null
        ? []
        : [
            {
              id: r.id,
              country: r.country,
              state: r.state,
              city: r.city,
              weightMinKg: r.weightMinKg,
              weightMaxKg: r.weightMaxKg,
              baseRateMinor: r.baseRate,
              perKgRateMinor: r.perKgRate,
              pricesByCurrency: pricesByCurrencyOf(prices),
            },
          ],
    ),
  };
}

function pricesByCurrencyOf(read: [string, number, number][] | null): QuoteShippingRate['pricesByCurrency'] {
  const prices = ratePricesOf(read);
  if (prices.length === 0) return null;
  return Object.fromEntries(
    prices.map((p) => [p.currency, { baseRateMinor: p.baseRate, perKgRateMinor: p.perKgRate }] as const),
  );
}

async function timesUsedOf(db: Conn, promotionId: number): Promise<number> {
  const [row] = await db.select({ n: promotions.timesUsed }).from(promotions).where(eq(promotions.id, promotionId));
  return row?.n ?? 0;
}

/** Reads on one connection or transaction, one query each. */
export function directQuoteReads(db: Conn): QuoteReads {
  return {
    variantsByAlias: async (aliases) =>
      toVariantMap(await variantsQuery(db).where(inArray(productVariants.alias, aliases))),
    taxRatesOf: (country) => db.select(taxRateColumns).from(taxRates).where(eq(taxRates.country, country)),
    shippingMethodWithRates: async (methodId) =>
      toShipping(
        await shippingQuery(db).where(and(eq(shippingMethods.id, methodId), eq(shippingMethods.isActive, true))),
      ),
    promotionByCode: async (code) => readPromotionRow(await promotionRowByCode(db, code)),
    automaticPromotions: async () => (await activePromotionRows(db)).map(readPromotion),
    timesUsed: (promotionId) => timesUsedOf(db, promotionId),
  };
}

/**
 * The same reads prepared once per database (parsed and planned once per connection of the pool),
 * for the estimate, which runs outside any transaction.
 */
export function preparedQuoteReads(db: Db): QuoteReads {
  const variants = variantsQuery(db)
    .where(sql`${productVariants.alias} = any(${sql.placeholder('aliases')})`)
    .prepare('quote_variants');
  const rates = db
    .select(taxRateColumns)
    .from(taxRates)
    .where(eq(taxRates.country, sql.placeholder('country')))
    .prepare('quote_tax_rates');
  const shipping = shippingQuery(db)
    .where(and(eq(shippingMethods.id, sql.placeholder('methodId')), eq(shippingMethods.isActive, true)))
    .prepare('quote_shipping_rates');
  const used = db
    .select({ n: promotions.timesUsed })
    .from(promotions)
    .where(eq(promotions.id, sql.placeholder('id')))
    .prepare('quote_promotion_used');
  return {
    variantsByAlias: async (aliases) => toVariantMap(await variants.execute({ aliases })),
    taxRatesOf: (country) => rates.execute({ country }),
    shippingMethodWithRates: async (methodId) => toShipping(await shipping.execute({ methodId })),
    promotionByCode: async (code) => readPromotionRow(await promotionRowByCode(db, code)),
    automaticPromotions: async () => (await activePromotionRows(db)).map(readPromotion),
    timesUsed: async (id) => (await used.execute({ id }))[0]?.n ?? 0,
  };
}

/** Unreleased redemptions of a promotion by a customer: a user, or a guest by email. */
export async function redemptionsBy(
  db: Conn,
  promotionId: number,
  customer: { userId: number | null; email: string | null },
): Promise<number> {
  const owner = redemptionOwner(customer);
  if (owner === null) return 0;
  const who =
    'userId' in owner ? eq(promotionRedemptions.userId, owner.userId) : eq(promotionRedemptions.email, owner.email);
  const [row] = await db
    .select({ n: count() })
    .from(promotionRedemptions)
    .where(and(eq(promotionRedemptions.promotionId, promotionId), who, isNull(promotionRedemptions.releasedAt)));
  return row?.n ?? 0;
}

/** Whether the customer (by user id, or by email for a guest or a user's guest orders) ordered before. */
export async function hasPreviousOrders(
  db: Conn,
  customer: { userId: number | null; email: string | null },
): Promise<boolean> {
  const who = orderOwners(customer).map((owner) =>
    'userId' in owner ? eq(orders.userId, owner.userId) : eq(orders.email, owner.email),
  );
  if (who.length === 0) return false;
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(or(...who), ne(orders.status, 'cancelled')))
    .limit(1);
  return row !== undefined;
}

export async function defaultAddress(db: Conn, userId: number) {
  const [row] = await db
    .select()
    .from(addresses)
    .where(and(eq(addresses.userId, userId), eq(addresses.isDefault, true)))
    .limit(1);
  return row;
}
