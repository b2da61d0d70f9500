import { currencyFormat, formatDecimal, parseDecimal } from '../shared/money.js';
import type { Promotion, PromotionAction, PromotionCondition } from './promotions/promotion.types.js';

/** A stored promo code (SPEC section 6), with amounts already in minor units of the store currency. */
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

/** Codes are case-insensitive: stored and looked up trimmed and upper-cased. */
export function normalisePromoCode(code: string): string {
  return code.trim().toUpperCase();
}

/**
 * A stored promo code as the promotion it is (SPEC section 10): priority 0, combinable. Its products become both the
 * action's scope and a `contains_products` condition, its minimum purchase a `min_subtotal` condition (checked in
 * that order, as the code's rules were). Named as the order showed the code: `Promo code SAVE10 (10%)`.
 */
export function promoCodePromotion(record: PromoCodeRecord, options: { id: number; currency: string }): Promotion {
  const products =
    record.applicableProductIds && record.applicableProductIds.length > 0 ? record.applicableProductIds : null;
  const conditions: PromotionCondition[] = [];
  if (products) conditions.push({ type: 'contains_products', products });
  if (record.minPurchaseMinor !== null) conditions.push({ type: 'min_subtotal', amountMinor: record.minPurchaseMinor });
  const { action, describes } = codeAction(record, { products, currency: options.currency });
  return {
    id: options.id,
    name: `Promo code ${record.code} (${describes})`,
    code: record.code,
    isActive: record.isActive,
    startsAt: record.startsAt,
    expiresAt: record.expiresAt,
    priority: 0,
    combinable: true,
    redemptionLimit: record.redemptionLimit,
    usageLimitPerCustomer: record.usageLimitPerCustomer,
    newCustomersOnly: record.newCustomersOnly,
    specificCustomerIds: record.specificCustomerIds,
    conditions,
    action,
  };
}

function codeAction(
  record: PromoCodeRecord,
  options: { products: readonly number[] | null; currency: string },
): { action: PromotionAction; describes: string } {
  switch (record.codeType) {
    case 'percentage':
      parseDecimal(record.value, 4);
      return {
        action: { type: 'order_percentage', percent: record.value, products: options.products },
        describes: `${formatDecimal(record.value)}%`,
      };
    case 'fixed': {
      const money = currencyFormat(options.currency);
      const amountMinor = money.parse(record.value);
      return {
        action: { type: 'order_fixed', amountMinor, products: options.products },
        describes: `${money.format(amountMinor)} ${options.currency} off`,
      };
    }
    case 'free_shipping':
      return { action: { type: 'free_shipping' }, describes: 'free shipping' };
  }
}
