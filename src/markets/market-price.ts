import { currencyExponent } from '../shared/currency.js';
import { type Decimal, parseDecimal, parseMinor, type RoundingMode, roundDiv, toSafeMinor } from '../shared/money.js';

/*
 * A price in a market's currency (issue #28, decision 0031): the variant's explicit price in that currency when it has
 * one, else its default-currency price converted at the market's exchange rate, rounded once to the currency's minor
 * unit, then to the market's price rule (a step and an ending). Pure: data in, a whole number of minor units out; no
 * float ever touches an amount or a rate.
 */

/** Where a price between two candidates goes: the nearer one (ties upwards), the one above, the one below. */
export type RoundingDirection = 'nearest' | 'up' | 'down';

export const ROUNDING_DIRECTIONS: readonly RoundingDirection[] = ['nearest', 'up', 'down'];

/**
 * A market's price rule in minor units of its currency: a price becomes `k × step + ending` (k ≥ 0). `step` 1 and
 * `ending` 0 change nothing; JPY `step` 100 turns ¥3,784 into ¥3,800; EUR `step` 100, `ending` 99 gives x.99.
 */
export interface PriceRounding {
  /** A positive whole number of minor units. */
  step: number;
  /** A whole number of minor units, 0 ≤ ending < step. */
  ending: number;
  direction: RoundingDirection;
}

/** No rule: the price stays as the precision step left it. */
export const NO_PRICE_ROUNDING: PriceRounding = { step: 1, ending: 0, direction: 'nearest' };

/** The stored form of a rule: decimal strings in major units of the market's currency (`"100"`, `"0.99"`). */
export interface StoredPriceRounding {
  /** null: the currency's minor unit (no rounding beyond its precision). */
  step: string | null;
  ending: string;
  direction: RoundingDirection;
}

/** A stored rule in minor units of `currency`; throws (MoneyFormatError, RangeError) when it does not fit it. */
export function priceRoundingOf(stored: StoredPriceRounding, currency: string): PriceRounding {
  const exponent = currencyExponent(currency);
  const step = stored.step === null ? 1 : parseMinor(stored.step, exponent);
  const ending = parseMinor(stored.ending, exponent);
  assertRounding({ step, ending, direction: stored.direction });
  return { step, ending, direction: stored.direction };
}

function assertRounding(rule: PriceRounding): void {
  if (!Number.isSafeInteger(rule.step) || rule.step < 1) throw new RangeError('the rounding step must be positive');
  if (!Number.isSafeInteger(rule.ending) || rule.ending < 0 || rule.ending >= rule.step) {
    throw new RangeError('the price ending must be at least zero and below the rounding step');
  }
}

/**
 * An amount moved onto the rule's candidates `k × step + ending`. Zero stays zero (a free item stays free) and a
 * positive amount never becomes zero (the smallest positive candidate instead). Monotonic in the amount.
 */
export function roundPrice(amount: number, rule: PriceRounding): number {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError(`not a price in minor units: ${amount}`);
  assertRounding(rule);
  if (amount === 0) return 0;
  const price = BigInt(amount);
  const step = BigInt(rule.step);
  const ending = BigInt(rule.ending);
  // The largest candidate at or below the price (none when the price is below the ending), and the smallest above.
  const below = price >= ending ? ((price - ending) / step) * step + ending : null;
  const above = below === null ? ending : below === price ? price : below + step;
  let chosen: bigint | null;
  if (rule.direction === 'up') chosen = above;
  else if (rule.direction === 'down' || below === price) chosen = below;
  else chosen = below === null || price - below >= above - price ? above : below;
  if (chosen === null || chosen === 0n) chosen = ending > 0n ? ending : step;
  return toSafeMinor(chosen);
}

/** How a default-currency amount becomes one of a market's currency. */
export interface Conversion {
  /** The store's default currency (STORE_CURRENCY). */
  from: string;
  /** The market's currency. */
  to: string;
  /** Major units of `to` that one major unit of `from` buys, exact: `"151.37"`. Positive. */
  rate: Decimal | string;
  /** The store's ROUNDING_MODE, for the one step to the minor unit of `to`. */
  mode: RoundingMode;
}

/**
 * `amount` minor units of `from` in minor units of `to`, exactly: `amount × rate × 10^(e_to − e_from)` as one bigint
 * fraction rounded once. 2500 US cents at `"151.37"` are 3,784.25 yen → ¥3,784 (half_up).
 */
export function exchangeMinor(amount: number, conversion: Conversion): number {
  if (!Number.isSafeInteger(amount)) throw new RangeError(`not a whole number of minor units: ${amount}`);
  const rate = typeof conversion.rate === 'string' ? parseDecimal(conversion.rate) : conversion.rate;
  if (rate.units <= 0n) throw new RangeError('an exchange rate must be positive');
  const numerator = BigInt(amount) * rate.units * 10n ** BigInt(currencyExponent(conversion.to));
  const denominator = 10n ** BigInt(rate.scale + currencyExponent(conversion.from));
  return toSafeMinor(roundDiv(numerator, denominator, conversion.mode));
}

/**
 * `amount` minor units of the market's currency (`to`) back in minor units of the store currency (`from`) at the same
 * rate, rounded once: an order's total for reports (¥3,800 at `"151.37"` → 25.10 USD). Never used to charge.
 */
export function backToStoreCurrency(amount: number, conversion: Conversion): number {
  if (!Number.isSafeInteger(amount)) throw new RangeError(`not a whole number of minor units: ${amount}`);
  const rate = typeof conversion.rate === 'string' ? parseDecimal(conversion.rate) : conversion.rate;
  if (rate.units <= 0n) throw new RangeError('an exchange rate must be positive');
  const numerator = BigInt(amount) * 10n ** BigInt(rate.scale + currencyExponent(conversion.from));
  const denominator = rate.units * 10n ** BigInt(currencyExponent(conversion.to));
  return toSafeMinor(roundDiv(numerator, denominator, conversion.mode));
}

/**
 * A default-currency price as a market shows it: converted to the currency's precision, then by the market's rule. A
 * positive price stays positive even when the conversion rounds it to nothing (a tiny rate): it gets the rule's
 * smallest positive price, as a positive price the rule would round to zero does.
 */
export function convertPrice(amount: number, conversion: Conversion, rule: PriceRounding): number {
  if (amount < 0) throw new RangeError(`a price is never negative: ${amount}`);
  const exchanged = exchangeMinor(amount, conversion);
  return roundPrice(amount > 0 && exchanged === 0 ? 1 : exchanged, rule);
}

/** What pricing needs of a market: its currency and, unless it is the store's own, how to convert into it. */
export interface MarketPricing {
  currency: string;
  /** null: the default currency, prices as stored. */
  conversion: { conversion: Conversion; rule: PriceRounding } | null;
}

/** A variant's price and compare-at price in one currency, minor units. */
export interface UnitPrice {
  amount: number;
  compareAt: number | null;
}

/**
 * A variant's price in a market: its explicit price in the market's currency when it has one (compare-at with it),
 * else its default-currency price and compare-at converted and rounded alike. `converted` says which.
 */
export function priceInMarket(
  stored: UnitPrice,
  explicit: UnitPrice | undefined,
  market: MarketPricing,
): UnitPrice & { converted: boolean } {
  if (market.conversion === null) return { ...stored, converted: false };
  if (explicit) return { ...explicit, converted: false };
  const { conversion, rule } = market.conversion;
  return {
    amount: convertPrice(stored.amount, conversion, rule),
    compareAt: stored.compareAt === null ? null : convertPrice(stored.compareAt, conversion, rule),
    converted: true,
  };
}
