import type { Static } from 'typebox';
import { normaliseCountry } from '../addresses/address.schema.js';
import { currencyExponent, isSupportedCurrency } from '../shared/currency.js';
import { invalidField } from '../shared/errors.js';
import {
  compareDecimal,
  currencyFormat,
  type Decimal,
  formatDecimal,
  MoneyFormatError,
  MoneyOverflowError,
  parseDecimal,
  parseMinor,
} from '../shared/money.js';
import { convertPrice, priceRoundingOf, type RoundingDirection } from './market-price.js';
import type { MarketInput, MarketPatch } from './market.schema.js';

// What the admin sends about a market, checked beyond its schema and turned into the stored form (decision 0031):
// an ISO 4217 currency, an exact positive rate, a rounding rule that fits the currency's precision, countries and
// plugins each listed once. Each refusal is a 422 naming its field.

/** What the checks need of the store. */
export interface MarketSettings {
  storeCurrency: string;
  /** Whether this process has the payment plugin enabled. */
  isPaymentPlugin: (id: string) => boolean;
}

/** A market's own columns as written (decimals canonical, currency upper-case, code lower-case). */
export interface MarketColumns {
  code: string;
  name: string;
  currency: string;
  pricesIncludeTax: boolean;
  exchangeRate: string;
  roundingStep: string | null;
  priceEnding: string;
  roundingDirection: RoundingDirection;
}

/** The lists a market offers; absent: unchanged (PATCH) or none (POST). */
export interface MarketLists {
  countries?: string[];
  paymentPlugins?: string[];
  shippingMethodIds?: number[];
}

/** The rate, rounding and currency of a market, checked together (a change of one is checked against the others). */
type MarketPricingColumns = Pick<
  MarketColumns,
  'currency' | 'exchangeRate' | 'roundingStep' | 'priceEnding' | 'roundingDirection'
>;

/** The largest rate the column holds (numeric(24,10): 14 whole digits). */
const MAX_RATE: Decimal = { units: 10n ** 14n, scale: 0 };

function marketName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw invalidField('name', 'must not be blank');
  return trimmed;
}

function currencyCode(raw: string): string {
  const code = raw.trim().toUpperCase();
  if (!isSupportedCurrency(code)) throw invalidField('currency', 'is not an ISO 4217 currency code such as "EUR"');
  return code;
}

function exchangeRate(text: string, currency: string, settings: MarketSettings): string {
  let rate: Decimal;
  try {
    rate = parseDecimal(text, 10);
  } catch (err) {
    if (err instanceof MoneyFormatError) {
      throw invalidField('exchange_rate', 'must be a decimal string with at most 10 decimals, like "151.37"');
    }
    throw err;
  }
  if (rate.units <= 0n) throw invalidField('exchange_rate', 'must be more than 0');
  if (compareDecimal(rate, MAX_RATE) >= 0) throw invalidField('exchange_rate', 'must be below 100000000000000');
  if (currency === settings.storeCurrency && compareDecimal(rate, '1') !== 0) {
    throw invalidField('exchange_rate', `must be "1" for a market in the store currency (${currency})`);
  }
  return formatDecimal(rate);
}

/** A decimal of the market's currency, at most its precision, as minor units; a 422 on `field` otherwise. */
function minorOf(text: string, currency: string, field: string): number {
  try {
    return parseMinor(text, currencyExponent(currency));
  } catch (err) {
    if (err instanceof MoneyFormatError) throw invalidField(field, `${err.message} (${currency})`);
    throw err;
  }
}

/** Currency, rate and rounding rule checked together; decimals made canonical. */
function pricingColumns(wanted: MarketPricingColumns, settings: MarketSettings): MarketPricingColumns {
  const currency = currencyCode(wanted.currency);
  const step = wanted.roundingStep === null ? 1 : minorOf(wanted.roundingStep, currency, 'rounding_step');
  if (step <= 0) throw invalidField('rounding_step', 'must be more than 0');
  const ending = minorOf(wanted.priceEnding, currency, 'price_ending');
  if (ending < 0) throw invalidField('price_ending', 'must not be negative');
  if (ending >= step) {
    const message =
      wanted.roundingStep === null ? 'must be 0 without a rounding_step' : 'must be below the rounding_step';
    throw invalidField('price_ending', message);
  }
  return {
    currency,
    exchangeRate: exchangeRate(wanted.exchangeRate, currency, settings),
    roundingStep: wanted.roundingStep === null ? null : formatDecimal(wanted.roundingStep),
    priceEnding: formatDecimal(wanted.priceEnding),
    roundingDirection: wanted.roundingDirection,
  };
}

const canonical = (value: string | null) => (value === null ? null : formatDecimal(value));

/** Each entry once; a repeat is a 422 naming its place in the list. */
function once<T>(values: readonly T[], field: string): T[] {
  const seen = new Set<T>();
  values.forEach((value, i) => {
    if (seen.has(value)) throw invalidField(`${field}[${i}]`, 'is listed twice');
    seen.add(value);
  });
  return [...values];
}

