import { describe, expect, it } from 'vitest';
import { DomainError } from '../shared/errors.js';
import { currencyFormat } from '../shared/money.js';
import { newVariantValues, productName, variantValues } from './catalog.values.js';

const usd = currencyFormat('USD');

describe('a variant as sent, turned into stored values', () => {
  it('stores prices in minor units and generates an alias when none is given', () => {
    const variant = newVariantValues({ name: ' Steel ', price: '19.50', compare_at_price: null }, usd);
    expect(variant).toMatchObject({ name: 'Steel', price: 1950, compareAtPrice: null });
    expect(variant.alias).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('names each refused field under the path of the variant in its product', () => {
    try {
      newVariantValues({ name: ' ', price: '18.005', weight_grams: '1.2345' }, usd, 'variants[1].');
      expect.unreachable();
    } catch (err) {
      expect((err as DomainError).errors?.map((e) => e.field)).toEqual([
        'variants[1].price',
        'variants[1].weight_grams',
        'variants[1].name',
      ]);
    }
  });

  it('leaves absent fields absent, so a change touches only what it names', () => {
    expect(variantValues({ stock: 7 }, usd)).toEqual({ stock: 7 });
  });

  it('trims a product name and refuses a blank one', () => {
    expect(productName(' Travel mug ')).toBe('Travel mug');
    expect(() => productName('   ')).toThrow(DomainError);
  });
});
