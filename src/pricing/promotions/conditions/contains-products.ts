import type { PromotionConditionModule } from '../promotion.modules.js';

/** Any of the products named is in the order. */
export const containsProducts: PromotionConditionModule<'contains_products'> = {
  type: 'contains_products',
  check(condition, order) {
    if (order.lines.some((line) => condition.products.includes(line.productId))) return { holds: true };
    return { holds: false, reason: 'applies to none of the products in this order' };
  },
};
