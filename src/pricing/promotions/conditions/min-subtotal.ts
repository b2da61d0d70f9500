import { currencyFormat } from '../../../shared/money.js';
import { money } from '../kind-fields.js';
import { conditionKind } from '../promotion.modules.js';

/** The order's subtotal before any discount is at least the amount (50.00 qualifies for a 50.00 minimum). */
export const minSubtotal = conditionKind({
  type: 'min_subtotal',
  label: 'Minimum subtotal',
  description: "The order's subtotal before discounts is at least `amount` (50.00 qualifies for 50.00)",
  example: { type: 'min_subtotal', amount: '50.00' },
  fields: {
    amount: money({
      description: 'The smallest subtotal, before any discount, inclusive',
      example: '50.00',
      label: 'Minimum subtotal',
      hint: 'Before discounts; reached when equal',
    }),
  },
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
});
