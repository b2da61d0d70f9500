import { productIds } from '../kind-fields.js';
import { conditionKind } from '../promotion.modules.js';

/** Any of the products named is in the order. */
export const containsProducts = conditionKind({
  type: 'contains_products',
  label: 'Contains products',
  description: 'Any of `products` is in the order',
  example: { type: 'contains_products', products: [12] },
  fields: {
    products: productIds({
      description: 'Product ids, any of which must be in the order',
      label: 'Product ids',
      hint: 'Any of them in the order; commas between',
    }),
  },
  check(condition, order) {
    if (order.lines.some((line) => condition.products.includes(line.productId))) return { holds: true };
    return { holds: false, reason: 'applies to none of the products in this order' };
  },
});
