import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_MINOR_UNITS, MoneyOverflowError } from '../shared/money.js';
import {
  backToStoreCurrency,
  type Conversion,
  convertPrice,
  exchangeMinor,
  NO_PRICE_ROUNDING,
  type PriceRounding,
  priceInMarket,
  priceRoundingOf,
  ROUNDING_DIRECTIONS,
  roundPrice,
} from './market-price.js';

const usdTo = (to: string, rate: string, mode: Conversion['mode'] = 'half_up'): Conversion => ({
  from: 'USD',
  to,
  rate,
  mode,
});
const rule = (step: number, ending: number, direction: PriceRounding['direction'] = 'nearest'): PriceRounding => ({
  step,
  ending,
  direction,
});

describe('exchangeMinor: to the target currency’s precision, exactly', () => {
  it('turns 25.00 USD at 151.37 into ¥3,784 (3,784.25 rounded to whole yen)', () => {
    expect(exchangeMinor(2500, usdTo('JPY', '151.37'))).toBe(3784);
  });

  it('turns 25.00 USD at 0.3075 into 7.688 KWD (7,687.5 fils, half up)', () => {
    expect(exchangeMinor(2500, usdTo('KWD', '0.3075'))).toBe(7688);
  });

  it('rounds a half in the store’s mode: 23.00 USD at 0.3075 is 7,072.5 fils', () => {
    expect(exchangeMinor(2300, usdTo('KWD', '0.3075', 'half_up'))).toBe(7073);
    expect(exchangeMinor(2300, usdTo('KWD', '0.3075', 'half_even'))).toBe(7072);
    expect(exchangeMinor(2500, usdTo('JPY', '151.3', 'half_up'))).toBe(3783);
    expect(exchangeMinor(2500, usdTo('JPY', '151.3', 'half_even'))).toBe(3782);
  });

  it('goes from a 0-decimal currency to a 2-decimal one: ¥3,800 at 0.0066 is 25.08 USD', () => {
    expect(exchangeMinor(3800, { from: 'JPY', to: 'USD', rate: '0.0066', mode: 'half_up' })).toBe(2508);
  });

  it('keeps zero at zero and a rate of 1 changes nothing', () => {
    expect(exchangeMinor(0, usdTo('JPY', '151.37'))).toBe(0);
    expect(exchangeMinor(123456, usdTo('EUR', '1'))).toBe(123456);
    expect(exchangeMinor(123456, usdTo('EUR', '1.0000000000'))).toBe(123456);
  });

  it('converts the largest amount the service accepts without losing a digit, and refuses an overflow', () => {
    expect(exchangeMinor(MAX_MINOR_UNITS, usdTo('JPY', '151.37'))).toBe(1_513_700_000_000_000);
    // (10^15 − 1) cents × 0.3075 × 10 = 3,074,999,999,999,996.925 fils.
    expect(exchangeMinor(MAX_MINOR_UNITS - 1, usdTo('KWD', '0.3075'))).toBe(3_074_999_999_999_997);
    expect(() => exchangeMinor(MAX_MINOR_UNITS, usdTo('EUR', '15000'))).toThrow(MoneyOverflowError);
  });

  it('refuses a rate that is zero or negative', () => {
    expect(() => exchangeMinor(100, usdTo('EUR', '0'))).toThrow(RangeError);
    expect(() => exchangeMinor(100, usdTo('EUR', '-0.92'))).toThrow(RangeError);
  });
});

