import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_MINOR_UNITS,
  MoneyFormatError,
  MoneyOverflowError,
  ROUNDING_MODES,
  type RoundingMode,
  addMinor,
  allocate,
  compareDecimal,
  currencyFormat,
  formatDecimal,
  formatMinor,
  multiplyByDecimal,
  multiplyByRatio,
  multiplyMinor,
  parseDecimal,
  parseMinor,
  percentOf,
  roundDiv,
  subtractMinor,
  sumMinor,
} from './money.js';

/**
 * Reference rounding written independently of roundDiv: schoolbook long division over the decimal
 * digits of |n|, one guard digit and a sticky bit, then the textbook rounding table.
 */
function referenceRound(n: bigint, d: bigint, mode: RoundingMode): bigint {
  const negative = n < 0n !== d < 0n;
  const divisor = d < 0n ? -d : d;
  let quotient = '';
  let rest = 0n;
  const digit = (): number => {
    let count = 0;
    while (rest >= divisor) {
      rest -= divisor;
      count += 1;
    }
    return count;
  };
  for (const ch of (n < 0n ? -n : n).toString()) {
    rest = rest * 10n + BigInt(ch);
    quotient += String(digit());
  }
  rest *= 10n;
  const guard = digit();
  const sticky = rest !== 0n;
  let magnitude = BigInt(quotient);
  const roundUp = guard > 5 || (guard === 5 && (sticky || mode === 'half_up' || magnitude % 2n === 1n));
  if (roundUp) magnitude += 1n;
  return negative ? -magnitude : magnitude;
}

const mode = fc.constantFrom<RoundingMode>(...ROUNDING_MODES);
const safeAmount = fc.integer({ min: -MAX_MINOR_UNITS, max: MAX_MINOR_UNITS });
const bigNumerator = fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n });
const nonZeroDenominator = fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }).filter((d) => d !== 0n);

describe('parseMinor and formatMinor', () => {
  it('reads and writes amounts with the exact precision of USD, JPY and KWD', () => {
    expect(currencyFormat('USD').parse('2348.60')).toBe(234860);
    expect(currencyFormat('JPY').parse('2335')).toBe(2335);
    expect(currencyFormat('KWD').parse('2348.600')).toBe(2348600);
    expect(currencyFormat('USD').format(234860)).toBe('2348.60');
    expect(currencyFormat('JPY').format(2335)).toBe('2335');
    expect(currencyFormat('KWD').format(2348600)).toBe('2348.600');
    expect(currencyFormat('USD').format(-5)).toBe('-0.05');
  });

  it('refuses more decimals than the currency has instead of rounding', () => {
    expect(() => currencyFormat('USD').parse('1.005')).toThrow(MoneyFormatError);
    expect(() => currencyFormat('JPY').parse('2335.0')).toThrow(MoneyFormatError);
    expect(() => currencyFormat('KWD').parse('1.0001')).toThrow(MoneyFormatError);
  });

  it('accepts fewer decimals than the currency has', () => {
    expect(currencyFormat('USD').parse('12.3')).toBe(1230);
    expect(currencyFormat('KWD').parse('12')).toBe(12000);
  });

  it('refuses exponents, plus signs, blanks and amounts over the maximum', () => {
    for (const text of ['1e3', '+1.00', ' 1.00', '', '.5', '5.', '1,00', '0x10']) {
      expect(() => parseMinor(text, 2), text).toThrow(MoneyFormatError);
    }
    expect(() => parseMinor('10000000000000.01', 2)).toThrow(MoneyFormatError);
  });

  it('refuses currencies Intl does not know', () => {
    expect(() => currencyFormat('XYZ')).toThrow(RangeError);
    expect(() => currencyFormat('usd')).toThrow(RangeError);
  });

  it('gives back every safe amount after a round trip, for exponents 0 to 3', () => {
    fc.assert(
      fc.property(safeAmount, fc.integer({ min: 0, max: 3 }), (amount, exponent) => {
        expect(parseMinor(formatMinor(amount, exponent), exponent)).toBe(amount);
      }),
    );
  });

  it('gives back every safe amount after a round trip in USD, JPY and KWD', () => {
    fc.assert(
      fc.property(safeAmount, fc.constantFrom('USD', 'JPY', 'KWD'), (amount, currency) => {
        const money = currencyFormat(currency);
        const text = money.format(amount);
        expect(money.parse(text)).toBe(amount);
        expect(text.split('.')[1]?.length ?? 0).toBe(money.exponent);
      }),
    );
  });
});

