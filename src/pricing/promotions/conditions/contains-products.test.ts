import { describe, expect, it } from 'vitest';
import { testOrder } from '../promotion.testing.js';
import { containsProducts } from './contains-products.js';

describe('contains_products', () => {
  const order = testOrder([
    [1, 500, 1],
    [2, 800, 1],
  ]);

  it('holds when any of the products named is in the order', () => {
    expect(containsProducts.check({ type: 'contains_products', products: [9, 2] }, order)).toEqual({ holds: true });
  });

  it('refuses an order with none of them', () => {
    expect(containsProducts.check({ type: 'contains_products', products: [3, 4] }, order)).toEqual({
      holds: false,
      reason: 'applies to none of the products in this order',
    });
  });
});
