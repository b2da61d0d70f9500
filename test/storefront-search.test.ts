// The shop's search page address (web/storefront/search.ts): filters in and out of /search?…, facet links.
import { describe, expect, it } from 'vitest';
import { searchFiltersOf, searchHref, withFilter } from '../web/storefront/search.js';

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
