import {
  backToStoreCurrency,
  exchangeMinor,
  type MarketPricing,
  priceInMarket,
  type UnitPrice,
} from './market-price.js';

/*
 * What a market changes in a checkout (issue #28, decision 0031), each rule once: a line's unit price, a shipping
 * rate, what the market offers, and an order's total back in the store currency for reports. Pure.
 */

/** What a checkout needs of a market (src/markets/market-directory.ts `Market`). */
export interface CheckoutMarket {
  isDefault: boolean;
  currency: string;
  exchangeRate: string;
  pricing: MarketPricing;
  paymentPlugins: readonly string[];
  shippingMethodIds: readonly number[];
}

/** A variant's unit price in the market: its explicit price in the market's currency, else its price converted. */
export function unitPriceIn(
  market: CheckoutMarket,
  variant: { price: number; explicitPrices?: Readonly<Record<string, UnitPrice>> | null },
): number {
  if (market.pricing.conversion === null) return variant.price;
  const explicit = variant.explicitPrices?.[market.currency];
  return priceInMarket({ amount: variant.price, compareAt: null }, explicit, market.pricing).amount;
}

/** A shipping rate's amounts, minor units of one currency. */
export interface RateAmounts {
  baseRateMinor: number;
  perKgRateMinor: number;
}

/**
 * A shipping rate in the market's currency (decision 0037): the rate's own amounts in that currency when the admin
 * gave them, else its store-currency amounts converted at the market's rate to the currency's precision, base and
 * per-kg alike (no price rule: a fee is not a shelf price). In the store currency, the rate as it is.
 */
export function shippingRateIn<
  R extends RateAmounts & { pricesByCurrency?: Readonly<Record<string, RateAmounts>> | null },
>(market: CheckoutMarket, rate: R | undefined): R | undefined {
  const converting = market.pricing.conversion;
  if (rate === undefined || converting === null) return rate;
  const own = rate.pricesByCurrency?.[market.currency];
  if (own !== undefined) return { ...rate, baseRateMinor: own.baseRateMinor, perKgRateMinor: own.perKgRateMinor };
  return {
    ...rate,
    baseRateMinor: exchangeMinor(rate.baseRateMinor, converting.conversion),
    perKgRateMinor: exchangeMinor(rate.perKgRateMinor, converting.conversion),
  };
}

/** Whether the market offers a shipping method (an empty list offers every active one). */
export function offersShippingMethod(market: CheckoutMarket, methodId: number): boolean {
  return market.shippingMethodIds.length === 0 || market.shippingMethodIds.includes(methodId);
}

/** Whether the market offers a payment plugin (an empty list offers every enabled one). */
export function offersPaymentPlugin(market: Pick<CheckoutMarket, 'paymentPlugins'>, pluginId: string): boolean {
  return market.paymentPlugins.length === 0 || market.paymentPlugins.includes(pluginId);
}

/** An order's total in the store currency, for reports: itself there, else back at the market's rate. */
export function totalInStoreCurrency(market: CheckoutMarket, total: number): number {
  const converting = market.pricing.conversion;
  return converting === null ? total : backToStoreCurrency(total, converting.conversion);
}
