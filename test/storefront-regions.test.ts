// The checkout's address form: states and provinces offered for the countries that have them
// (web/shared/regions.ts), and the countries limited to where the store ships (checkout/shipping-countries.ts).
import { describe, expect, it } from 'vitest';
import { regionLabel, regionsOf } from '../web/shared/regions.js';
import { shippingCountries } from '../web/storefront/checkout/shipping-countries.js';

describe('regionsOf', () => {
  it('lists the US states with DC, the Canadian provinces and territories and the Australian states, by name', () => {
    const us = regionsOf('US') ?? [];
    expect(us).toHaveLength(51 + 5 + 3);
    expect(us).toContainEqual({ code: 'CA', name: 'California' });
    expect(us[0]).toEqual({ code: 'AL', name: 'Alabama' });
    expect(regionsOf('ca')?.map((r) => r.code)).toHaveLength(13);
    expect(regionsOf('AU')).toContainEqual({ code: 'NSW', name: 'New South Wales' });
    for (const country of ['US', 'CA', 'AU']) {
      const codes = (regionsOf(country) ?? []).map((r) => r.code);
      expect(new Set(codes).size).toBe(codes.length);
      for (const code of codes) expect(code).toMatch(/^[A-Z]{2,3}$/);
    }
  });

  it('has no list, and a generic label, for other countries', () => {
    expect(regionsOf('DE')).toBeUndefined();
    expect(regionLabel('DE')).toBe('State or region');
    expect(regionLabel('CA')).toBe('Province or territory');
  });
});

describe('shippingCountries', () => {
  const all = ['CA', 'DE', 'FR', 'US'].map((code) => ({ code, name: code }));

  it('offers the countries the store ships to, and the one already chosen', () => {
    const destinations = { all_countries: false, countries: ['US', 'CA'] };
    expect(shippingCountries(all, destinations, '').map((c) => c.code)).toEqual(['CA', 'US']);
    expect(shippingCountries(all, destinations, 'FR').map((c) => c.code)).toEqual(['CA', 'FR', 'US']);
  });

  it('offers every country while unknown, when the store ships everywhere, or names no country yet', () => {
    expect(shippingCountries(all, undefined, '')).toEqual(all);
    expect(shippingCountries(all, { all_countries: true, countries: ['US'] }, '')).toEqual(all);
    expect(shippingCountries(all, { all_countries: false, countries: [] }, '')).toEqual(all);
  });
});