describe('roundDiv', () => {
  it('rounds halves away from zero in half_up', () => {
    expect(roundDiv(5n, 2n, 'half_up')).toBe(3n);
    expect(roundDiv(-5n, 2n, 'half_up')).toBe(-3n);
    expect(roundDiv(7n, 2n, 'half_up')).toBe(4n);
  });

  it('rounds halves to the even neighbour in half_even', () => {
    expect(roundDiv(5n, 2n, 'half_even')).toBe(2n);
    expect(roundDiv(7n, 2n, 'half_even')).toBe(4n);
    expect(roundDiv(-5n, 2n, 'half_even')).toBe(-2n);
    expect(roundDiv(-7n, 2n, 'half_even')).toBe(-4n);
  });

  it('rounds non-halves to the nearest integer in both modes', () => {
    for (const m of ROUNDING_MODES) {
      expect(roundDiv(2501n, 1000n, m)).toBe(3n);
      expect(roundDiv(2499n, 1000n, m)).toBe(2n);
      expect(roundDiv(-2501n, 1000n, m)).toBe(-3n);
      expect(roundDiv(12n, -5n, m)).toBe(-2n);
    }
  });

  it('refuses a zero denominator', () => {
    expect(() => roundDiv(1n, 0n, 'half_up')).toThrow(RangeError);
  });

  it('matches a long-division reference on random fractions', () => {
    fc.assert(
      fc.property(bigNumerator, nonZeroDenominator, mode, (n, d, m) => {
        expect(roundDiv(n, d, m)).toBe(referenceRound(n, d, m));
      }),
      { numRuns: 2000 },
    );
  });

  it('matches the reference on exact halves, where the modes differ', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }),
        fc.bigInt({ min: 1n, max: 10n ** 9n }),
        mode,
        (k, half, m) => {
          const d = 2n * half;
          const n = k * d + half; // k + 1/2
          expect(roundDiv(n, d, m)).toBe(referenceRound(n, d, m));
        },
      ),
    );
  });

  it('rounds negative quantities symmetrically in both modes', () => {
    fc.assert(
      fc.property(bigNumerator, nonZeroDenominator, mode, (n, d, m) => {
        expect(roundDiv(-n, d, m)).toBe(-roundDiv(n, d, m));
      }),
      { numRuns: 1000 },
    );
  });

  it('stays within half a unit of the exact quotient', () => {
    fc.assert(
      fc.property(bigNumerator, nonZeroDenominator, mode, (n, d, m) => {
        const r = roundDiv(n, d, m);
        const error = n - r * d; // (exact − rounded) × d
        const abs = (x: bigint) => (x < 0n ? -x : x);
        expect(2n * abs(error) <= abs(d)).toBe(true);
      }),
    );
  });
});

describe('decimal quantities', () => {
  it('parses rates and weights exactly', () => {
    expect(parseDecimal('15.0000')).toEqual({ units: 150000n, scale: 4 });
    expect(parseDecimal('2.345')).toEqual({ units: 2345n, scale: 3 });
    expect(parseDecimal('-0.5')).toEqual({ units: -5n, scale: 1 });
  });

  it('refuses more decimals than allowed and anything that is not a plain decimal', () => {
    expect(() => parseDecimal('7.12345', 4)).toThrow(MoneyFormatError);
    for (const text of ['1e2', 'abc', '', '.5', '1.', '+1'])
      expect(() => parseDecimal(text), text).toThrow(MoneyFormatError);
  });

  it('formats rates with at least two decimals and no trailing zeros beyond them', () => {
    expect(formatDecimal('15.0000', { minScale: 2 })).toBe('15.00');
    expect(formatDecimal('8.8750', { minScale: 2 })).toBe('8.875');
    expect(formatDecimal('7', { minScale: 2 })).toBe('7.00');
    expect(formatDecimal('10.0000')).toBe('10');
    expect(formatDecimal('12.5000')).toBe('12.5');
    expect(formatDecimal('-0.000')).toBe('0');
  });

  it('compares decimals of different scales', () => {
    expect(compareDecimal('1.50', '1.5')).toBe(0);
    expect(compareDecimal('1.499', '1.5')).toBe(-1);
    expect(compareDecimal('10', '9.9999')).toBe(1);
  });
});

