import { describe, expect, it } from 'vitest';
import {
  choosesByOption,
  type OptionProduct,
  valueChoices,
  variantFor,
  variantListLegend,
} from '../web/storefront/option-choice.js';

// The shop's product page choosing a variant by its options (web/storefront/option-choice.ts).

/** A variant named "S / Black": its size, colour and whether it can be bought. */
const variant = (id: number, name: string, available = true) => {
  const [Size = '', Colour = ''] = name.split(' / ');
  return { id, available, options: { Size, Colour } };
};
/** S/M/L × Black/Grey with L/Grey not made and M/Grey sold out. */
const hoodie: OptionProduct = {
  options: [
    { name: 'Size', values: ['S', 'M', 'L'] },
    { name: 'Colour', values: ['Black', 'Grey'] },
  ],
  variants: [
    variant(1, 'S / Black'),
    variant(2, 'S / Grey'),
    variant(3, 'M / Black'),
    variant(4, 'M / Grey', false),
    variant(5, 'L / Black'),
  ],
};

describe('choosing a variant by option', () => {
  it('marks each value with what it makes with the other values chosen: available, sold out or not made', () => {
    const choices = valueChoices(hoodie, 2); // S / Grey
    expect(choices.get('Size')).toEqual([
      { value: 'S', variantId: 2, state: 'available' },
      { value: 'M', variantId: 4, state: 'sold-out' },
      { value: 'L', variantId: undefined, state: 'missing' },
    ]);
    expect(choices.get('Colour')).toEqual([
      { value: 'Black', variantId: 1, state: 'available' },
      { value: 'Grey', variantId: 2, state: 'available' },
    ]);
  });

  it('keeps the other values when it can, else takes the closest available variant with the value picked', () => {
    expect(variantFor(hoodie, { chosenId: 2, option: 'Colour', value: 'Black' })).toBe(1);
    expect(variantFor(hoodie, { chosenId: 2, option: 'Size', value: 'L' })).toBe(5);
    expect(variantFor(hoodie, { chosenId: 2, option: 'Size', value: 'XL' })).toBeUndefined();
  });

  it('chooses by option with two options or more, whose values every variant has', () => {
    expect(choosesByOption(hoodie)).toBe(true);
    const sizes = {
      options: [{ name: 'Size', values: ['S', 'M'] }],
      variants: [{ id: 1, available: true, options: { Size: 'S' } }],
    };
    expect(choosesByOption(sizes)).toBe(false);
    expect(variantListLegend(sizes)).toBe('Size');
    const single = {
      options: [{ name: 'Title', values: ['Default'] }],
      variants: [{ id: 1, available: true, options: { Title: 'Default' } }],
    };
    expect(choosesByOption(single)).toBe(false);
    expect(variantListLegend(single)).toBe('Option');
    expect(
      choosesByOption({ ...hoodie, variants: [...hoodie.variants, { id: 9, available: true, options: {} }] }),
    ).toBe(false);
  });
});
