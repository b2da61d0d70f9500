import type { RoundingMode } from '../shared/money.js';
import type { PricingInput, PricingLine, TaxClassRef } from './pricing.types.js';
import type { Promotion } from './promotions/promotion.types.js';

/** One line of a placed order as the order keeps it: what pricing it again needs (the catalog may have changed). */
export interface PlacedLineBasis {
  alias: string;
  /** Null once the variant was deleted from the catalog. */
  variantId: number | null;
  /** Null on lines placed before the product was kept. */
  productId: number | null;
  name: string;
  quantity: number;
  /** As placed: net, or gross when the order's prices include tax. */
  unitPriceMinor: number;
  /** Null: the line was never taxed. */
  taxClassName: string | null;
  /** Percent, as placed. */
  taxRate: string;
}

/** What a placed order keeps that pricing it again needs: the figures of its placement, not the catalog's or rates'. */
export interface PlacedOrderBasis {
  currency: string;
  pricesIncludeTax: boolean;
  lines: readonly PlacedLineBasis[];
  /** The fee before any shipping discount, and its tax rate (null: shipping carried no tax). Null: no shipping. */
  shipping: { name: string; feeMinor: number; taxRate: string | null } | null;
  /** The order's discount name and amount: with no promotion, an admin's custom discount of that amount. */
  discountName: string | null;
  discountMinor: number;
  /** The promotions that applied, as they were at placement (`promotionAsPlaced`). */
  promotions: readonly Promotion[];
}

/**
 * The pricing input that prices a placed order again as it was placed (an order edit starts from it and changes its
 * lines): each line at its own unit price and tax rate, shipping at its fee and rate as placed, and the promotions
 * that applied, in their terms at placement (or the admin's custom discount). `priceOrder` on it gives back the
 * order's figures, to the minor unit (property-tested), with the store's rounding mode (not kept per order).
 */
export function pricingInputAsPlaced(order: PlacedOrderBasis, roundingMode: RoundingMode): PricingInput {
  // Tax classes by what the order kept of them: a name and a rate. One id per pair.
  const classes = new Map<string, { taxClass: TaxClassRef; rate: string }>();
  const classOf = (line: PlacedLineBasis): TaxClassRef | null => {
    if (line.taxClassName === null) return null;
    const key = JSON.stringify([line.taxClassName, line.taxRate]);
    let known = classes.get(key);
    if (!known) {
      known = { taxClass: { id: classes.size + 1, name: line.taxClassName }, rate: line.taxRate };
      classes.set(key, known);
    }
    return known.taxClass;
  };
  const lines = order.lines.map(
    (line): PricingLine => ({
      alias: line.alias,
      variantId: line.variantId ?? 0,
      productId: line.productId ?? 0,
      name: line.name,
      quantity: line.quantity,
      unitPriceMinor: line.unitPriceMinor,
      weightGrams: null,
      taxClass: classOf(line),
    }),
  );
  const { shipping } = order;
  const custom = order.promotions.length === 0 && order.discountName !== null;
  return {
    config: {
      currency: order.currency,
      roundingMode,
      pricesIncludeTax: order.pricesIncludeTax,
      shippingTaxable: shipping !== null && shipping.taxRate !== null,
    },
    lines,
    taxRates: new Map([...classes.values()].map((c) => [c.taxClass.id, c.rate])),
    shipping: shipping && { type: 'custom', name: shipping.name, amountMinor: shipping.feeMinor },
    shippingTaxRate: shipping?.taxRate ?? null,
    promotions: order.promotions,
    customDiscount: custom ? { name: order.discountName ?? '', amountMinor: order.discountMinor } : null,
  };
}
