import { describe, expect, it } from 'vitest';
import { addressLines } from './address-lines.js';

// An order's address as the emails, the shop's order page and the dashboard print it (address-lines.ts).

const person = { first_name: 'Ada', last_name: 'Lovelace', state: '' };

describe('an address printed as its country writes it', () => {
  it('puts a US state and ZIP code after the city, and names the country', () => {
    const us = { ...person, street_address: '1 Market St', postal_code: '94105', city: 'San Francisco', state: 'CA' };
    expect(addressLines({ ...us, country: 'US' })).toEqual([
      'Ada Lovelace',
      '1 Market St',
      'San Francisco, CA 94105',
      'United States',
    ]);
  });

  it('puts the postal code before the city in most of the world', () => {
    const de = { ...person, street_address: 'Invalidenstraße 1', postal_code: '10115', city: 'Berlin', country: 'DE' };
    expect(addressLines(de)).toEqual(['Ada Lovelace', 'Invalidenstraße 1', '10115 Berlin', 'Germany']);
    expect(addressLines(de, 'de').at(-1)).toBe('Deutschland');
  });

  it('gives a British postcode a line of its own', () => {
    const gb = { ...person, street_address: '10 Downing St', postal_code: 'SW1A 2AA', city: 'London', country: 'GB' };
    expect(addressLines(gb)).toEqual(['Ada Lovelace', '10 Downing St', 'London', 'SW1A 2AA', 'United Kingdom']);
  });

  it('leaves no gap or stray comma for an empty part', () => {
    const bare = { ...person, first_name: '', street_address: 'Main 1', postal_code: '', city: 'Springfield' };
    expect(addressLines({ ...bare, country: 'US' })).toEqual(['Lovelace', 'Main 1', 'Springfield', 'United States']);
    expect(addressLines({ ...bare, country: 'FR' })).toEqual(['Lovelace', 'Main 1', 'Springfield', 'France']);
  });
});
