import type { PromotionActionModule } from '../promotion.modules.js';
import { fixedAmount } from '../promotion-amounts.js';
import { takeOffLines } from './off-lines.js';

/** A fixed amount off the eligible lines together, capped at what is left of them, allocated by largest remainder. */
export const orderFixed: PromotionActionModule<'order_fixed'> = {
  type: 'order_fixed',
  take(action, context) {
    const amount = fixedAmount(action.amountMinor);
    return { units: takeOffLines(context, { products: action.products, amountOf: () => amount }), shippingMinor: 0 };
  },
};
