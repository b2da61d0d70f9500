// The shop's search page address (web/storefront/search.ts): filters in and out of /search?…, facet links.
import { describe, expect, it } from 'vitest';
import {
  hasOption,
  optionFilter,
  searchFiltersOf,
  searchHref,
  toggledOption,
  withFilter,
} from '../web/storefront/search.js';

describe('the search page address', () => {
  it('keeps the API filters, drops blank and unknown parameters, in a stable order', () => {
    const filters = searchFiltersOf({ in_stock: 'true', q: 'mug', category: '', cursor: 'x', utm_source: 'mail' });
    expect(filters).toEqual({ q: 'mug', in_stock: 'true' });
    expect(searchHref(filters)).toBe('/search?q=mug&in_stock=true');
    expect(searchHref({})).toBe('/search');
    expect(searchHref({ q: 'T-shirt & co' })).toBe('/search?q=T-shirt+%26+co');
  });

  it('applies a facet value and takes it off again, the other filters kept', () => {
    const base = { q: 'mug', category: 'kitchen' };
    const cheap = withFilter(base, { price_min: '10.00', price_max: '20.00' });
    expect(searchHref(cheap)).toBe('/search?q=mug&category=kitchen&price_min=10.00&price_max=20.00');
    expect(withFilter(cheap, { price_min: undefined, price_max: undefined })).toEqual(base);
  });
});

describe('option values in the search page address', () => {
  it('carries every option value asked for, adds and takes one off in any case, the rest kept', () => {
    const filters = searchFiltersOf({ q: 'hoodie', option: 'Size:M' }, ['Colour:Red', 'Size:M', '']);
    expect(filters).toEqual({ q: 'hoodie', option: ['Colour:Red', 'Size:M'] });
    expect(searchHref(filters)).toBe('/search?q=hoodie&option=Colour%3ARed&option=Size%3AM');
    expect(hasOption(filters, optionFilter('colour', 'red'))).toBe(true);
    expect(toggledOption(filters, 'colour:red')).toEqual({ q: 'hoodie', option: ['Size:M'] });
    expect(toggledOption(filters, optionFilter('Colour', 'Blue')).option).toEqual([
      'Colour:Red',
      'Size:M',
      'Colour:Blue',
    ]);
    expect(toggledOption({ option: ['Size:M'] }, 'Size:M')).toEqual({});
    expect(withFilter(filters, { in_stock: 'true' })).toEqual({ ...filters, in_stock: 'true' });
  });
});
