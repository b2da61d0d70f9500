import { multiplyMinor, sumMinor } from '../../shared/money.js';
import type { PromotionOrder } from './promotion.modules.js';

/**
 * What a promotion's conditions look at in an order: the subtotal before any discount and the products' quantities.
 * The estimate, the placement's check under lock and pricing build it alike, from the order's lines.
 */
export function promotionOrder(
  currency: string,
  lines: readonly { productId: number; unitPriceMinor: number; quantity: number }[],
): PromotionOrder {
  return {
    currency,
    subtotalMinor: sumMinor(lines.map((l) => multiplyMinor(l.unitPriceMinor, l.quantity))),
    lines: lines.map((l) => ({ productId: l.productId, quantity: l.quantity })),
  };
}
