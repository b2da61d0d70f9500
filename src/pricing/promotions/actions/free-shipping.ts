import type { PromotionActionModule } from '../promotion.modules.js';

/** All of the shipping fee left. */
export const freeShipping: PromotionActionModule<'free_shipping'> = {
  type: 'free_shipping',
  take(_action, context) {
    return { units: [], shippingMinor: context.shippingLeftMinor };
  },
};
