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

/**
 * A shipping rate of the store currency in the market's: its base and per-kg amounts converted at the market's rate to
 * the currency's precision (no price rule: a fee is not a shelf price). Rates per currency are a later slice.
 */
export function shippingRateIn<R extends { baseRateMinor: number; perKgRateMinor: number }>(
  market: CheckoutMarket,
  rate: R | undefined,
): R | undefined {
  const converting = market.pricing.conversion;
  if (rate === undefined || converting === null) return rate;
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