function listValues(body: Static<typeof MarketPatch>, settings: MarketSettings): MarketLists {
  const countries = body.countries?.map((country, i) => normaliseCountry(country, `countries[${i}]`));
  body.payment_plugins?.forEach((id, i) => {
    if (!settings.isPaymentPlugin(id)) throw invalidField(`payment_plugins[${i}]`, 'is not an enabled payment plugin');
  });
  return {
    countries: countries && once(countries, 'countries'),
    paymentPlugins: body.payment_plugins && once(body.payment_plugins, 'payment_plugins'),
    shippingMethodIds: body.shipping_method_ids && once(body.shipping_method_ids, 'shipping_method_ids'),
  };
}

export function newMarketValues(
  body: Static<typeof MarketInput>,
  settings: MarketSettings,
): { columns: MarketColumns; lists: MarketLists } {
  const pricing = pricingColumns(
    {
      currency: body.currency,
      exchangeRate: body.exchange_rate,
      roundingStep: body.rounding_step ?? null,
      priceEnding: body.price_ending ?? '0',
      roundingDirection: body.rounding_direction ?? 'nearest',
    },
    settings,
  );
  const columns = {
    code: body.code.toLowerCase(),
    name: marketName(body.name),
    pricesIncludeTax: body.prices_include_tax ?? false,
    ...pricing,
  };
  return { columns, lists: listValues(body, settings) };
}

/** The settings of the default market that follow the store's environment instead. */
const STORE_SETTINGS = [
  'currency',
  'prices_include_tax',
  'exchange_rate',
  'rounding_step',
  'price_ending',
  'rounding_direction',
] as const;

/** The market as stored before the change: what a partial change is checked against. */
export type StoredMarket = Omit<MarketColumns, 'currency' | 'pricesIncludeTax' | 'exchangeRate'> & {
  currency: string | null;
  pricesIncludeTax: boolean | null;
  exchangeRate: string | null;
  isDefault: boolean;
};

/** Wire fields of a change → the columns to write (absent fields stay absent) and the lists to replace. */
export function marketChangeValues(
  body: Static<typeof MarketPatch>,
  stored: StoredMarket,
  settings: MarketSettings,
): { columns: Partial<MarketColumns>; lists: MarketLists } {
  const columns: Partial<MarketColumns> = {
    code: body.code?.toLowerCase(),
    name: body.name === undefined ? undefined : marketName(body.name),
    pricesIncludeTax: body.prices_include_tax,
  };
  const lists = listValues(body, settings);
  if (stored.isDefault) {
    const field = STORE_SETTINGS.find((name) => body[name] !== undefined);
    if (field) {
      throw invalidField(
        field,
        "cannot be set on the default market: it follows the store's STORE_CURRENCY and PRICES_INCLUDE_TAX",
      );
    }
    return { columns, lists };
  }
  const pricingChanged = STORE_SETTINGS.some((name) => name !== 'prices_include_tax' && body[name] !== undefined);
  if (!pricingChanged) return { columns, lists };
  const pricing = pricingColumns(
    {
      currency: body.currency ?? stored.currency ?? settings.storeCurrency,
      exchangeRate: body.exchange_rate ?? stored.exchangeRate ?? '1',
      // Stored numerics carry trailing zeros ("100.000"), more decimals than a currency may have: made canonical.
      roundingStep: body.rounding_step === undefined ? canonical(stored.roundingStep) : body.rounding_step,
      priceEnding: body.price_ending ?? formatDecimal(stored.priceEnding),
      roundingDirection: body.rounding_direction ?? stored.roundingDirection,
    },
    settings,
  );
  return { columns: { ...columns, ...pricing }, lists };
}

/**
 * A 422 on `exchange_rate` when the store's largest price (`largestMinor`, minor units of the store currency) would not
 * convert into the market's currency at its rate and rule: the converted amount would be beyond what the service holds
 * exactly (Number.MAX_SAFE_INTEGER minor units). Refused at the admin's write rather than as every shopper's 422 later.
 */
export function checkLargestPriceConverts(
  pricing: MarketPricingColumns,
  { largestMinor, storeCurrency }: { largestMinor: number; storeCurrency: string },
): void {
  const rule = priceRoundingOf(
    { step: pricing.roundingStep, ending: pricing.priceEnding, direction: pricing.roundingDirection },
    pricing.currency,
  );
  const conversion = {
    from: storeCurrency,
    to: pricing.currency,
    rate: pricing.exchangeRate,
    mode: 'half_up' as const,
  };
  try {
    convertPrice(largestMinor, conversion, rule);
  } catch (err) {
    if (!(err instanceof MoneyOverflowError)) throw err;
    const largest = currencyFormat(storeCurrency).format(largestMinor);
    throw invalidField(
      'exchange_rate',
      `at this rate the store's largest price, ${largest} ${storeCurrency}, would be more ${pricing.currency} than `
        + 'the service can hold exactly',
    );
  }
}
