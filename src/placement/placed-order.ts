import { soldItem } from '../orders/order-line.js';
import { promotionTerms } from '../promotions/promotions.mapper.js';
import type { OrderQuote } from './order-quote.service.js';
import { placementEventTypes } from './placement-events.js';
import type { OrderLineValues, OrderValues } from './placement.columns.js';

/** The catalog row a priced line sells (the quote read it). */
export function variantOfLine(quote: OrderQuote, alias: string) {
  const v = quote.variants.get(alias);
  if (!v) throw new Error(`priced line "${alias}" has no variant`);
  return v;
}

/** The promotion the quote priced as the `i`th applied one (the quote lists them in the same order). */
function appliedPromotion(quote: OrderQuote, id: number, i: number) {
  const applied = quote.promotions[i];
  if (applied?.id !== id) throw new Error(`applied promotion ${id} is not the quote's promotion ${i}`);
  return applied.promotion;
}

/**
 * The order a placement writes, from its quote and what the placement chose: every column placement writes
 * (`OrderValues`, derived from the schema: a column added to `orders` is a compile error here until it is given a
 * value, or left to the database in placement.columns.ts).
 */
export function orderValues(
  quote: OrderQuote,
  placement: Pick<OrderValues, 'alias' | 'orderTokenHash' | 'placedBy'> & { paymentStatus: 'paid' | 'unpaid' },
): OrderValues {
  const { priced, customer } = quote;
  return {
    alias: placement.alias,
    userId: customer.userId,
    email: customer.email,
    orderTokenHash: placement.orderTokenHash,
    placedBy: placement.placedBy,
    paymentStatus: placement.paymentStatus,
    currency: priced.currency,
    pricesIncludeTax: priced.pricesIncludeTax,
    marketId: quote.market.id,
    exchangeRate: quote.market.exchangeRate,
    totalInStoreCurrency: quote.totalInStoreCurrency,
    subtotal: priced.subtotalMinor,
    discount: priced.discountMinor,
    discountName: priced.discountName,
    promoCode: quote.promotions.find((p) => p.code !== null)?.code ?? null,
    promotions: priced.promotions.map((p, i) => ({
      id: p.id,
      name: p.name,
      code: p.code,
      kind: p.kind,
      amount: p.amountMinor,
      terms: promotionTerms(appliedPromotion(quote, p.id, i)),
    })),
    shippingDiscount: priced.shippingDiscountMinor,
    shippingMethodId: quote.shippingMethodId,
    shippingName: priced.shippingName,
    shippingFee: priced.shippingFeeMinor,
    shippingTaxRate: priced.shippingTaxRate,
    shippingTax: priced.shippingTaxMinor,
    estimatedTax: priced.estimatedTaxMinor,
    totalWithoutTax: priced.totalWithoutTaxMinor,
    total: priced.totalMinor,
    totalItems: priced.totalItems,
    shippingAddress: quote.shippingAddress,
    billingAddress: quote.billingAddress,
    note: quote.note,
    eventSeq: placementEventTypes(placement.paymentStatus).length,
  };
}

/** The order's lines as priced, each with the item it sells as it is now (`OrderLineValues`, as `orderValues`). */
export function lineValues(quote: OrderQuote): OrderLineValues[] {
  return quote.priced.lines.map((line): OrderLineValues => {
    const item = soldItem(variantOfLine(quote, line.alias));
    return {
      variantId: line.variantId,
      productId: line.productId,
      alias: line.alias,
      productName: item.productName,
      variantName: item.variantName,
      sku: item.sku,
      options: item.options,
      image: item.image,
      quantity: line.quantity,
      unitPrice: line.unitPriceMinor,
      subtotal: line.subtotalMinor,
      discount: line.discountMinor,
      adjustments: line.adjustments.map((a) => ({ promotion_id: a.promotionId, amount: a.amountMinor })),
      taxClassName: line.taxClass?.name ?? null,
      taxRate: line.taxRate,
      tax: line.taxMinor,
      total: line.totalMinor,
    };
  });
}
