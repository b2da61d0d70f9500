// The dashboard's market form (web/admin/pages/markets/): what it sends, where the API's refusals show, and its live
// example of the rate and rounding, worked out by the service's own function.
import { describe, expect, it } from 'vitest';
import {
  BLANK_MARKET,
  countryCodes,
  type Market,
  marketPatch,
  marketProblem,
  marketText,
  newMarketBody,
} from '../web/admin/pages/markets/market-draft.js';
import { roundingExample } from '../web/admin/pages/markets/rounding-example.js';

const eu: Market = {
  id: 2,
  code: 'eu',
  name: 'Europe',
  currency: 'EUR',
  prices_include_tax: true,
  exchange_rate: '0.92',
  rounding_step: '1.00',
  price_ending: '0.99',
  rounding_direction: 'nearest',
  is_default: false,
  countries: ['DE', 'FR'],
  payment_plugins: ['sandbox'],
  shipping_method_ids: [1],
  created_at: '2026-11-28T00:00:00.000Z',
  updated_at: '2026-11-28T00:00:00.000Z',
};

describe('the market form', () => {
  it('sends a new market with its countries as a list and a blank rounding step as none', () => {
    const text = { ...BLANK_MARKET, code: ' jp ', name: 'Japan', currency: 'jpy', exchange_rate: '151.37' };
    expect(newMarketBody({ ...text, countries: 'jp, kr;  ', price_ending: '' })).toEqual({
      code: 'jp',
      name: 'Japan',
      currency: 'JPY',
      prices_include_tax: false,
      exchange_rate: '151.37',
      rounding_step: null,
      price_ending: '0',
      rounding_direction: 'nearest',
      countries: ['JP', 'KR'],
      payment_plugins: [],
      shipping_method_ids: [],
    });
  });

  it('sends every field of a market back as the form shows it', () => {
    expect(marketPatch(eu, marketText(eu))).toEqual({
      code: 'eu',
      name: 'Europe',
      currency: 'EUR',
      prices_include_tax: true,
      exchange_rate: '0.92',
      rounding_step: '1.00',
      price_ending: '0.99',
      rounding_direction: 'nearest',
      countries: ['DE', 'FR'],
      payment_plugins: ['sandbox'],
      shipping_method_ids: [1],
    });
  });

  it("never sends the default market's currency, inclusivity, rate or rounding: they follow the environment", () => {
    const store = { ...eu, id: 1, code: 'default', is_default: true, currency: 'USD', exchange_rate: '1' };
    expect(marketPatch(store, { ...marketText(store), name: 'United States', countries: 'us' })).toEqual({
      code: 'default',
      name: 'United States',
      countries: ['US'],
      payment_plugins: ['sandbox'],
      shipping_method_ids: [1],
    });
  });

  it('reads country codes separated by commas, semicolons or spaces', () => {
    expect(countryCodes('de,fr  it;es')).toEqual(['DE', 'FR', 'IT', 'ES']);
    expect(countryCodes('  ')).toEqual([]);
  });

  it('says a code in use beside the code field', () => {
    const taken = { type: 'about:blank', title: 'Market code already in use', status: 409, code: 'market_code_taken' };
    expect(marketProblem(taken)?.errors).toEqual([{ field: 'code', message: 'is the code of another market' }]);
    const country = { ...taken, code: 'country_in_another_market', errors: [{ field: 'countries[1]', message: 'x' }] };
    expect(marketProblem(country)).toBe(country);
  });
});

describe("the form's rounding example", () => {
  const rule = { currency: 'EUR', exchange_rate: '0.92', rounding_step: '1', price_ending: '0.99' };

  it('converts 25.00 USD at 0.92 to 23.00 EUR, then to 22.99 (nearest) or 23.99 (up)', () => {
    const store = { currency: 'USD', price: '25.00' };
    expect(roundingExample({ ...rule, rounding_direction: 'nearest' }, store)).toEqual({
      from: '25.00 USD',
      exact: '23.00',
      rounded: '22.99',
      currency: 'EUR',
    });
    expect(roundingExample({ ...rule, rounding_direction: 'up' }, store)?.rounded).toBe('23.99');
  });

  it('gives ¥3,800 for 25.00 USD at 151.37 with a step of 100 (docs/markets.md)', () => {
    const jpy = { currency: 'jpy', exchange_rate: '151.37', rounding_step: '100', price_ending: '' };
    expect(roundingExample({ ...jpy, rounding_direction: 'nearest' }, { currency: 'USD', price: '25.00' })).toEqual({
      from: '25.00 USD',
      exact: '3784',
      rounded: '3800',
      currency: 'JPY',
    });
  });

  it('gives none while the form does not describe a market the API would take', () => {
    const store = { currency: 'USD', price: '25.00' };
    const nearest = { rounding_direction: 'nearest' as const };
    expect(roundingExample({ ...rule, ...nearest, currency: 'XYZ' }, store)).toBeUndefined();
    expect(roundingExample({ ...rule, ...nearest, exchange_rate: 'abc' }, store)).toBeUndefined();
    expect(roundingExample({ ...rule, ...nearest, price_ending: '1.50' }, store)).toBeUndefined();
    expect(roundingExample({ ...rule, ...nearest, rounding_step: '0.001' }, store)).toBeUndefined();
  });
});
