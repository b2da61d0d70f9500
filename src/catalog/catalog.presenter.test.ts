import { describe, expect, it } from 'vitest';
import { SEO_DESCRIPTION_LENGTH, seoOf, weight } from './catalog.presenter.js';

describe('weight on the wire', () => {
  it.each([
    ['180.000', '180'],
    ['180', '180'],
    ['100', '100'],
    ['210.500', '210.5'],
    ['0.000', '0'],
    ['0', '0'],
    ['12.345', '12.345'],
    ['1000.010', '1000.01'],
  ])('shows %s as %s', (stored, shown) => {
    expect(weight(stored)).toBe(shown);
  });

  it('keeps a missing weight missing', () => {
    expect(weight(null)).toBeNull();
  });
});

describe('what a storefront page gives search engines', () => {
  const item = { name: 'Linen Shirt', description: 'Breathable.', seoTitle: null, seoDescription: null };

  it('uses the SEO fields when set', () => {
    expect(seoOf({ ...item, seoTitle: 'Linen shirts', seoDescription: 'Cool in summer.' })).toEqual({
      title: 'Linen shirts',
      description: 'Cool in summer.',
    });
  });

  it('falls back to the name and the description, whitespace folded', () => {
    expect(seoOf({ ...item, description: '  Breathable\n\n linen.  ' })).toEqual({
      title: 'Linen Shirt',
      description: 'Breathable linen.',
    });
  });

  it('cuts a long description at a word, with an ellipsis, within the length', () => {
    const long = `${'word, '.repeat(40)}end`;
    const { description } = seoOf({ ...item, description: long });
    expect(description.length).toBeLessThanOrEqual(SEO_DESCRIPTION_LENGTH);
    expect(description).toMatch(/^word, (word, )*word…$/);
  });
});