describe('roundPrice: onto k × step + ending', () => {
  it('rounds ¥3,784 to ¥3,800 with a step of 100 yen (nearest or up), ¥3,700 down', () => {
    expect(roundPrice(3784, rule(100, 0))).toBe(3800);
    expect(roundPrice(3784, rule(100, 0, 'up'))).toBe(3800);
    expect(roundPrice(3784, rule(100, 0, 'down'))).toBe(3700);
    expect(roundPrice(3784, rule(1, 0))).toBe(3784);
  });

  it('gives ¥3,980 with a step of 1,000 yen ending in 980, upwards', () => {
    expect(roundPrice(3784, rule(1000, 980, 'up'))).toBe(3980);
    expect(roundPrice(3784, rule(1000, 980))).toBe(3980);
    expect(roundPrice(3784, rule(1000, 980, 'down'))).toBe(2980);
  });

  it('makes .99 and .95 endings in EUR: 23.43 → 22.99 / 22.95 nearest, 23.99 / 23.95 up', () => {
    expect(roundPrice(2343, rule(100, 99))).toBe(2299);
    expect(roundPrice(2343, rule(100, 95))).toBe(2295);
    expect(roundPrice(2343, rule(100, 99, 'up'))).toBe(2399);
    expect(roundPrice(2343, rule(100, 95, 'up'))).toBe(2395);
    expect(roundPrice(2343, rule(100, 99, 'down'))).toBe(2299);
  });

  it('sends a tie upwards: 23.49 is as far from 22.99 as from 23.99', () => {
    expect(roundPrice(2349, rule(100, 99))).toBe(2399);
    expect(roundPrice(2348, rule(100, 99))).toBe(2299);
    expect(roundPrice(3750, rule(100, 0))).toBe(3800);
    expect(roundPrice(3749, rule(100, 0))).toBe(3700);
  });

  it('leaves a price already on the rule alone, whatever the direction', () => {
    for (const direction of ROUNDING_DIRECTIONS) {
      expect(roundPrice(2299, rule(100, 99, direction))).toBe(2299);
      expect(roundPrice(3800, rule(100, 0, direction))).toBe(3800);
    }
  });

  it('rounds 7.688 KWD to a whole dinar: 8.000', () => {
    expect(roundPrice(7688, rule(1000, 0))).toBe(8000);
    expect(roundPrice(7688, rule(1000, 0, 'down'))).toBe(7000);
  });

  it('keeps a free item free and never makes a paid one free', () => {
    for (const direction of ROUNDING_DIRECTIONS) {
      expect(roundPrice(0, rule(100, 99, direction))).toBe(0);
      expect(roundPrice(1, rule(100, 0, direction))).toBe(100);
      expect(roundPrice(1, rule(100, 99, direction))).toBe(99);
    }
    expect(roundPrice(40, rule(100, 0, 'down'))).toBe(100);
  });

  it('refuses a rule whose ending is not below its step, and a negative amount', () => {
    expect(() => roundPrice(100, rule(100, 100))).toThrow(RangeError);
    expect(() => roundPrice(100, rule(0, 0))).toThrow(RangeError);
    expect(() => roundPrice(-1, NO_PRICE_ROUNDING)).toThrow(RangeError);
  });
});

describe('convertPrice: precision first, then the rule', () => {
  it('never makes a paid price free at a tiny rate: 10.00 USD at 10^-10 is ¥1, or ¥100 with a step of 100', () => {
    const tiny = usdTo('JPY', '0.0000000001');
    expect(convertPrice(1000, tiny, NO_PRICE_ROUNDING)).toBe(1);
    expect(convertPrice(1000, tiny, rule(100, 0))).toBe(100);
    expect(convertPrice(1000, tiny, rule(1000, 980, 'down'))).toBe(980);
    expect(convertPrice(0, tiny, rule(100, 0))).toBe(0);
  });

  it('shows 25.00 USD as ¥3,800 at 151.37 with a step of "100" and as ¥3,784 with whole yen', () => {
    const jpy = usdTo('JPY', '151.37');
    expect(convertPrice(2500, jpy, priceRoundingOf({ step: '100', ending: '0', direction: 'nearest' }, 'JPY'))).toBe(
      3800,
    );
    expect(convertPrice(2500, jpy, priceRoundingOf({ step: '1', ending: '0', direction: 'nearest' }, 'JPY'))).toBe(
      3784,
    );
  });

  it('converts to KWD with its 3 decimals: 25.00 USD at 0.3075 is 7.688, or 8.000 to a whole dinar', () => {
    const kwd = usdTo('KWD', '0.3075');
    expect(convertPrice(2500, kwd, priceRoundingOf({ step: null, ending: '0', direction: 'nearest' }, 'KWD'))).toBe(
      7688,
    );
    expect(convertPrice(2500, kwd, priceRoundingOf({ step: '1', ending: '0', direction: 'nearest' }, 'KWD'))).toBe(
      8000,
    );
  });

  it('converts to EUR at 0.92 with a .99 ending: 25.00 USD → 23.00 → 22.99 (nearest) or 23.99 (up)', () => {
    const eur = usdTo('EUR', '0.92');
    expect(convertPrice(2500, eur, priceRoundingOf({ step: '1', ending: '0.99', direction: 'nearest' }, 'EUR'))).toBe(
      2299,
    );
    expect(convertPrice(2500, eur, priceRoundingOf({ step: '1', ending: '0.99', direction: 'up' }, 'EUR'))).toBe(2399);
    expect(convertPrice(2500, eur, priceRoundingOf({ step: '1', ending: '0.95', direction: 'nearest' }, 'EUR'))).toBe(
      2295,
    );
  });

  it('reads a stored rule in the currency’s minor units and refuses one finer than its precision', () => {
    expect(priceRoundingOf({ step: '1', ending: '0.99', direction: 'up' }, 'EUR')).toEqual(rule(100, 99, 'up'));
    expect(priceRoundingOf({ step: '0.5', ending: '0.25', direction: 'down' }, 'KWD')).toEqual(rule(500, 250, 'down'));
    expect(priceRoundingOf({ step: null, ending: '0', direction: 'nearest' }, 'JPY')).toEqual(NO_PRICE_ROUNDING);
    expect(() => priceRoundingOf({ step: '1', ending: '0.5', direction: 'up' }, 'JPY')).toThrow();
    expect(() => priceRoundingOf({ step: '1', ending: '1', direction: 'up' }, 'EUR')).toThrow(RangeError);
  });
});