describe('multiplying amounts by decimals', () => {
  it('takes a percentage with four decimals and rounds once', () => {
    expect(percentOf(5397, '7.2500', 'half_up')).toBe(391); // 391.2825
    expect(percentOf(10000, '8.875', 'half_up')).toBe(888); // 887.5
    expect(percentOf(10000, '8.875', 'half_even')).toBe(888); // 887.5 → even 888
    expect(percentOf(1225, '10', 'half_up')).toBe(123); // 122.5
    expect(percentOf(1225, '10', 'half_even')).toBe(122);
    expect(percentOf(-1225, '10', 'half_up')).toBe(-123);
  });

  it('multiplies by a weight without a float step', () => {
    expect(multiplyByDecimal(225, '0.501', 'half_up')).toBe(113); // 112.725
    expect(multiplyByDecimal(120, '0.345', 'half_up')).toBe(41); // 41.4
    // 0.1 + 0.2 style traps: 1005 × 1.5 = 1507.5 exactly.
    expect(multiplyByDecimal(1005, '1.5', 'half_even')).toBe(1508);
    expect(multiplyByDecimal(1003, '1.5', 'half_even')).toBe(1504); // 1504.5
  });

  it('applies a ratio such as the tax inside a gross amount', () => {
    // 1503 × 20 / 120 = 250.5
    expect(multiplyByRatio(1503, { numerator: 20n, denominator: 120n }, 'half_up')).toBe(251);
    expect(multiplyByRatio(1503, { numerator: 20n, denominator: 120n }, 'half_even')).toBe(250);
  });

  it('matches the reference for random amounts and four-decimal percentages', () => {
    fc.assert(
      fc.property(safeAmount, fc.integer({ min: 0, max: 1_000_000 }), mode, (amount, rateUnits, m) => {
        const rate = formatDecimal({ units: BigInt(rateUnits), scale: 4 });
        expect(percentOf(amount, rate, m)).toBe(
          Number(referenceRound(BigInt(amount) * BigInt(rateUnits), 1_000_000n, m)),
        );
      }),
    );
  });

  it('matches the reference for amounts and factors of every size and scale, halves included', () => {
    const amount = fc.oneof(fc.integer({ min: -1_000_000, max: 1_000_000 }), safeAmount);
    const units = fc.oneof(
      fc.bigInt({ min: -1_000_000n, max: 1_000_000n }),
      fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }),
      fc.constantFrom(5n, 15n, 25n, -5n, 125n),
    );
    fc.assert(
      fc.property(amount, fc.record({ units, scale: fc.integer({ min: 0, max: 18 }) }), mode, (a, factor, m) => {
        const expected = referenceRound(BigInt(a) * factor.units, 10n ** BigInt(factor.scale), m);
        const safe = expected <= BigInt(Number.MAX_SAFE_INTEGER) && expected >= -BigInt(Number.MAX_SAFE_INTEGER);
        const got = () => multiplyByDecimal(a, factor, m);
        if (safe) expect(got()).toBe(Number(expected));
        else expect(got).toThrow(MoneyOverflowError);
      }),
      { numRuns: 2000 },
    );
    expect(Object.is(multiplyByDecimal(-1, '0.4', 'half_up'), 0)).toBe(true);
  });
});

