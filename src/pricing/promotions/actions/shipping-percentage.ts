import type { PromotionActionModule } from '../promotion.modules.js';
import { parsePercent, percentOff } from '../promotion-amounts.js';

/** A percentage off the shipping fee left, rounded once. */
export const shippingPercentage: PromotionActionModule<'shipping_percentage'> = {
  type: 'shipping_percentage',
  take(action, context) {
    const percent = parsePercent(action.percent);
    return { units: [], shippingMinor: percentOff(context.shippingLeftMinor, percent, context.roundingMode) };
  },
};
