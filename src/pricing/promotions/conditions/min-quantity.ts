import { sumMinor } from '../../../shared/money.js';
import { productScope, units } from '../kind-fields.js';
import { inScope, productList } from '../product-scope.js';
import { conditionKind } from '../promotion.modules.js';

/** At least so many units, counted over the lines of the products named (every line when none are). */
export const minQuantity = conditionKind({
  type: 'min_quantity',
  label: 'Minimum quantity',
  description: 'At least `quantity` units in the order, counted over the lines of `products` (every line if absent)',
  example: { type: 'min_quantity', quantity: 3, products: [12, 14] },
  fields: {
    quantity: units({ description: 'Units needed, at least 1', label: 'Units at least' }),
    products: productScope({
      description: 'Products whose units count',
      label: 'Counted product ids',
      hint: 'Commas between; blank: every product',
    }),
  },
  check(condition, order) {
    const units = sumMinor(
      order.lines.filter((line) => inScope(condition.products, line.productId)).map((line) => line.quantity),
    );
    if (units >= condition.quantity) return { holds: true };
    const of = condition.products && condition.products.length > 0 ? ` of ${productList(condition.products)}` : '';
    const items = condition.quantity === 1 ? 'item' : 'items';
    return { holds: false, reason: `needs at least ${condition.quantity} ${items}${of}; this order has ${units}` };
  },
});