describe('priceInMarket: explicit wins, else converted', () => {
  const stored = { amount: 2500, compareAt: 3000 };
  const jpy = { currency: 'JPY', conversion: { conversion: usdTo('JPY', '151.37'), rule: rule(100, 0) } };

  it('answers the stored price in the default market', () => {
    expect(priceInMarket(stored, undefined, { currency: 'USD', conversion: null })).toEqual({
      ...stored,
      converted: false,
    });
  });

  it('answers an explicit price as it is, with its own compare-at', () => {
    const eur = { currency: 'EUR', conversion: { conversion: usdTo('EUR', '0.92'), rule: rule(100, 99) } };
    expect(priceInMarket(stored, { amount: 2300, compareAt: null }, eur)).toEqual({
      amount: 2300,
      compareAt: null,
      converted: false,
    });
  });

  it('converts price and compare-at alike: 25.00 / 30.00 USD → ¥3,800 / ¥4,500', () => {
    // 30.00 × 151.37 = 4,541.1 → ¥4,541 → ¥4,500.
    expect(priceInMarket(stored, undefined, jpy)).toEqual({ amount: 3800, compareAt: 4500, converted: true });
    expect(priceInMarket({ amount: 2500, compareAt: null }, undefined, jpy).compareAt).toBeNull();
  });
});

const arbitraryRule = fc
  .record({
    step: fc.integer({ min: 1, max: 100_000 }),
    endingShare: fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
    direction: fc.constantFrom(...ROUNDING_DIRECTIONS),
  })
  .map(({ step, endingShare, direction }) => rule(step, Math.floor(endingShare * step), direction));
/** A positive rate of 2 to 10 decimals, below 10,000 (so that a converted amount stays a safe integer). */
const arbitraryRate = fc
  .tuple(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 2, max: 10 }))
  .map(([units, scale]) => {
    const digits = String(units).padStart(scale + 1, '0');
    return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  });
const amount = fc.integer({ min: 0, max: 100_000_000 });
const currencies = fc.constantFrom('USD', 'EUR', 'JPY', 'KWD', 'GBP', 'BHD', 'KRW');

