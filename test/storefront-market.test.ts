// The shop's market (web/storefront/market.ts): which market the selector shows, which market serves a shipping
// country, and which currency an answer's amounts are in.
import { describe, expect, it } from 'vitest';
import {
  answerCurrency,
  marketLabel,
  marketOfCountry,
  type StorefrontMarket,
  shownMarket,
  taxIncluded,
} from '../web/storefront/market.js';

const market = (over: Partial<StorefrontMarket> & Pick<StorefrontMarket, 'code'>): StorefrontMarket => ({
  name: over.code,
  currency: 'USD',
  prices_include_tax: false,
  is_default: false,
  countries: [],
  ...over,
});
const us = market({ code: 'default', name: 'Default', is_default: true });
const eu = market({ code: 'eu', name: 'Europe', currency: 'EUR', prices_include_tax: true, countries: ['DE', 'FR'] });
const jp = market({ code: 'jp', name: 'Japan', currency: 'JPY', countries: ['JP'] });
const markets = [us, eu, jp];

describe('the market the selector shows', () => {
  it('is the one chosen', () => {
    expect(shownMarket(markets, 'eu')).toBe(eu);
  });

  it('is the default market when none was chosen, or the one chosen is no longer in the store', () => {
    expect(shownMarket(markets, undefined)).toBe(us);
    expect(shownMarket(markets, 'gone')).toBe(us);
  });

  it('is none while the markets are not known', () => {
    expect(shownMarket([], 'eu')).toBeUndefined();
  });
});

describe('the market of a shipping country', () => {
  it('is the market listing it, whatever the case of the code', () => {
    expect(marketOfCountry(markets, 'DE')).toBe(eu);
    expect(marketOfCountry(markets, 'jp')).toBe(jp);
  });

  it('is the default market for a country no market lists', () => {
    expect(marketOfCountry(markets, 'US')).toBe(us);
    expect(marketOfCountry(markets, 'BR')).toBe(us);
  });
});

describe('the currency of an answer', () => {
  it('is the one the answer carries', () => {
    expect(answerCurrency({ total: '23.00', currency: 'EUR' }, 'USD')).toBe('EUR');
  });

  it('is the store currency for an answer that carries none (or an empty one)', () => {
    expect(answerCurrency({ id: 1, variants: [] }, 'USD')).toBe('USD');
    expect(answerCurrency({ currency: '' }, 'USD')).toBe('USD');
    expect(answerCurrency({ currency: 42 }, 'USD')).toBe('USD');
  });
});

it('names a market with its currency', () => {
  expect(marketLabel(eu)).toBe('Europe · EUR');
});

describe("whether an answer's prices include its tax", () => {
  it("is what the answer's market says", () => {
    expect(taxIncluded({ market: { prices_include_tax: true } }, markets)).toBe(true);
    expect(taxIncluded({ market: { prices_include_tax: false } }, [{ ...us, prices_include_tax: true }])).toBe(false);
  });

  it('is what the default market says when the answer names no market', () => {
    expect(taxIncluded({}, markets)).toBe(false);
    expect(taxIncluded({}, [eu, { ...us, prices_include_tax: true }])).toBe(true);
  });

  it('is what a placed order says of itself, whatever the markets say now', () => {
    expect(taxIncluded({ prices_include_tax: true }, markets)).toBe(true);
    expect(taxIncluded({ prices_include_tax: false }, [{ ...us, prices_include_tax: true }])).toBe(false);
  });

  it('is no while the markets are not read yet', () => {
    expect(taxIncluded({}, [])).toBe(false);
  });
});
