import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineNaming } from './line-naming.js';

// How a line is named (line-naming.ts): the variant's name only where it says more.

const hoodie = [
  { name: 'Size', value: 'L' },
  { name: 'Colour', value: 'Black' },
];

describe('a line named in the shop and the dashboard', () => {
  it('leaves out a variant name that only repeats its option values', () => {
    expect(lineNaming({ product: 'Pullover Hoodie', variant: 'L / Black', options: hoodie })).toEqual({
      title: 'Pullover Hoodie',
      variant: null,
      options: 'Size: L · Colour: Black',
      name: 'Pullover Hoodie',
    });
    expect(lineNaming({ product: 'Pullover Hoodie', variant: 'l,  BLACK', options: hoodie }).variant).toBeNull();
  });

  it('keeps a variant name that says more than its option values, or other values', () => {
    const limited = lineNaming({ product: 'Pullover Hoodie', variant: 'Limited edition / L', options: hoodie });
    expect(limited).toMatchObject({ variant: 'Limited edition / L', name: 'Pullover Hoodie - Limited edition / L' });
    expect(lineNaming({ product: 'Pullover Hoodie', variant: 'Black / L', options: hoodie }).variant).toBe('Black / L');
  });

  it('names a variant without options by product and variant, without a line of values', () => {
    expect(lineNaming({ product: 'Organic Cotton T-Shirt', variant: 'Small', options: [] })).toEqual({
      title: 'Organic Cotton T-Shirt',
      variant: 'Small',
      options: null,
      name: 'Organic Cotton T-Shirt - Small',
    });
  });

  it("gives the product's name alone when the variant's is empty or the same", () => {
    expect(lineNaming({ product: 'Ceramic Mug', variant: '', options: [] }).name).toBe('Ceramic Mug');
    expect(lineNaming({ product: 'Ceramic Mug', variant: 'ceramic mug', options: [] }).name).toBe('Ceramic Mug');
  });

  it("falls back to the variant's name when the product's is not known", () => {
    expect(lineNaming({ product: null, variant: 'L / Black', options: hoodie })).toEqual({
      title: 'L / Black',
      variant: null,
      options: 'Size: L · Colour: Black',
      name: 'L / Black',
    });
  });

  it('adds no character beyond Latin-1 to names without one: answers stay one-byte strings (decision 0042)', () => {
    const latin1 = fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).map((code) => String.fromCharCode(code)) });
    fc.assert(
      fc.property(fc.option(latin1, { nil: null }), latin1, (product, variant) => {
        expect(lineNaming({ product, variant, options: [] }).name).toMatch(/^[ -\xff]*$/);
      }),
    );
    expect(lineNaming({ product: 'Organic Cotton T-Shirt', variant: 'Small', options: [] }).name).toBe(
      'Organic Cotton T-Shirt - Small',
    );
  });
});
