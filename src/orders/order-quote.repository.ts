import { and, count, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import {
  addresses, orders, products, productVariants, promoCodeRedemptions, promoCodes, shippingMethods, shippingRates, taxClasses, taxRates,
} from '../db/schema.js';

type Conn = Db | Tx;

export interface OrderableVariant {
  id: number;
  alias: string;
  name: string;
  sku: string | null;
  productId: number;
  productName: string;
  price: number;
  weightGrams: string | null;
  trackInventory: boolean;
  allowBackorder: boolean;
  stock: number;
  purchaseLimitPerOrder: number | null;
  buyable: boolean;
  taxClassId: number | null;
  taxClassName: string | null;
}

/** Every variant named by the aliases, with its product and tax class, in one query. */
export async function variantsByAlias(db: Conn, aliases: string[]): Promise<Map<string, OrderableVariant>> {
  return toVariantMap(await variantsQuery(db).where(inArray(productVariants.alias, aliases)));
}

function variantsQuery(db: Conn) {
  return db.select({
    id: productVariants.id, alias: productVariants.alias, name: productVariants.name, sku: productVariants.sku,
    productId: products.id, productName: products.name, price: productVariants.price, weightGrams: productVariants.weightGrams,
    trackInventory: productVariants.trackInventory, allowBackorder: productVariants.allowBackorder, stock: productVariants.stock,
    purchaseLimitPerOrder: productVariants.purchaseLimitPerOrder,
    variantArchivedAt: productVariants.archivedAt, productArchivedAt: products.archivedAt,
    taxClassId: taxClasses.id, taxClassName: taxClasses.name,
  }).from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .leftJoin(taxClasses, eq(taxClasses.id, products.taxClassId));
}

type VariantQueryRow = Awaited<ReturnType<ReturnType<typeof variantsQuery>['where']>>[number];

function toVariantMap(rows: VariantQueryRow[]): Map<string, OrderableVariant> {
  return new Map(rows.map(({ variantArchivedAt, productArchivedAt, ...row }) =>
    [row.alias, { ...row, buyable: variantArchivedAt === null && productArchivedAt === null }]));
}

/**
 * The reads every estimate makes, prepared once per database (parsed and planned once per
 * connection): the lines' variants, the tax rates of a country, a shipping method's rates.
 */
export function preparedQuoteReads(db: Db) {
  const variants = variantsQuery(db).where(sql`${productVariants.alias} = any(${sql.placeholder('aliases')})`).prepare('quote_variants');
  const rates = db.select({
    id: taxRates.id, taxClassId: taxRates.taxClassId, country: taxRates.country, state: taxRates.state,
    rate: taxRates.rate, isActive: taxRates.isActive,
  }).from(taxRates).where(eq(taxRates.country, sql.placeholder('country'))).prepare('quote_tax_rates');
  const shipping = db.select({ method: shippingMethods, rate: shippingRates }).from(shippingRates)
    .innerJoin(shippingMethods, eq(shippingMethods.id, shippingRates.shippingMethodId))
    .where(and(eq(shippingRates.shippingMethodId, sql.placeholder('methodId')), eq(shippingMethods.isActive, true)))
    .prepare('quote_shipping_rates');
  return {
    variantsByAlias: async (aliases: string[]) => toVariantMap(await variants.execute({ aliases })),
    taxRatesOf: (country: string) => rates.execute({ country }),
    /** An active method with its rates in one round trip; undefined when the method is unknown, inactive or has no rate. */
    async shippingMethodWithRates(methodId: number) {
      const rows = await shipping.execute({ methodId });
      const method = rows[0]?.method;
      if (!method) return undefined;
      return {
        method,
        rates: rows.map(({ rate: r }) => ({
          id: r.id, country: r.country, state: r.state, city: r.city, weightMinKg: r.weightMinKg,
          weightMaxKg: r.weightMaxKg, baseRateMinor: r.baseRate, perKgRateMinor: r.perKgRate,
        })),
      };
    },
  };
}

export type QuoteReads = ReturnType<typeof preparedQuoteReads>;

export function taxRateCandidates(db: Conn, country: string, classIds: number[]) {
  if (classIds.length === 0) return Promise.resolve([]);
  return db.select({
    id: taxRates.id, taxClassId: taxRates.taxClassId, country: taxRates.country, state: taxRates.state,
    rate: taxRates.rate, isActive: taxRates.isActive,
  }).from(taxRates).where(and(eq(taxRates.country, country), inArray(taxRates.taxClassId, classIds)));
}

export async function activeShippingMethod(db: Conn, id: number) {
  const [row] = await db.select().from(shippingMethods).where(and(eq(shippingMethods.id, id), eq(shippingMethods.isActive, true)));
  return row;
}

export async function shippingRateCandidates(db: Conn, methodId: number) {
  const rows = await db.select().from(shippingRates).where(eq(shippingRates.shippingMethodId, methodId));
  return rows.map((r) => ({
    id: r.id, country: r.country, state: r.state, city: r.city, weightMinKg: r.weightMinKg,
    weightMaxKg: r.weightMaxKg, baseRateMinor: r.baseRate, perKgRateMinor: r.perKgRate,
  }));
}

export async function promoByCode(db: Conn, code: string) {
  const [row] = await db.select().from(promoCodes).where(eq(promoCodes.code, code));
  return row;
}

/** Unreleased redemptions of a code by a customer: a user, or a guest by email. */
export async function redemptionsBy(db: Conn, promoCodeId: number, customer: { userId: number | null; email: string | null }): Promise<number> {
  const who = customer.userId !== null
    ? eq(promoCodeRedemptions.userId, customer.userId)
    : customer.email !== null ? eq(promoCodeRedemptions.email, customer.email) : undefined;
  if (!who) return 0;
  const [row] = await db.select({ n: count() }).from(promoCodeRedemptions)
    .where(and(eq(promoCodeRedemptions.promoCodeId, promoCodeId), who, isNull(promoCodeRedemptions.releasedAt)));
  return row?.n ?? 0;
}

/** Whether the customer (by user id, or by email for a guest or a user's guest orders) ordered before. */
export async function hasPreviousOrders(db: Conn, customer: { userId: number | null; email: string | null }): Promise<boolean> {
  const who = [
    ...(customer.userId !== null ? [eq(orders.userId, customer.userId)] : []),
    ...(customer.email !== null ? [eq(orders.email, customer.email)] : []),
  ];
  if (who.length === 0) return false;
  const [row] = await db.select({ id: orders.id }).from(orders).where(and(or(...who), ne(orders.status, 'cancelled'))).limit(1);
  return row !== undefined;
}

export async function defaultAddress(db: Conn, userId: number) {
  const [row] = await db.select().from(addresses).where(and(eq(addresses.userId, userId), eq(addresses.isDefault, true))).limit(1);
  return row;
}
