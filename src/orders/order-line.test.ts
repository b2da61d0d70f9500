import { describe, expect, it } from 'vitest';
import { lineDisplayName, optionsAsSold, soldItem } from './order-line.js';

describe('lineDisplayName', () => {
  it('names a line by its product and its variant', () => {
    expect(lineDisplayName({ productName: 'Organic Cotton T-Shirt', variantName: 'Small' })).toBe(
      'Organic Cotton T-Shirt - Small',
    );
  });

  it("uses the product's name alone when the variant's is empty or the same", () => {
    expect(lineDisplayName({ productName: 'Gift Card', variantName: '' })).toBe('Gift Card');
    expect(lineDisplayName({ productName: 'Gift Card', variantName: ' gift card ' })).toBe('Gift Card');
  });

  it("uses the variant's name alone when the product's is not known", () => {
    expect(lineDisplayName({ productName: null, variantName: 'Small' })).toBe('Small');
  });
});

describe('soldItem', () => {
  it("keeps a copy of the variant's options, not the catalog's list", () => {
    const options = [{ name: 'Size', value: 'S' }];
    const item = soldItem({ productName: 'Shirt', name: 'S', sku: null, options, image: null });
    options.push({ name: 'Colour', value: 'Red' });
    expect(item).toEqual({
      productName: 'Shirt',
      variantName: 'S',
      sku: null,
      options: [{ name: 'Size', value: 'S' }],
      image: null,
    });
  });
});

describe('optionsAsSold', () => {
  it('keeps every option value in order', () => {
    expect(
      optionsAsSold([
        ['Size', 'M'],
        ['Colour', 'Black'],
      ]),
    ).toEqual([
      { name: 'Size', value: 'M' },
      { name: 'Colour', value: 'Black' },
    ]);
  });

  it('keeps none of a product whose only option is the stand-in "Title"', () => {
    expect(optionsAsSold([['Title', 'Default']])).toEqual([]);
    expect(optionsAsSold([['Title', 'Black']])).toEqual([]);
    expect(optionsAsSold(null)).toEqual([]);
  });
});
