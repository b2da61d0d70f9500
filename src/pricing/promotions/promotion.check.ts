import type { PromotionOrder } from './promotion.modules.js';
import type { Promotion, PromotionConditionType } from './promotion.types.js';
import { checkCondition } from './registry.js';

/** The rule a promotion failed: its own rules, then each condition by its type. */
export type PromotionRule =
  | 'inactive'
  | 'not_started'
  | 'expired'
  | 'redemption_limit'
  | 'specific_customers'
  | 'new_customers_only'
  | 'customer_limit'
  /** No amount in the order's currency (decision 0037). */
  | 'currency'
  | PromotionConditionType;

/** Ok, or which rule failed with a sentence for the 422 `promo_code_invalid` detail. */
export type PromotionCheck = { ok: true } | { ok: false; rule: PromotionRule; detail: string };

/**
 * Everything the rules need besides the promotion, gathered by the caller (inside the placement transaction for
 * placement, so the counts are the ones the limits are enforced on).
 */
export interface PromotionCheckInput {
  promotion: Promotion;
  /** Redemptions so far: overall, and by this customer (user id, or normalised email for a guest; 0 without one). */
  usage: { total: number; byCustomer: number };
  /** The caller: a user id, or a guest (null) known by email if given. */
  customer: { userId: number | null; email: string | null; hasPreviousOrders: boolean };
  order: PromotionOrder;
  now: Date;
}

/** How a refusal names a promotion: `promo code SAVE10`, or `promotion "Summer sale"` for an automatic one. */
export function promotionLabel(promotion: Pick<Promotion, 'code' | 'name'>): string {
  return promotion.code === null ? `promotion "${promotion.name}"` : `promo code ${promotion.code}`;
}

/**
 * Checks every rule of a promotion for one order, in a fixed order (the promotion itself, then who uses it, then the
 * order: each condition in turn) and reports the first that fails. Pure: the caller fetches the counts and passes
 * `now`. For a code the caller answers 422 `promo_code_invalid` with the detail; an automatic promotion that fails
 * is left out silently.
 */
export function checkPromotion(input: PromotionCheckInput): PromotionCheck {
  const { promotion, usage, customer, now } = input;
  const name = promotionLabel(promotion);
  const fail = (rule: PromotionRule, detail: string): PromotionCheck => ({ ok: false, rule, detail });

  if (!promotion.isActive) return fail('inactive', `${name} is not active`);
  if (promotion.startsAt && now.getTime() < promotion.startsAt.getTime()) {
    return fail('not_started', `${name} is valid from ${promotion.startsAt.toISOString()}`);
  }
  if (promotion.expiresAt && now.getTime() >= promotion.expiresAt.getTime()) {
    return fail('expired', `${name} expired at ${promotion.expiresAt.toISOString()}`);
  }
  if (promotion.redemptionLimit !== null && usage.total >= promotion.redemptionLimit) {
    return fail('redemption_limit', `${name} has been redeemed the maximum number of times`);
  }
  const allowed = promotion.specificCustomerIds;
  if (allowed && allowed.length > 0 && (customer.userId === null || !allowed.includes(customer.userId))) {
    return fail(
      'specific_customers',
      `${name} is reserved for specific customers${customer.userId === null ? '; sign in to use it' : ''}`,
    );
  }
  if (promotion.newCustomersOnly && customer.hasPreviousOrders) {
    return fail('new_customers_only', `${name} is for a customer's first order only`);
  }
  if (promotion.usageLimitPerCustomer !== null && usage.byCustomer >= promotion.usageLimitPerCustomer) {
    const times = promotion.usageLimitPerCustomer === 1 ? 'once' : `${promotion.usageLimitPerCustomer} times`;
    return fail('customer_limit', `${name} can be used ${times} per customer and you have already used it`);
  }
  return checkConditions(promotion, input.order);
}

/**
 * The conditions of a promotion on one order, in their order, the first that fails reported. The one statement of
 * them: `checkPromotion` ends with it, and pricing skips a promotion it refuses.
 */
export function checkConditions(promotion: Promotion, order: PromotionOrder): PromotionCheck {
  for (const condition of promotion.conditions) {
    const verdict = checkCondition(condition, order);
    if (!verdict.holds) {
      return { ok: false, rule: condition.type, detail: `${promotionLabel(promotion)} ${verdict.reason}` };
    }
  }
  return { ok: true };
}
