import type { PromotionActionModule } from '../promotion.modules.js';
import { fixedAmount } from '../promotion-amounts.js';

/** A fixed amount off the shipping fee, capped at the fee left. */
export const shippingFixed: PromotionActionModule<'shipping_fixed'> = {
  type: 'shipping_fixed',
  take(action, context) {
    return { units: [], shippingMinor: Math.min(fixedAmount(action.amountMinor), context.shippingLeftMinor) };
  },
};
