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
  // A safe integer's decimal digits are exact as a number's; a bigint may be larger.
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

// Sums, differences and products of safe integers are computed as numbers while they stay safe: a double holds every
// integer up to 2^53 − 1 exactly, and a result beyond that rounds to a value that is not a safe integer either, so
// `Number.isSafeInteger` of the result tells exactly when to go on in bigint. (`|| 0` turns −0 into 0.)

/** Sum of amounts, refused when it leaves the safe range (a partial sum beyond it is carried on in bigint). */
export function sumMinor(amounts: Iterable<number>): number {
  let total = 0;
  let big: bigint | null = null;
  for (const amount of amounts) {
    assertMinor(amount);
    if (big !== null) {
      big += BigInt(amount);
      continue;
    }
    const next = total + amount;
    if (Number.isSafeInteger(next)) total = next;
    else big = BigInt(total) + BigInt(amount);
  }
  return big === null ? total || 0 : toSafeMinor(big);
}

/** `a + b`, refused when it leaves the safe range. */
export function addMinor(a: number, b: number): number {
  assertMinor(a);
  assertMinor(b);
  const sum = a + b;
  return Number.isSafeInteger(sum) ? sum || 0 : toSafeMinor(BigInt(a) + BigInt(b));
}

/** `a − b`, refused when it leaves the safe range. */
export function subtractMinor(a: number, b: number): number {
  assertMinor(a);
  assertMinor(b);
  const difference = a - b;
  return Number.isSafeInteger(difference) ? difference || 0 : toSafeMinor(BigInt(a) - BigInt(b));
}

/** An amount times a whole number (a unit price times a quantity). */
export function multiplyMinor(amount: number, times: number): number {
  assertMinor(amount);
  assertMinor(times, 'multiplier');
  const product = amount * times;
  return Number.isSafeInteger(product) ? product || 0 : toSafeMinor(BigInt(amount) * BigInt(times));
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
  if (a.scale === b.scale) return [a.units, b.units, a.scale];
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
  if (scale <= MAX_NUMBER_SCALE) {
    const times = Number(units);
    const product = amount * times;
    if (Number.isSafeInteger(times) && Number.isSafeInteger(product)) return roundDivSafe(product, 10 ** scale, mode);
  }
  return toSafeMinor(roundDiv(BigInt(amount) * units, 10n ** BigInt(scale), mode));
}

/** Decimals up to this scale have a power of ten below 2^53: `roundDivSafe` can divide by it. */
const MAX_NUMBER_SCALE = 15;

/**
 * `roundDiv` for a safe-integer numerator and a positive denominator below 2^53, in numbers. The quotient of the
 * division as a double is truncated exactly: for |numerator| < 2^53 its error is below the distance to the next
 * integer, so remainder and rounding are computed in integers as `roundDiv` does.
 */
function roundDivSafe(numerator: number, denominator: number, mode: RoundingMode): number {
  const quotient = Math.trunc(numerator / denominator);
  const remainder = numerator - quotient * denominator;
  if (remainder === 0) return quotient || 0;
  const away = numerator < 0 ? quotient - 1 : quotient + 1;
  const twice = Math.abs(remainder) * 2;
  if (twice > denominator) return away || 0;
  if (twice < denominator) return quotient || 0;
  if (mode === 'half_up') return away || 0;
  return (quotient % 2 === 0 ? quotient : away) || 0;
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
  let sum = 0;
  for (const weight of weights) {
    if (!Number.isSafeInteger(weight) || weight < 0)
      throw new RangeError(`weight ${weight} is not a non-negative integer`);
    sum += weight;
  }
  if (total === 0) return weights.map(() => 0);
  if (sum === 0) throw new RangeError(`cannot allocate ${total} over weights that are all zero`);
  const magnitude = Math.abs(total);
  // Every product |total| × weight is at most |total| × Σ weights: below 2^53 the shares are computed as numbers,
  // exactly (the quotient is corrected in integers); above it, in bigint.
  const shares =
    magnitude * sum <= Number.MAX_SAFE_INTEGER ? sharesOf(magnitude, weights, sum) : bigSharesOf(magnitude, weights);
  return total < 0 ? shares.map((share) => -share || 0) : shares;
}

/** Largest-remainder shares of `magnitude` when every product `magnitude × weight` is a safe integer. */
function sharesOf(magnitude: number, weights: readonly number[], sum: number): number[] {
  const shares = new Array<number>(weights.length);
  const remainders = new Array<number>(weights.length);
  let left = magnitude;
  for (let i = 0; i < weights.length; i++) {
    const product = magnitude * (weights[i] ?? 0);
    let floor = Math.floor(product / sum);
    let remainder = product - floor * sum;
    // The division is a double: put an off-by-one quotient right in integers.
    if (remainder < 0) {
      floor -= 1;
      remainder += sum;
    } else if (remainder >= sum) {
      floor += 1;
      remainder -= sum;
    }
    shares[i] = floor;
    remainders[i] = remainder;
    left -= floor;
  }
  if (left > 0) {
    // The remainders add up to left × sum, each below sum: more than `left` of them are positive, and only those
    // can get a unit.
    const order: number[] = [];
    for (let i = 0; i < weights.length; i++) if ((remainders[i] ?? 0) > 0) order.push(i);
    order.sort((a, b) => (remainders[b] ?? 0) - (remainders[a] ?? 0) || a - b);
    for (let k = 0; k < left; k++) {
      const index = order[k] ?? 0;
      shares[index] = (shares[index] ?? 0) + 1;
    }
  }
  return shares;
}

/** The same in bigint, for products beyond the safe range. */
function bigSharesOf(magnitude: number, weights: readonly number[]): number[] {
  const big = BigInt(magnitude);
  const sum = weights.reduce((acc, weight) => acc + BigInt(weight), 0n);
  const shares = weights.map((weight) => {
    const product = big * BigInt(weight);
    return { floor: product / sum, remainder: product % sum };
  });
  let left = big - shares.reduce((acc, share) => acc + share.floor, 0n);
  const order = shares
    .map((share, index) => ({ index, remainder: share.remainder }))
    .sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  for (const { index } of order) {
    if (left === 0n) break;
    const share = shares[index];
    if (share) share.floor += 1n;
    left -= 1n;
  }
  return shares.map((share) => Number(share.floor));
}
