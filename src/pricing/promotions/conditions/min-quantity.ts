import { sumMinor } from '../../../shared/money.js';
import { inScope, productList } from '../product-scope.js';
import type { PromotionConditionModule } from '../promotion.modules.js';

/** At least so many units, counted over the lines of the products named (every line when none are). */
export const minQuantity: PromotionConditionModule<'min_quantity'> = {
  type: 'min_quantity',
  check(condition, order) {
    const units = sumMinor(
      order.lines.filter((line) => inScope(condition.products, line.productId)).map((line) => line.quantity),
    );
    if (units >= condition.quantity) return { holds: true };
    const of = condition.products && condition.products.length > 0 ? ` of ${productList(condition.products)}` : '';
    return {
      holds: false,
      reason: `needs at least ${condition.quantity} ${condition.quantity === 1 ? 'item' : 'items'}${of}; this order has ${units}`,
    };
  },
};
