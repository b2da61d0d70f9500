import { money } from '../kind-fields.js';
import { actionKind } from '../promotion.modules.js';
import { fixedAmount } from '../promotion-amounts.js';
import { actsOn } from './common-fields.js';
import { takeOffLines } from './off-lines.js';

/** A fixed amount off the eligible lines together, capped at what is left of them, allocated by largest remainder. */
export const orderFixed = actionKind({
  type: 'order_fixed',
  label: 'Amount off the order',
  description: 'An amount off the eligible lines together (at most their subtotal), allocated over them',
  example: { type: 'order_fixed', amount: '5.00', products: [3] },
  fields: {
    amount: money({ description: 'Amount off', example: '5.00', label: 'Amount off the lines' }),
    products: actsOn,
  },
  take(action, context) {
    const amount = fixedAmount(action.amountMinor);
    return { units: takeOffLines(context, { products: action.products, amountOf: () => amount }), shippingMinor: 0 };
  },
});
