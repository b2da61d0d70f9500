import { currencyExponent } from '../shared/currency.js';
import { currencyFormat, formatDecimal } from '../shared/money.js';
import type { MarketRecord } from './markets.repository.js';
import type { VariantPriceRow } from './variant-prices.repository.js';

/** What the default market takes from the store's environment (decision 0031). */
export interface StoreMarketSettings {
  storeCurrency: string;
  pricesIncludeTax: boolean;
}

/** A market's currency and inclusivity: its own, or the store's for the default market. */
function settingsOf(record: MarketRecord, store: StoreMarketSettings) {
  const { row } = record;
  return {
    currency: row.currency ?? store.storeCurrency,
    pricesIncludeTax: row.pricesIncludeTax ?? store.pricesIncludeTax,
  };
}

export function presentMarket(record: MarketRecord, store: StoreMarketSettings) {
  const { row } = record;
  const { currency, pricesIncludeTax } = settingsOf(record, store);
  // Step and ending at the currency's precision ("0.99", "100"); the rate canonical ("151.37").
  const exponent = currencyExponent(currency);
  const money = (value: string) => formatDecimal(value, { minScale: exponent, maxScale: exponent });
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    currency,
    prices_include_tax: pricesIncludeTax,
    exchange_rate: row.exchangeRate === null ? '1' : formatDecimal(row.exchangeRate),
    rounding_step: row.roundingStep === null ? null : money(row.roundingStep),
    price_ending: money(row.priceEnding),
    rounding_direction: row.roundingDirection,
    is_default: row.isDefault,
    countries: record.countries,
    payment_plugins: record.paymentPlugins,
    shipping_method_ids: record.shippingMethodIds,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function presentStorefrontMarket(record: MarketRecord, store: StoreMarketSettings) {
  const { currency, pricesIncludeTax } = settingsOf(record, store);
  return {
    code: record.row.code,
    name: record.row.name,
    currency,
    prices_include_tax: pricesIncludeTax,
    is_default: record.row.isDefault,
    countries: record.countries,
  };
}

/** An explicit price, at its own currency's precision. */
export function presentVariantPrice(row: VariantPriceRow) {
  const money = currencyFormat(row.currency);
  return {
    currency: row.currency,
    price: money.format(row.amount),
    compare_at_price: row.compareAtAmount === null ? null : money.format(row.compareAtAmount),
    updated_at: row.updatedAt.toISOString(),
  };
}