describe('checked arithmetic', () => {
  it('adds, subtracts and multiplies within the safe range', () => {
    expect(sumMinor([1, 2, 3])).toBe(6);
    expect(addMinor(5, -8)).toBe(-3);
    expect(subtractMinor(5, 8)).toBe(-3);
    expect(multiplyMinor(5029, 40)).toBe(201160);
  });

  it('refuses results that are not safe integers', () => {
    expect(() => sumMinor([Number.MAX_SAFE_INTEGER, 1])).toThrow(MoneyOverflowError);
    expect(() => multiplyMinor(MAX_MINOR_UNITS, 999)).toThrow(MoneyOverflowError);
    expect(() => subtractMinor(-Number.MAX_SAFE_INTEGER, 1)).toThrow(MoneyOverflowError);
    expect(() => percentOf(MAX_MINOR_UNITS, '1000000', 'half_up')).toThrow(MoneyOverflowError);
  });

  it('gives the exact result, or refuses it, as bigint arithmetic would', () => {
    const exactly = (value: bigint) =>
      value > BigInt(Number.MAX_SAFE_INTEGER) || value < -BigInt(Number.MAX_SAFE_INTEGER) ? 'overflow' : Number(value);
    const checked = (run: () => number) => {
      try {
        return run();
      } catch (err) {
        if (err instanceof MoneyOverflowError) return 'overflow';
        throw err;
      }
    };
    const anySafe = fc.oneof(
      fc.integer(),
      fc.maxSafeInteger(),
      fc.constantFrom(Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 0, -0),
    );
    fc.assert(
      fc.property(fc.array(anySafe, { maxLength: 6 }), anySafe, anySafe, (amounts, a, b) => {
        expect(checked(() => sumMinor(amounts))).toBe(exactly(amounts.reduce((t, x) => t + BigInt(x), 0n)));
        expect(checked(() => subtractMinor(a, b))).toBe(exactly(BigInt(a) - BigInt(b)));
        expect(checked(() => multiplyMinor(a, b))).toBe(exactly(BigInt(a) * BigInt(b)));
      }),
    );
  });

  it('refuses amounts that are not whole numbers', () => {
    expect(() => sumMinor([0.5])).toThrow(RangeError);
    expect(() => multiplyMinor(100, 1.5)).toThrow(RangeError);
  });

  it('sums past the safe range and back within it, as long as the total is safe', () => {
    expect(sumMinor([Number.MAX_SAFE_INTEGER, 1, -2])).toBe(Number.MAX_SAFE_INTEGER - 1);
    expect(sumMinor([-Number.MAX_SAFE_INTEGER, -5, 10])).toBe(-Number.MAX_SAFE_INTEGER + 5);
    expect(Object.is(sumMinor([]), 0)).toBe(true);
    expect(Object.is(multiplyMinor(0, -3), 0)).toBe(true);
    expect(Object.is(subtractMinor(0, 0), 0)).toBe(true);
  });

  const anySafe = fc.oneof(
    fc.integer({ min: -1_000_000, max: 1_000_000 }),
    fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
    fc.constantFrom(Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 52, 2 ** 26, -(2 ** 27)),
  );
  const exact = (value: bigint) =>
    value > BigInt(Number.MAX_SAFE_INTEGER) || value < -BigInt(Number.MAX_SAFE_INTEGER) ? 'overflow' : Number(value);
  const outcome = (f: () => number) => {
    try {
      return f();
    } catch (err) {
      if (err instanceof MoneyOverflowError) return 'overflow';
      throw err;
    }
  };

  it('gives the exact bigint result or refuses it, for sums, differences and products', () => {
    fc.assert(
      fc.property(fc.array(anySafe, { maxLength: 8 }), anySafe, anySafe, (amounts, a, b) => {
        expect(outcome(() => sumMinor(amounts))).toBe(exact(amounts.reduce((acc, x) => acc + BigInt(x), 0n)));
        expect(outcome(() => subtractMinor(a, b))).toBe(exact(BigInt(a) - BigInt(b)));
        expect(outcome(() => addMinor(a, b))).toBe(exact(BigInt(a) + BigInt(b)));
        expect(outcome(() => multiplyMinor(a, b))).toBe(exact(BigInt(a) * BigInt(b)));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('allocate', () => {
  it('splits by the largest remainder, ties to the lower index', () => {
    expect(allocate(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocate(950, [5997, 2500, 1000])).toEqual([600, 250, 100]);
    expect(allocate(1500, [800, 5000])).toEqual([207, 1293]);
    expect(allocate(2, [1, 1, 1, 1])).toEqual([1, 1, 0, 0]);
  });

  it('gives nothing to zero weights and zero of a zero total', () => {
    expect(allocate(10, [0, 3, 0, 1])).toEqual([0, 8, 0, 2]);
    expect(allocate(0, [0, 0])).toEqual([0, 0]);
    expect(allocate(0, [])).toEqual([]);
  });

  it('mirrors a negative total', () => {
    expect(allocate(-100, [1, 1, 1])).toEqual([-34, -33, -33]);
  });

  it('refuses a non-zero total over weights that are all zero, and negative weights', () => {
    expect(() => allocate(1, [0, 0])).toThrow(RangeError);
    expect(() => allocate(1, [])).toThrow(RangeError);
    expect(() => allocate(1, [2, -1])).toThrow(RangeError);
  });

  const weights = fc
    .array(fc.integer({ min: 0, max: 1_000_000_000 }), { minLength: 1, maxLength: 30 })
    .filter((ws) => ws.some((w) => w > 0));

  it('always sums exactly to the total, each share within one unit of its exact proportion', () => {
    fc.assert(
      fc.property(safeAmount, weights, (total, ws) => {
        const shares = allocate(total, ws);
        expect(shares).toHaveLength(ws.length);
        expect(sumMinor(shares)).toBe(total);
        const sum = BigInt(sumMinor(ws));
        shares.forEach((share, i) => {
          const deviation = BigInt(share) * sum - BigInt(total) * BigInt(ws[i] ?? 0); // (share − exact) × sum
          expect(deviation < sum && deviation > -sum).toBe(true);
          if (ws[i] === 0) expect(share).toBe(0);
        });
      }),
      { numRuns: 500 },
    );
  });

  /**
   * Largest remainder written out in bigint: floors, then one unit each to the largest remainders (lower index first).
   */
  function referenceAllocate(total: number, ws: readonly number[]): number[] {
    const sum = ws.reduce((acc, w) => acc + BigInt(w), 0n);
    const magnitude = BigInt(Math.abs(total));
    const floors = ws.map((w) => (magnitude * BigInt(w)) / sum);
    const remainders = ws.map((w) => (magnitude * BigInt(w)) % sum);
    let left = magnitude - floors.reduce((acc, f) => acc + f, 0n);
    const byRemainder = ws
      .map((_, i) => i)
      .sort((i, j) => {
        const [a, b] = [remainders[i] ?? 0n, remainders[j] ?? 0n];
        return a === b ? i - j : a > b ? -1 : 1;
      });
    for (const i of byRemainder) {
      if (left === 0n) break;
      floors[i] = (floors[i] ?? 0n) + 1n;
      left -= 1n;
    }
    return floors.map((f) => (total < 0 ? -Number(f) || 0 : Number(f)));
  }

  it('matches the largest-remainder reference, for amounts of every size', () => {
    const small = fc.array(fc.integer({ min: 0, max: 100_000 }), { minLength: 1, maxLength: 40 });
    const total = fc.oneof(fc.integer({ min: -100_000, max: 100_000 }), safeAmount);
    fc.assert(
      fc.property(total, fc.oneof(small, weights), (t, ws) => {
        fc.pre(ws.some((w) => w > 0));
        expect(allocate(t, ws)).toEqual(referenceAllocate(t, ws));
      }),
      { numRuns: 1000 },
    );
    expect(allocate(Number.MAX_SAFE_INTEGER, [1, 1])).toEqual(referenceAllocate(Number.MAX_SAFE_INTEGER, [1, 1]));
    expect(allocate(3, [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 1])).toEqual([2, 1, 0]);
  });

  it('is symmetric in the sign of the total', () => {
    fc.assert(
      fc.property(safeAmount, weights, (total, ws) => {
        expect(allocate(-total, ws)).toEqual(allocate(total, ws).map((share) => -share || 0));
      }),
    );
  });
});
