import { currencyFormat } from '../../../shared/money.js';
import type { PromotionConditionModule } from '../promotion.modules.js';

/** The order's subtotal before any discount is at least the amount (50.00 qualifies for a 50.00 minimum). */
export const minSubtotal: PromotionConditionModule<'min_subtotal'> = {
  type: 'min_subtotal',
  check(condition, order) {
    if (order.subtotalMinor >= condition.amountMinor) return { holds: true };
    const money = currencyFormat(order.currency);
    return {
      holds: false,
      reason:
        `needs a subtotal of at least ${money.format(condition.amountMinor)} ${order.currency}; `
        + `this order's is ${money.format(order.subtotalMinor)} ${order.currency}`,
    };
  },
};
