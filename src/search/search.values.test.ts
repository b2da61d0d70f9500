import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertPrice, type MarketPricing, NO_PRICE_ROUNDING } from '../markets/market-price.js';
import {
  decodeSearchCursor,
  encodeSearchCursor,
  NO_UPPER_BOUND,
  priceBucketBounds,
  searchTerms,
  storeAmountAtLeast,
  tsqueryOf,
} from './search.values.js';

const jpy: MarketPricing = {
  currency: 'JPY',
  conversion: {
    conversion: { from: 'USD', to: 'JPY', rate: '151.37', mode: 'half_up' },
    rule: { step: 100, ending: 0, direction: 'nearest' },
  },
};
const eur: MarketPricing = {
  currency: 'EUR',
  conversion: { conversion: { from: 'USD', to: 'EUR', rate: '0.92', mode: 'half_up' }, rule: NO_PRICE_ROUNDING },
};

describe('search terms', () => {
  it('are lower-case words, hyphens dropped inside a word, each once', () => {
    expect(searchTerms('  Organic T-Shirt, organic!  ')).toEqual(['organic', 'tshirt']);
    expect(searchTerms('TEE-M')).toEqual(['teem']);
    expect(searchTerms('Café — crème')).toEqual(['café', 'crème']);
    expect(searchTerms('-- !!')).toEqual([]);
  });

  it('make a tsquery where every term is a prefix or one of the words standing in for it, quoted', () => {
    const alternatives = new Map([['mugg', ['mug', "o'mug"]]]);
    expect(tsqueryOf(['coffee', 'mugg'], alternatives)).toBe("'coffee':* & ('mugg':* | 'mug' | 'o''mug')");
  });
});

describe('search cursors', () => {
  it('read back what they wrote, and refuse anything else', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 12 }), fc.integer({ min: 1, max: 2_147_483_647 }), (rank, id) => {
        expect(decodeSearchCursor(encodeSearchCursor({ rank, id }))).toEqual({ rank, id });
      }),
    );
    for (const bad of ['', 'abc', '12', Buffer.from('1.0').toString('base64url'), 'a'.repeat(41), '1.2']) {
      expect(decodeSearchCursor(bad)).toBeUndefined();
    }
  });
});

describe('price ranges in a market', () => {
  it('start at 0, then 1, 2, 5 times each power of ten, in minor units', () => {
    expect(priceBucketBounds(2).slice(0, 6)).toEqual([0, 100, 200, 500, 1000, 2000]);
    expect(priceBucketBounds(0).slice(0, 4)).toEqual([0, 1, 2, 5]);
  });

  it('turn into the least stored amount that converts to at least the bound', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.constantFrom(jpy, eur), (bound, market) => {
        const least = storeAmountAtLeast(bound, market);
        const conversion = market.conversion;
        if (conversion === null) return;
        const shown = (amount: number) => convertPrice(amount, conversion.conversion, conversion.rule);
        expect(shown(least)).toBeGreaterThanOrEqual(bound);
        if (least > 0) expect(shown(least - 1)).toBeLessThan(bound);
      }),
    );
    // At 151.37 rounded to hundreds, 24.77 USD is ¥3,749 → ¥3,700 and 24.78 USD ¥3,751 → ¥3,800.
    expect(storeAmountAtLeast(3800, jpy)).toBe(2478);
    expect(storeAmountAtLeast(5, { currency: 'USD', conversion: null })).toBe(5);
    expect(storeAmountAtLeast(10 ** 15, eur)).toBe(NO_UPPER_BOUND); // 0.92 × the largest amount is less
  });
});
