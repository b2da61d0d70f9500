import type { PromotionActionModule } from '../promotion.modules.js';
import { parsePercent, percentOff } from '../promotion-amounts.js';
import { takeOffLines } from './off-lines.js';

/** A percentage of the eligible lines together, rounded once, allocated over them by largest remainder. */
export const orderPercentage: PromotionActionModule<'order_percentage'> = {
  type: 'order_percentage',
  take(action, context) {
    const percent = parsePercent(action.percent);
    const units = takeOffLines(context, {
      products: action.products,
      amountOf: (eligible) => percentOff(eligible, percent, context.roundingMode),
    });
    return { units, shippingMinor: 0 };
  },
};
