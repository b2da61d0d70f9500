import { currencyFormat, formatDecimal } from '../shared/money.js';
import type { PricedOrder } from './pricing.types.js';

/** One line of the estimate / order result on the wire (SPEC section 6). */
export interface PricedLineResult {
  alias: string;
  product_variant_id: number;
  name: string;
  quantity: number;
  unit_price: string;
  subtotal: string;
  discount: string;
  /** Percent with at least two decimals: `"15.00"`, `"8.875"`. */
  tax_rate: string;
  tax: string;
  total: string;
  /** What each applied promotion took off this line. */
  adjustments: { promotion_id: number; amount: string }[];
}

/**
 * A promotion that applied (SPEC section 10): `kind` is its action's type, `amount` all it took (lines and shipping).
 */
export interface AppliedPromotionResult {
  id: number;
  name: string;
  code: string | null;
  kind: string;
  amount: string;
}

export interface TaxDetailResult {
  tax_class: string;
  tax_percentage: string;
  tax_amount: string;
}

/** The priced order as SPEC section 6 "Result" shows it: amounts with the currency's precision. */
export interface PricedOrderResult {
  currency: string;
  subtotal: string;
  discount: string;
  discount_name: string | null;
  promotions: AppliedPromotionResult[];
  /** Before any shipping discount. */
  shipping_fee: string;
  /** Part of `discount`. */
  shipping_discount: string;
  shipping_name: string | null;
  estimated_tax: string;
  total_without_tax: string;
  total: string;
  total_items: number;
  lines: PricedLineResult[];
  tax_details: TaxDetailResult[];
}

/** Percent on the wire: at least two decimals, trailing zeros beyond them dropped. */
export function formatRate(rate: string): string {
  return formatDecimal(rate, { minScale: 2 });
}

export function presentPricedOrder(order: PricedOrder): PricedOrderResult {
  const money = currencyFormat(order.currency);
  return {
    currency: order.currency,
    subtotal: money.format(order.subtotalMinor),
    discount: money.format(order.discountMinor),
    discount_name: order.discountName,
    promotions: order.promotions.map((p) => ({
      id: p.id,
      name: p.name,
      code: p.code,
      kind: p.kind,
      amount: money.format(p.amountMinor),
    })),
    shipping_fee: money.format(order.shippingFeeMinor),
    shipping_discount: money.format(order.shippingDiscountMinor),
    shipping_name: order.shippingName,
    estimated_tax: money.format(order.estimatedTaxMinor),
    total_without_tax: money.format(order.totalWithoutTaxMinor),
    total: money.format(order.totalMinor),
    total_items: order.totalItems,
    lines: order.lines.map((line) => ({
      alias: line.alias,
      product_variant_id: line.variantId,
      name: line.name,
      quantity: line.quantity,
      unit_price: money.format(line.unitPriceMinor),
      subtotal: money.format(line.subtotalMinor),
      discount: money.format(line.discountMinor),
      tax_rate: formatRate(line.taxRate),
      tax: money.format(line.taxMinor),
      total: money.format(line.totalMinor),
      adjustments: line.adjustments.map((a) => ({ promotion_id: a.promotionId, amount: money.format(a.amountMinor) })),
    })),
    tax_details: order.taxDetails.map((detail) => ({
      tax_class: detail.taxClassName,
      tax_percentage: formatRate(detail.taxRate),
      tax_amount: money.format(detail.taxMinor),
    })),
  };
}