describe('properties of the conversion and the rule', () => {
  it('rounds onto the rule: a whole number, never negative, ending respected, zero kept', () => {
    fc.assert(
      fc.property(amount, arbitraryRule, (price, r) => {
        const rounded = roundPrice(price, r);
        expect(Number.isSafeInteger(rounded)).toBe(true);
        expect(rounded).toBeGreaterThanOrEqual(0);
        if (price === 0) expect(rounded).toBe(0);
        else {
          expect(rounded).toBeGreaterThan(0);
          expect((rounded - r.ending) % r.step).toBe(0);
        }
      }),
    );
  });

  it('moves a price by less than one step (or to the smallest positive candidate)', () => {
    fc.assert(
      fc.property(amount, arbitraryRule, (price, r) => {
        const rounded = roundPrice(price, r);
        const smallest = r.ending > 0 ? r.ending : r.step;
        if (rounded !== smallest) expect(Math.abs(rounded - price)).toBeLessThan(r.step);
        if (r.direction === 'up') expect(rounded).toBeGreaterThanOrEqual(price);
        if (r.direction === 'down' && rounded !== smallest) expect(rounded).toBeLessThanOrEqual(price);
      }),
    );
  });

  it('is monotonic in the amount, for every rate, currency pair and rule', () => {
    fc.assert(
      fc.property(
        fc.record({ a: amount, b: amount, rate: arbitraryRate, pair: fc.tuple(currencies, currencies) }),
        arbitraryRule,
        ({ a, b, rate, pair: [from, to] }, r) => {
          const conversion: Conversion = { from, to, rate, mode: 'half_even' };
          const [low, high] = a <= b ? [a, b] : [b, a];
          expect(roundPrice(low, r)).toBeLessThanOrEqual(roundPrice(high, r));
          expect(exchangeMinor(low, conversion)).toBeLessThanOrEqual(exchangeMinor(high, conversion));
          expect(convertPrice(low, conversion, r)).toBeLessThanOrEqual(convertPrice(high, conversion, r));
        },
      ),
    );
  });

  it('lands within half a minor unit of the exact product at the target’s precision', () => {
    fc.assert(
      fc.property(amount, arbitraryRate, fc.tuple(currencies, currencies), (value, rate, [from, to]) => {
        const converted = exchangeMinor(value, { from, to, rate, mode: 'half_up' });
        expect(Number.isSafeInteger(converted)).toBe(true);
        expect(converted).toBeGreaterThanOrEqual(0);
        // converted × 10^(scale + e_from) vs value × units × 10^e_to, in bigint: the gap is at most half a unit.
        const [whole, fraction = ''] = rate.split('.');
        const units = BigInt(`${whole}${fraction}`);
        const eFrom = { USD: 2, EUR: 2, JPY: 0, KWD: 3, GBP: 2, BHD: 3, KRW: 0 }[from] ?? 2;
        const eTo = { USD: 2, EUR: 2, JPY: 0, KWD: 3, GBP: 2, BHD: 3, KRW: 0 }[to] ?? 2;
        const denominator = 10n ** BigInt(fraction.length + eFrom);
        const exact = BigInt(value) * units * 10n ** BigInt(eTo);
        const gap = BigInt(converted) * denominator - exact;
        expect((gap < 0n ? -gap : gap) * 2n <= denominator).toBe(true);
      }),
    );
  });
});

describe('backToStoreCurrency: an order’s total for reports', () => {
  const jpy = { from: 'USD', to: 'JPY', rate: '151.37', mode: 'half_up' as const };
  it('divides by the rate exactly and rounds once, into the store currency’s minor units', () => {
    // ¥3,800 / 151.37 = 25.1040… USD → 25.10; KD 7.688 / 0.3075 = 25.0016… USD → 25.00.
    expect(backToStoreCurrency(3800, jpy)).toBe(2510);
    expect(backToStoreCurrency(7688, { from: 'USD', to: 'KWD', rate: '0.3075', mode: 'half_up' })).toBe(2500);
    expect(backToStoreCurrency(0, jpy)).toBe(0);
  });

  it('comes back within half a minor unit to what exchangeMinor converted, when nothing was rounded away', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (cents) => {
        const eur = { from: 'USD', to: 'EUR', rate: '0.5', mode: 'half_even' as const };
        expect(backToStoreCurrency(exchangeMinor(cents, eur), eur)).toBeGreaterThanOrEqual(cents - 1);
        expect(backToStoreCurrency(exchangeMinor(cents, eur), eur)).toBeLessThanOrEqual(cents + 1);
      }),
    );
  });
});
