import { currencyExponent } from './currency.js';

/**
 * Money inside the service is an integer number of minor units (cents, yen, fils), always a safe
 * integer; outside it is a decimal string with exactly the currency's precision. No float ever
 * touches an amount: strings are parsed digit by digit.
 */
export class MoneyFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MoneyFormatError';
  }
}

/** The largest amount the service accepts anywhere, in minor units (10^15: 10 trillion USD). */
export const MAX_MINOR_UNITS = 1_000_000_000_000_000;

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

/**
 * `"12.30"` → 1230 for a 2-digit currency. Refuses more decimals than the currency has (never
 * rounds silently), exponents, signs other than a leading minus, and amounts over the maximum.
 */
export function parseMinor(text: string, exponent: number): number {
  const match = DECIMAL.exec(text);
  if (!match) throw new MoneyFormatError('must be a decimal number written as a string, like "12.30"');
  const [, minus, whole = '', fraction = ''] = match;
  if (fraction.length > exponent) {
    throw new MoneyFormatError(exponent === 0
      ? 'must be a whole number in this currency'
      : `must have at most ${exponent} decimal places in this currency`);
  }
  const digits = (whole + fraction.padEnd(exponent, '0')).replace(/^0+(?=\d)/, '');
  if (digits.length > 16 || Number(digits) > MAX_MINOR_UNITS) throw new MoneyFormatError('is too large');
  const value = Number(digits);
  return minus && value !== 0 ? -value : value;
}

/** 1230 → `"12.30"` for a 2-digit currency. */
export function formatMinor(minor: number, exponent: number): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`not a whole number of minor units: ${minor}`);
  const sign = minor < 0 ? '-' : '';
  const digits = Math.abs(minor).toString().padStart(exponent + 1, '0');
  if (exponent === 0) return sign + digits;
  return `${sign}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

/** Parses and formats amounts of one currency. */
export interface CurrencyFormat {
  currency: string;
  exponent: number;
  parse(text: string): number;
  format(minor: number): string;
}

export function currencyFormat(currency: string): CurrencyFormat {
  const exponent = currencyExponent(currency);
  return {
    currency,
    exponent,
    parse: (text) => parseMinor(text, exponent),
    format: (minor) => formatMinor(minor, exponent),
  };
}
