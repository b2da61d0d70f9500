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
    throw new MoneyFormatError(
      exponent === 0
        ? 'must be a whole number in this currency'
        : `must have at most ${exponent} decimal places in this currency`,
    );
  }
  const digits = (whole + fraction.padEnd(exponent, '0')).replace(/^0+(?=\d)/, '');
  if (digits.length > 16 || Number(digits) > MAX_MINOR_UNITS) throw new MoneyFormatError('is too large');
  const value = Number(digits);
  return minus && value !== 0 ? -value : value;
}

/** 1230 → `"12.30"` for a 2-digit currency. A bigint is formatted the same, whatever its size. */
export function formatMinor(minor: number | bigint, exponent: number): string {
  if (typeof minor === 'number' && !Number.isSafeInteger(minor))
    throw new RangeError(`not a whole number of minor units: ${minor}`);
  const sign = minor < 0 ? '-' : '';
  // A safe integer's own text is exact (no exponent below 10^21): no bigint needed, and responses format dozens.
  const magnitude = typeof minor === 'number' ? String(Math.abs(minor)) : (minor < 0 ? -minor : minor).toString();
  const digits = magnitude.padStart(exponent + 1, '0');
  if (exponent === 0) return sign + digits;
  return `${sign}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

/** Parses and formats amounts of one currency. */
export interface CurrencyFormat {
  currency: string;
  exponent: number;
  parse(text: string): number;
  format(minor: number | bigint): string;
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

// ---------------------------------------------------------------------------------------------
// Arithmetic. Amounts stay safe integers of minor units; anything that multiplies or divides goes
// through bigint so intermediate products never lose a digit, and is rounded exactly once.

/** How an exact quantity becomes a whole number: `half_up` sends .5 away from zero, `half_even` to
 * the even neighbour (banker's rounding). Everything else goes to the nearest integer. */
export type RoundingMode = 'half_up' | 'half_even';

export const ROUNDING_MODES: readonly RoundingMode[] = ['half_up', 'half_even'];

/** An arithmetic result that is not a safe integer (|x| > 2^53 − 1). */
export class MoneyOverflowError extends RangeError {
  constructor(what: string) {
    super(`${what} is outside the safe integer range`);
    this.name = 'MoneyOverflowError';
  }
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** A bigint as a safe-integer number, or a MoneyOverflowError. */
export function toSafeMinor(value: bigint): number {
  if (value > MAX_SAFE || value < -MAX_SAFE) throw new MoneyOverflowError(`amount ${value}`);
  return Number(value);
}

function assertMinor(amount: number, what = 'amount'): void {
  if (!Number.isSafeInteger(amount)) throw new RangeError(`${what} is not a whole number of minor units: ${amount}`);
}

// Sums, differences and products of safe integers are computed as numbers, without bigints (pricing and presenting
// an order make dozens): the floating result is the exact one rounded, so an exact result within the safe range is
// returned as it is, and one beyond it rounds to a number that is not a safe integer, which is refused.

/** A result computed in floating point: exact when it is a safe integer; beyond that, an overflow. */
function checkedResult(value: number, what: string): number {
  if (!Number.isSafeInteger(value)) throw new MoneyOverflowError(what);
  return value;
}

/** Sum of amounts, refused when it leaves the safe range. */
export function sumMinor(amounts: Iterable<number>): number {
  const all = Array.isArray(amounts) ? (amounts as readonly number[]) : [...amounts];
  let total = 0;
  for (const amount of all) {
    assertMinor(amount);
    total += amount;
    // A partial sum beyond the safe range may have been rounded: the whole sum again, in bigints.
    if (!Number.isSafeInteger(total)) return toSafeMinor(all.reduce((t, a) => t + BigInt(a), 0n));
  }
  return total;
}

/** `a − b`, refused when it leaves the safe range. */
export function subtractMinor(a: number, b: number): number {
  assertMinor(a);
  assertMinor(b);
  // −0 (−0 − 0) is 0.
  return checkedResult(a - b, `${a} − ${b}`) + 0;
}

/** An amount times a whole number (a unit price times a quantity). */
export function multiplyMinor(amount: number, times: number): number {
  assertMinor(amount);
  assertMinor(times, 'multiplier');
  // −0 (a negative amount times 0) is 0.
  return checkedResult(amount * times, `${amount} × ${times}`) + 0;
}

/**
 * `numerator / denominator` rounded to an integer in `mode`, exactly: the remainder is compared
 * with half the denominator in integers, so there is no float step and no double rounding.
 */
export function roundDiv(numerator: bigint, denominator: bigint, mode: RoundingMode): bigint {
  if (denominator === 0n) throw new RangeError('division by zero');
  if (denominator < 0n) {
    numerator = -numerator;
    denominator = -denominator;
  }
  const quotient = numerator / denominator; // truncates toward zero
  const remainder = numerator % denominator; // has the numerator's sign
  if (remainder === 0n) return quotient;
  const away = numerator < 0n ? quotient - 1n : quotient + 1n;
  const twice = (remainder < 0n ? -remainder : remainder) * 2n;
  if (twice > denominator) return away;
  if (twice < denominator) return quotient;
  if (mode === 'half_up') return away;
  return quotient % 2n === 0n ? quotient : away;
}

/**
 * An exact decimal quantity `units / 10^scale`: a tax rate (`"15.0000"` → 150000n, 4), a weight
 * (`"2.345"` → 2345n, 3). Trailing zeros are kept; they change nothing arithmetically.
 */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

/**
 * Parses a decimal string such as `"7.25"`, `"-0.5"` or `"2345"` without any float. `maxScale`
 * caps the number of decimals (a tax rate allows 4); more is a MoneyFormatError, never a rounding.
 */
export function parseDecimal(text: string, maxScale = 18): Decimal {
  const match = DECIMAL.exec(text);
  if (!match || text.length > 64) throw new MoneyFormatError(`"${text}" is not a decimal number like "12.5"`);
  const [, minus, whole = '', fraction = ''] = match;
  if (fraction.length > maxScale) throw new MoneyFormatError(`"${text}" has more than ${maxScale} decimal places`);
  const magnitude = BigInt(whole + fraction);
  return { units: minus ? -magnitude : magnitude, scale: fraction.length };
}

function asDecimal(value: Decimal | string): Decimal {
  return typeof value === 'string' ? parseDecimal(value) : value;
}

/**
 * A decimal as a plain string with between `minScale` and `maxScale` decimals: trailing zeros
 * beyond `minScale` are dropped (`15.0000` → `"15.00"` with minScale 2). Never rounds: a value
 * needing more than `maxScale` decimals throws.
 */
export function formatDecimal(value: Decimal | string, options: { minScale?: number; maxScale?: number } = {}): string {
  const { units, scale } = asDecimal(value);
  const minScale = options.minScale ?? 0;
  const maxScale = options.maxScale ?? Math.max(scale, minScale);
  const sign = units < 0n ? '-' : '';
  let digits = (units < 0n ? -units : units).toString().padStart(scale + 1, '0');
  let fraction = digits.slice(digits.length - scale);
  digits = digits.slice(0, digits.length - scale);
  fraction = fraction.replace(/0+$/, '');
  if (fraction.length > maxScale)
    throw new RangeError(`${sign}${digits}.${fraction} needs more than ${maxScale} decimals`);
  fraction = fraction.padEnd(minScale, '0');
  const text = fraction ? `${digits}.${fraction}` : digits;
  return /^[0.]+$/.test(text) ? text : sign + text;
}

/** Both decimals on a common scale. */
function aligned(a: Decimal, b: Decimal): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [a.units * 10n ** BigInt(scale - a.scale), b.units * 10n ** BigInt(scale - b.scale), scale];
}

export function compareDecimal(a: Decimal | string, b: Decimal | string): -1 | 0 | 1 {
  const [x, y] = aligned(asDecimal(a), asDecimal(b));
  return x < y ? -1 : x > y ? 1 : 0;
}

export function addDecimal(a: Decimal | string, b: Decimal | string): Decimal {
  const [x, y, scale] = aligned(asDecimal(a), asDecimal(b));
  return { units: x + y, scale };
}

export function subtractDecimal(a: Decimal | string, b: Decimal | string): Decimal {
  const [x, y, scale] = aligned(asDecimal(a), asDecimal(b));
  return { units: x - y, scale };
}

/** A decimal times a whole number, exactly (a weight per unit times a quantity). */
export function multiplyDecimal(value: Decimal | string, times: number | bigint): Decimal {
  const { units, scale } = asDecimal(value);
  return { units: units * BigInt(times), scale };
}

/** Divides by 10^places exactly (grams → kilograms is `shiftDecimal(g, 3)`). */
export function shiftDecimal(value: Decimal | string, places: number): Decimal {
  const { units, scale } = asDecimal(value);
  return places >= 0 ? { units, scale: scale + places } : { units: units * 10n ** BigInt(-places), scale };
}

/**
 * `amount × factor`, rounded once in `mode`: a per-kg rate times kilograms (`"2.345"`), or any
 * other exact decimal factor.
 */
export function multiplyByDecimal(amount: number, factor: Decimal | string, mode: RoundingMode): number {
  assertMinor(amount);
  const { units, scale } = asDecimal(factor);
  return toSafeMinor(roundDiv(BigInt(amount) * units, 10n ** BigInt(scale), mode));
}

/** `amount × percent / 100`, rounded once in `mode`: a tax at `"7.2500"` percent, a 10% discount. */
export function percentOf(amount: number, percent: Decimal | string, mode: RoundingMode): number {
  return multiplyByDecimal(amount, shiftDecimal(percent, 2), mode);
}

/**
 * `amount × numerator / denominator`, rounded once in `mode`, for ratios that are not a decimal
 * (the tax inside a gross amount is `gross × rate / (100 + rate)`).
 */
export function multiplyByRatio(
  amount: number,
  ratio: { numerator: bigint; denominator: bigint },
  mode: RoundingMode,
): number {
  assertMinor(amount);
  return toSafeMinor(roundDiv(BigInt(amount) * ratio.numerator, ratio.denominator, mode));
}

/**
 * Splits `total` into shares proportional to `weights` with the largest-remainder method: every
 * share is its exact proportion rounded down (toward zero), then the units left over go one each
 * to the largest remainders, ties to the lower index. The shares always add up to `total`, each
 * is within one unit of its exact proportion, zero weights get zero, and a negative total is the
 * mirror image of the positive one. Weights must be non-negative safe integers; a non-zero total
 * over weights that are all zero (or none) cannot be split and throws.
 */
export function allocate(total: number, weights: readonly number[]): number[] {
  assertMinor(total, 'total');
  let sum = 0n;
  for (const weight of weights) {
    if (!Number.isSafeInteger(weight) || weight < 0)
      throw new RangeError(`weight ${weight} is not a non-negative integer`);
    sum += BigInt(weight);
  }
  if (total === 0) return weights.map(() => 0);
  if (sum === 0n) throw new RangeError(`cannot allocate ${total} over weights that are all zero`);
  const magnitude = BigInt(Math.abs(total));
  const shares = weights.map((weight) => {
    const product = magnitude * BigInt(weight);
    return { floor: product / sum, remainder: product % sum };
  });
  let left = magnitude - shares.reduce((acc, share) => acc + share.floor, 0n);
  const order = shares
    .map((share, index) => ({ index, remainder: share.remainder }))
    .sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  for (const { index } of order) {
    if (left === 0n) break;
    const share = shares[index];
    if (share) share.floor += 1n;
    left -= 1n;
  }
  const sign = total < 0 ? -1 : 1;
  return shares.map((share) => sign * Number(share.floor) || 0);
}
