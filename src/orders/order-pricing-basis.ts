import type { PlacedOrderBasis } from '../pricing/order-as-placed.js';
import { promotionAsPlaced } from '../promotions/promotions.mapper.js';
import { lineDisplayName } from './order-line.js';
import type { OrderLineRow, OrderRow } from './orders.repository.js';

/**
 * What a stored order keeps that pricing it again needs (`pricingInputAsPlaced`), from its row and its lines. Undefined
 * for an order that applied a promotion before orders kept promotions' terms (before issue #27): it cannot be priced
 * again exactly, and its caller says so rather than pricing it with the promotion as it is now.
 */
export function placedOrderBasis(order: OrderRow, lines: readonly OrderLineRow[]): PlacedOrderBasis | undefined {
  const promotions = order.promotions.map(promotionAsPlaced);
  if (promotions.some((p) => p === undefined)) return undefined;
  return {
    currency: order.currency,
    pricesIncludeTax: order.pricesIncludeTax,
    lines: lines.map((line) => ({
      alias: line.alias,
      variantId: line.variantId,
      productId: line.productId,
      name: lineDisplayName(line),
      quantity: line.quantity,
      unitPriceMinor: line.unitPrice,
      taxClassName: line.taxClassName,
      taxRate: line.taxRate,
    })),
    shipping:
      order.shippingName === null
        ? null
        : { name: order.shippingName, feeMinor: order.shippingFee, taxRate: order.shippingTaxRate },
    discountName: order.discountName,
    discountMinor: order.discount,
    promotions: promotions.filter((p) => p !== undefined),
  };
}
