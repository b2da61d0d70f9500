import { currencyFormat, parseDecimal } from '../shared/money.js';
import type { PricingDiscount } from './pricing.types.js';

/** A stored promo code, with amounts already in minor units of the store currency. */
export interface PromoCodeRecord {
  /** Stored upper-case. */
  code: string;
  codeType: 'percentage' | 'fixed' | 'free_shipping';
  /** Percent for `percentage` (`"10"`, up to 4 decimals), an amount in the store currency for
   * `fixed` (`"5.00"`), ignored for `free_shipping`. As stored, a decimal string. */
  value: string;
  isActive: boolean;
  startsAt: Date | null;
  expiresAt: Date | null;
  minPurchaseMinor: number | null;
  /** Redemptions allowed across all customers. */
  redemptionLimit: number | null;
  /** Redemptions allowed per user (per normalised email for guests). */
  usageLimitPerCustomer: number | null;
  /** User ids allowed to use the code; null or empty: anyone. */
  specificCustomerIds: readonly number[] | null;
  /** Products the discount applies to; null or empty: every product. */
  applicableProductIds: readonly number[] | null;
  newCustomersOnly: boolean;
}

/** Everything the rules need besides the code, gathered by the caller (inside the placement
 * transaction for placement, so the counts are the ones the limits are enforced on). */
export interface PromoCodeCheckInput {
  promo: PromoCodeRecord;
  /** Redemptions so far: of the code overall, and by this customer (user id, or normalised email
   * for a guest; 0 when a guest has not given an email yet). */
  usage: { total: number; byCustomer: number };
  /** The caller: a user id, or a guest (null) known by email if given. */
  customer: { userId: number | null; email: string | null; hasPreviousOrders: boolean };
  /** Subtotal of the whole order before discount, and the products it contains. */
  order: { currency: string; subtotalMinor: number; productIds: readonly number[] };
  now: Date;
}

export type PromoCodeRule =
  | 'inactive'
  | 'not_started'
  | 'expired'
  | 'redemption_limit'
  | 'specific_customers'
  | 'new_customers_only'
  | 'customer_limit'
  | 'applicable_products'
  | 'min_purchase';

/** Ok, or which rule failed with a sentence for the 422 `promo_code_invalid` detail. */
export type PromoCodeCheck = { ok: true } | { ok: false; rule: PromoCodeRule; detail: string };

/** Codes are case-insensitive: stored and looked up trimmed and upper-cased. */
export function normalisePromoCode(code: string): string {
  return code.trim().toUpperCase();
}

/**
 * Checks every rule of a promo code for one order, in a fixed order (the code itself, then who
 * uses it, then what is bought) and reports the first that fails. Pure: the caller fetches the
 * counts, passes `now`, and throws `promo_code_invalid` with the detail.
 */
export function checkPromoCode(input: PromoCodeCheckInput): PromoCodeCheck {
  const { promo, usage, customer, order, now } = input;
  const name = `promo code ${promo.code}`;
  const fail = (rule: PromoCodeRule, detail: string): PromoCodeCheck => ({ ok: false, rule, detail });

  if (!promo.isActive) return fail('inactive', `${name} is not active`);
  if (promo.startsAt && now.getTime() < promo.startsAt.getTime()) {
    return fail('not_started', `${name} is valid from ${promo.startsAt.toISOString()}`);
  }
  if (promo.expiresAt && now.getTime() >= promo.expiresAt.getTime()) {
    return fail('expired', `${name} expired at ${promo.expiresAt.toISOString()}`);
  }
  if (promo.redemptionLimit !== null && usage.total >= promo.redemptionLimit) {
    return fail('redemption_limit', `${name} has been redeemed the maximum number of times`);
  }
  const allowed = promo.specificCustomerIds;
  if (allowed && allowed.length > 0 && (customer.userId === null || !allowed.includes(customer.userId))) {
    return fail(
      'specific_customers',
      `${name} is reserved for specific customers${customer.userId === null ? '; sign in to use it' : ''}`,
    );
  }
  if (promo.newCustomersOnly && customer.hasPreviousOrders) {
    return fail('new_customers_only', `${name} is for a customer's first order only`);
  }
  if (promo.usageLimitPerCustomer !== null && usage.byCustomer >= promo.usageLimitPerCustomer) {
    const times = promo.usageLimitPerCustomer === 1 ? 'once' : `${promo.usageLimitPerCustomer} times`;
    return fail('customer_limit', `${name} can be used ${times} per customer and you have already used it`);
  }
  const products = promo.applicableProductIds;
  if (products && products.length > 0 && !order.productIds.some((id) => products.includes(id))) {
    return fail('applicable_products', `${name} applies to none of the products in this order`);
  }
  if (promo.minPurchaseMinor !== null && order.subtotalMinor < promo.minPurchaseMinor) {
    const money = currencyFormat(order.currency);
    return fail(
      'min_purchase',
      `${name} needs a subtotal of at least ${money.format(promo.minPurchaseMinor)} `
        + `${order.currency}; this order's is ${money.format(order.subtotalMinor)} ${order.currency}`,
    );
  }
  return { ok: true };
}

/** The discount `priceOrder` applies for an eligible promo code. */
export function promoCodeDiscount(promo: PromoCodeRecord, currency: string): PricingDiscount {
  const scope = promo.applicableProductIds && promo.applicableProductIds.length > 0 ? promo.applicableProductIds : null;
  switch (promo.codeType) {
    case 'percentage':
      parseDecimal(promo.value, 4);
      return { type: 'percentage', code: promo.code, value: promo.value, applicableProductIds: scope };
    case 'fixed':
      return {
        type: 'fixed',
        code: promo.code,
        value: currencyFormat(currency).parse(promo.value),
        applicableProductIds: scope,
      };
    case 'free_shipping':
      return { type: 'free_shipping', code: promo.code };
  }
}
