// What the dashboard's option editor sends as renames (web/admin/pages/products/option-renames.ts): a name or a value
// changed in its place is a rename (its variants keep it); a reorder, an addition or a removal is not.
import { describe, expect, it } from 'vitest';
import { optionRenames } from '../web/admin/pages/products/option-renames.js';

const size = { name: 'Size', values: ['S', 'M', 'L'] };

describe('the renames the option editor sends', () => {
  it('names the option renamed, by its saved name', () => {
    expect(optionRenames({ saved: size, name: 'Taille', values: ['S', 'M', 'L'] })).toEqual({ renamed_from: 'Size' });
  });

  it('names each value changed in its place', () => {
    expect(optionRenames({ saved: size, name: 'Size', values: ['Small', 'M', 'Large'] })).toEqual({
      values_renamed_from: { Small: 'S', Large: 'L' },
    });
  });

  it('renames nothing when the values are reordered or swapped', () => {
    expect(optionRenames({ saved: size, name: 'Size', values: ['L', 'M', 'S'] })).toEqual({});
  });

  it('renames nothing when a value is added or removed (the list changed length)', () => {
    expect(optionRenames({ saved: size, name: 'Size', values: ['S', 'M', 'L', 'XL'] })).toEqual({});
    expect(optionRenames({ saved: size, name: 'Size', values: ['S', 'L'] })).toEqual({});
  });

  it('renames nothing of an option added in the editor', () => {
    expect(optionRenames({ saved: undefined, name: 'Colour', values: ['Red'] })).toEqual({});
  });

  it('leaves a value moved into the place of a renamed one alone', () => {
    expect(optionRenames({ saved: size, name: 'Size', values: ['M', 'Medium', 'L'] })).toEqual({});
  });
});
