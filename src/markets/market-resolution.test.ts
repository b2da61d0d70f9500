import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type MarketRef, marketCodeField, resolveCheckoutMarket, resolveMarket } from './market-resolution.js';

const us: MarketRef = { code: 'us', isDefault: true, countries: ['US'] };
const eu: MarketRef = { code: 'eu', isDefault: false, countries: ['DE', 'FR'] };
const jp: MarketRef = { code: 'jp', isDefault: false, countries: ['JP'] };
const markets = [us, eu, jp];

describe('resolveMarket', () => {
  it('takes the X-Market header first, whatever the payload and the country say', () => {
    expect(resolveMarket(markets, { header: 'JP', payload: 'eu', shippingCountry: 'DE' })).toEqual({
      ok: true,
      market: jp,
      source: 'header',
    });
  });

  it('then the payload’s market, then the shipping country’s, then the default', () => {
    expect(resolveMarket(markets, { payload: 'eu', shippingCountry: 'JP' })).toMatchObject({
      market: eu,
      source: 'payload',
    });
    expect(resolveMarket(markets, { shippingCountry: 'fr' })).toMatchObject({ market: eu, source: 'shipping_country' });
    expect(resolveMarket(markets, { shippingCountry: 'BR' })).toMatchObject({ market: us, source: 'default' });
    expect(resolveMarket(markets, {})).toMatchObject({ market: us, source: 'default' });
    expect(resolveMarket(markets, { header: ' ', payload: '' })).toMatchObject({ market: us, source: 'default' });
  });

  it('refuses a code that names no market where it came from, never falling back to the default', () => {
    expect(resolveMarket(markets, { header: 'other-store', payload: 'eu' })).toEqual({
      ok: false,
      source: 'header',
      code: 'other-store',
    });
    expect(resolveMarket(markets, { payload: 'xx', shippingCountry: 'DE' })).toEqual({
      ok: false,
      source: 'payload',
      code: 'xx',
    });
  });

  it('matches a code only as the ASCII it is stored as, never after Unicode case mapping', () => {
    const kw: MarketRef = { code: 'kw', isDefault: false, countries: ['KW'] };
    // KELVIN SIGN lower-cases to "k"; fullwidth letters, combining marks and SQL are no codes either.
    for (const header of ['\u212AW', 'ｋｗ', 'kw\u0301', "kw' or '1'='1", 'k\u0000w', 'x'.repeat(33)]) {
      expect(resolveMarket([us, kw], { header })).toEqual({ ok: false, source: 'header', code: header });
    }
    expect(resolveMarket([us, kw], { header: ' KW ' })).toMatchObject({ ok: true, market: kw });
  });

  it('serves a country listed by the default market from the default market', () => {
    expect(resolveMarket(markets, { shippingCountry: 'US' })).toMatchObject({ market: us, source: 'shipping_country' });
  });

  it('always answers a market of the store, or a refusal naming what was asked', () => {
    const hint = fc.option(fc.constantFrom('us', 'EU', 'jp', 'xx', '', ' '), { nil: undefined });
    const country = fc.option(fc.constantFrom('US', 'de', 'JP', 'BR', ''), { nil: undefined });
    fc.assert(
      fc.property(fc.record({ header: hint, payload: hint, shippingCountry: country }), (hints) => {
        const answer = resolveMarket(markets, hints);
        if (answer.ok) expect(markets).toContain(answer.market);
        else expect([hints.header, hints.payload]).toContain(answer.code);
      }),
    );
  });
});

describe('resolveCheckoutMarket', () => {
  it('keeps the requested market without a shipping address', () => {
    expect(resolveCheckoutMarket(markets, { header: 'jp' })).toEqual({
      ok: true,
      market: jp,
      requested: jp,
      changed: false,
    });
    expect(resolveCheckoutMarket(markets, {})).toEqual({ ok: true, market: us, requested: us, changed: false });
  });

  it('prices in the shipping country’s market, and says when the request asked for another', () => {
    expect(resolveCheckoutMarket(markets, { header: 'jp', shippingCountry: 'de' })).toEqual({
      ok: true,
      market: eu,
      requested: jp,
      changed: true,
    });
    expect(resolveCheckoutMarket(markets, { payload: 'eu', shippingCountry: 'FR' })).toMatchObject({
      market: eu,
      changed: false,
    });
    // A country no market lists is the default market's; the default asked for nothing else.
    expect(resolveCheckoutMarket(markets, { header: 'eu', shippingCountry: 'BR' })).toMatchObject({
      market: us,
      requested: eu,
      changed: true,
    });
    expect(resolveCheckoutMarket(markets, { shippingCountry: 'JP' })).toMatchObject({ market: jp, changed: true });
  });

  it('refuses an unknown code even when the shipping country would decide, naming where it came from', () => {
    expect(resolveCheckoutMarket(markets, { header: 'gb', shippingCountry: 'DE' })).toEqual({
      ok: false,
      source: 'header',
      code: 'gb',
    });
    expect(marketCodeField('header')).toBe('headers.x-market');
    expect(marketCodeField('payload')).toBe('market');
  });
});
