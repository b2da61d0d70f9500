import { allocate, subtractMinor, sumMinor } from '../shared/money.js';
import type { PricedLine, PricedOrder } from './pricing.types.js';
import { refundForReturnedUnits, type StoredLineFigures } from './return-refund.js';

/**
 * What units taken off an order before they ship give back (issue #27: an edit and a return refund the same unit the
 * same): exactly what returning them would refund, `refundForReturnedUnits` — each unit its equal share of its line's
 * stored discount and tax, the odd minor units with the first units, taken first. Pure, integer minor units.
 * docs/pricing.md, "What a returned unit refunds"; docs/decisions/0028-order-edits-priced-as-placed.md, amended.
 */

/** One stored order line: its figures, and what each promotion took off it (`order_lines.adjustments`). */
export interface StoredLine extends StoredLineFigures {
  alias: string;
  adjustments: readonly { promotionId: number; amountMinor: number }[];
}

/** The order's stored figures (`orders` columns) an edit that only takes units off changes. */
export interface StoredOrder {
  pricesIncludeTax: boolean;
  subtotal: number;
  discount: number;
  shippingFee: number;
  shippingDiscount: number;
  shippingTax: number;
  estimatedTax: number;
  total: number;
  totalItems: number;
  /** What each promotion took off the order, shipping included. */
  promotions: readonly { id: number; amountMinor: number }[];
}

/**
 * The order after units are taken off its lines (`keep`: alias → units the line keeps, 0 for a removed line; a line
 * not named keeps all), from its stored figures: each line less what a return of the units taken off would refund,
 * the order's figures less the sum of it, the shipping as it was. `priced` is the order as pricing answered for the
 * same lines (its names, tax classes and rates are kept; its figures replaced). Returns the order in pricing's shape.
 */
export function orderLessUnitsTakenOff(input: {
  order: StoredOrder;
  lines: readonly StoredLine[];
  keep: ReadonlyMap<string, number>;
  priced: PricedOrder;
}): PricedOrder {
  const { order } = input;
  const taken = input.lines.map((line) => ({
    line,
    quantity: line.quantity - (input.keep.get(line.alias) ?? line.quantity),
  }));
  const result = refundForReturnedUnits({
    pricesIncludeTax: order.pricesIncludeTax,
    lines: taken.map(({ line, quantity }) => ({ line, quantity, returnedBefore: 0 })),
    shipping: null,
  });
  if (!result.ok) throw new RangeError(result.detail);
  const givenBackByPromotion = new Map<number, number>();
  const kept = new Map<
    string,
    Pick<PricedLine, 'quantity' | 'subtotalMinor' | 'discountMinor' | 'adjustments' | 'taxMinor' | 'totalMinor'>
  >();
  taken.forEach(({ line, quantity }, i) => {
    const refund = result.refund.lines[i];
    if (!refund) throw new Error('a line without its refund');
    // The line's discount given back, split over what each promotion took off it (largest remainder by amount).
    const weights = line.adjustments.map((a) => a.amountMinor);
    // A custom discount names no promotion: nothing to split.
    const shares = sumMinor(weights) > 0 ? allocate(refund.discountMinor, weights) : [];
    line.adjustments.forEach((a, n) => {
      givenBackByPromotion.set(a.promotionId, (givenBackByPromotion.get(a.promotionId) ?? 0) + (shares[n] ?? 0));
    });
    kept.set(line.alias, {
      quantity: line.quantity - quantity,
      subtotalMinor: subtractMinor(line.subtotal, refund.goodsMinor),
      discountMinor: subtractMinor(line.discount, refund.discountMinor),
      adjustments: line.adjustments
        .map((a, n) => ({ promotionId: a.promotionId, amountMinor: a.amountMinor - (shares[n] ?? 0) }))
        .filter((a) => a.amountMinor > 0),
      taxMinor: subtractMinor(line.tax, refund.taxMinor),
      totalMinor: subtractMinor(line.total, refund.amountMinor),
    });
  });
  const lines = input.priced.lines.map((l) => {
    const figures = kept.get(l.alias);
    if (!figures) throw new Error(`line ${l.alias} is not a stored line of the order`);
    return { ...l, ...figures };
  });
  const back = result.refund;
  const estimatedTax = subtractMinor(order.estimatedTax, back.taxMinor);
  const total = subtractMinor(order.total, back.amountMinor);
  const promotions = input.priced.promotions.map((p) => {
    const stored = order.promotions.find((s) => s.id === p.id)?.amountMinor ?? p.amountMinor;
    return { ...p, amountMinor: stored - (givenBackByPromotion.get(p.id) ?? 0) };
  });
  return {
    ...input.priced,
    lines,
    promotions,
    totalItems: order.totalItems - sumMinor(taken.map((t) => t.quantity)),
    subtotalMinor: subtractMinor(order.subtotal, back.goodsMinor),
    discountMinor: subtractMinor(order.discount, back.discountMinor),
    shippingFeeMinor: order.shippingFee,
    shippingDiscountMinor: order.shippingDiscount,
    shippingTaxMinor: order.shippingTax,
    estimatedTaxMinor: estimatedTax,
    totalWithoutTaxMinor: subtractMinor(total, estimatedTax),
    totalMinor: total,
  };
}
