import { type Decimal, parseDecimal, percentOf, type RoundingMode } from '../../shared/money.js';

/** A promotion's percentage (`"12.5"`, up to 4 decimals); negative or malformed is a caller bug. */
export function parsePercent(text: string): Decimal {
  const percent = parseDecimal(text, 4);
  if (percent.units < 0n) throw new RangeError(`promotion percentage ${text} is negative`);
  return percent;
}

/** `percent` of an amount, rounded once, never more than the amount. */
export function percentOff(amountMinor: number, percent: Decimal, mode: RoundingMode): number {
  return Math.min(percentOf(amountMinor, percent, mode), amountMinor);
}

/** A fixed amount of a promotion, checked: a non-negative whole number of minor units. */
export function fixedAmount(amountMinor: number): number {
  if (!Number.isSafeInteger(amountMinor) || amountMinor < 0) {
    throw new RangeError(`promotion amount ${amountMinor} must be a non-negative whole number of minor units`);
  }
  return amountMinor;
}
