import type { RoundingMode } from '../shared/money.js';
import type { AppliedPromotion, LineAdjustment } from './promotions/promotion-result.types.js';
import type { Promotion } from './promotions/promotion.types.js';

/**
 * What goes into and comes out of `priceOrder`. Every amount is an integer number of minor units
 * of the store currency (a safe integer, suffix `Minor`); every other decimal quantity (tax rates
 * in percent, weights, percentages) is a decimal string, so nothing is ever a float.
 */

/** The store settings that change figures (SPEC section 2). */
export interface PricingConfig {
  /** ISO 4217 code of the store currency; its precision comes from Intl, unknown codes are refused. */
  currency: string;
  /** Used at every rounding step: discount, per-kg shipping, each line's tax, shipping tax. */
  roundingMode: RoundingMode;
  /** Prices are gross (tax included) and tax is extracted from them, instead of added on top. */
  pricesIncludeTax: boolean;
  /** Shipping carries tax (see `PricingInput.shippingTaxRate` for which rate). */
  shippingTaxable: boolean;
}

/** A product's tax class, as far as pricing cares. */
export interface TaxClassRef {
  id: number;
  /** Shown in `tax_details[].tax_class`. */
  name: string;
}

/** One order line as the catalog resolved it: current price, weight and tax class of the variant. */
export interface PricingLine {
  /** The variant's alias; lines with the same alias are summed into one. */
  alias: string;
  variantId: number;
  /** Promotions scoped to products match on this. */
  productId: number;
  /** What the line is called (passed through to the result's `name`): the orders domain says "Product - Variant". */
  name: string;
  /** A positive whole number. */
  quantity: number;
  /** Unit price in minor units: net of tax, or gross when `pricesIncludeTax`. */
  unitPriceMinor: number;
  /** Weight of one unit in grams as a decimal string (`"450.5"`); null counts as weightless. */
  weightGrams: string | null;
  /** Null: the line is never taxed. */
  taxClass: TaxClassRef | null;
}

/** The part of a shipping rate that sets the fee, once the rate has been chosen for the order. */
export interface ShippingBracket {
  /** Lower end of the weight bracket in kg (decimal string); the per-kg rate counts from here. */
  weightMinKg: string;
  /** Upper end in kg (decimal string, inclusive); null or absent means no upper limit. */
  weightMaxKg?: string | null;
  baseRateMinor: number;
  /** Charged per kg above `weightMinKg`, pro rata (not per started kg), rounded once. */
  perKgRateMinor: number;
}

/**
 * How the order ships: a method's rate chosen with `selectShippingRate` (fee computed from the
 * order weight), or an amount an admin typed in.
 */
export type PricingShipping =
  | {
      type: 'rate';
      methodName: string;
      rate: ShippingBracket;
      /** The method's tax class: shipping is taxed at its rate in `taxRates` (see `PricingInput.shippingTaxRate`). */
      taxClassId?: number | null;
    }
  | { type: 'custom'; name: string; amountMinor: number };

/** An admin's discount on the whole order (SPEC section 6, `custom_discount_amount`); it replaces promotions. */
export interface CustomDiscount {
  /** Shown as the order's `discount_name`. */
  name: string;
  amountMinor: number;
}

export interface PricingInput {
  config: PricingConfig;
  lines: readonly PricingLine[];
  /**
   * The tax rate in percent (decimal string, up to 4 decimals) of each tax class id, already
   * resolved for the delivery address with `resolveTaxRates` (default rates included). A class
   * missing here is taxed at 0.
   * Empty when there is no delivery address yet.
   */
  taxRates: ReadonlyMap<number, string>;
  shipping: PricingShipping | null;
  /**
   * Candidate promotions (SPEC section 10) whose own rules the caller checked with `checkPromotion` (window, limits,
   * customers); their conditions are checked again here on the order and those failing are left out. Any order.
   */
  promotions: readonly Promotion[];
  /** An admin's amount off the whole order, instead of any promotion; null for none. */
  customDiscount: CustomDiscount | null;
  /**
   * Rate in percent for shipping when `config.shippingTaxable`. Absent or null: the rate of the
   * shipping method's tax class in `taxRates` (so `taxRates` must hold that class too); when the
   * method has no class or the class no rate there, the highest rate applied to any line of the
   * order (0 if no line has one). Ignored when shipping is not taxable.
   */
  shippingTaxRate?: string | null;
}

/** One priced line. With `pricesIncludeTax`, `subtotalMinor` and `totalMinor` are gross and
 * `taxMinor` is the part of the total that is tax. */
export interface PricedLine {
  alias: string;
  variantId: number;
  productId: number;
  name: string;
  quantity: number;
  unitPriceMinor: number;
  /** unit price × quantity */
  subtotalMinor: number;
  /** What the promotions (or the admin's custom discount) took off this line. */
  discountMinor: number;
  /** By promotion, in the order they applied; Σ amounts = `discountMinor` (empty for a custom discount). */
  adjustments: LineAdjustment[];
  taxClass: TaxClassRef | null;
  /** Percent applied, canonical decimal string without trailing zeros (`"7.25"`, `"0"`). */
  taxRate: string;
  taxMinor: number;
  /** subtotal − discount + tax; with prices including tax, subtotal − discount (tax inside). */
  totalMinor: number;
}

/** Tax collected per tax class and rate; shipping tax is its own entry named "Shipping". */
export interface TaxDetail {
  kind: 'lines' | 'shipping';
  /** Null for the shipping entry. */
  taxClassId: number | null;
  taxClassName: string;
  /** Percent, canonical decimal string (`"7.25"`). */
  taxRate: string;
  taxMinor: number;
}

/** The figures of SPEC section 6, in minor units; `presentPricedOrder` turns them into the wire shape. */
export interface PricedOrder {
  currency: string;
  pricesIncludeTax: boolean;
  lines: PricedLine[];
  /** Σ quantities. */
  totalItems: number;
  /** Σ quantity × unit weight, decimal string in grams. */
  weightGrams: string;
  subtotalMinor: number;
  /** Σ line discounts + shipping discount. */
  discountMinor: number;
  /** The applied promotions' names joined with ", ", the admin's name for a custom discount, or null. */
  discountName: string | null;
  /** The promotions that took something off, in the order they applied (one redemption each at placement). */
  promotions: AppliedPromotion[];
  /** The fee before any shipping discount. Gross when prices include tax and shipping is taxable. */
  shippingFeeMinor: number;
  /** What promotions took off the shipping fee; part of `discountMinor`. Shipping tax is on the fee after it. */
  shippingDiscountMinor: number;
  shippingName: string | null;
  /** Percent applied to shipping, or null when shipping carries no tax. */
  shippingTaxRate: string | null;
  shippingTaxMinor: number;
  /** Σ line tax + shipping tax (extracted, not added, when prices include tax). */
  estimatedTaxMinor: number;
  /** total − estimated tax. */
  totalWithoutTaxMinor: number;
  /** What the customer pays and a gateway is asked to charge. */
  totalMinor: number;
  taxDetails: TaxDetail[];
}

/** Where the order is delivered, as far as rates care. Empty strings count as absent. */
export interface PricingAddress {
  /** ISO 3166-1 alpha-2, any case. */
  country: string;
  state?: string | null;
  city?: string | null;
}
