import { allocate, multiplyMinor, type RoundingMode, sumMinor } from '../shared/money.js';
import { applyPromotions, type PromotionsApplied } from './promotions/promotions.apply.js';
import type { CustomDiscount, PricingLine } from './pricing.types.js';
import type { Promotion } from './promotions/promotion.types.js';

/** The discounts of an order and the name the order shows for them. */
export interface OrderDiscounts extends PromotionsApplied {
  /** The applied promotions' names joined (`"Summer sale, Promo code SAVE10 (10%)"`), the custom name, or null. */
  name: string | null;
}

/**
 * An admin's custom discount (which replaces promotions: it is the whole order's discount), else the promotions.
 * `lines` are merged; the result's lines follow them.
 */
export function orderDiscounts(input: {
  lines: readonly PricingLine[];
  shippingFeeMinor: number;
  promotions: readonly Promotion[];
  customDiscount: CustomDiscount | null;
  currency: string;
  roundingMode: RoundingMode;
}): OrderDiscounts {
  if (input.customDiscount) return customDiscount(input.customDiscount, input.lines);
  const { promotions, lines, shippingDiscountMinor, discountMinor } = applyPromotions(input);
  const name = promotions.length > 0 ? promotions.map((p) => p.name).join(', ') : null;
  return { promotions, lines, shippingDiscountMinor, discountMinor, name };
}

/** The admin's amount, capped at the subtotal, allocated over every line by largest remainder; shipping untouched. */
function customDiscount(discount: CustomDiscount, lines: readonly PricingLine[]): OrderDiscounts {
  if (!Number.isSafeInteger(discount.amountMinor) || discount.amountMinor < 0) {
    throw new RangeError('custom discount must be a non-negative whole number of minor units');
  }
  const subtotals = lines.map((line) => multiplyMinor(line.unitPriceMinor, line.quantity));
  const amount = Math.min(discount.amountMinor, sumMinor(subtotals));
  const shares = amount === 0 ? subtotals.map(() => 0) : allocate(amount, subtotals);
  return {
    promotions: [],
    lines: shares.map((discountMinor) => ({ discountMinor, adjustments: [] })),
    shippingDiscountMinor: 0,
    discountMinor: amount,
    name: discount.name,
  };
}
