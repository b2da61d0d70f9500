import { describe, expect, it } from 'vitest';
import { testOrder } from '../promotion.testing.js';
import { minQuantity } from './min-quantity.js';

describe('min_quantity', () => {
  const order = testOrder([
    [1, 500, 2],
    [2, 800, 1],
    [3, 100, 4],
  ]);

  it('counts the units of every line when no product is named', () => {
    expect(minQuantity.check({ type: 'min_quantity', quantity: 7, products: null }, order).holds).toBe(true);
    expect(minQuantity.check({ type: 'min_quantity', quantity: 8, products: null }, order)).toEqual({
      holds: false,
      reason: 'needs at least 8 items; this order has 7',
    });
  });

  it('counts only the units of the products named', () => {
    expect(minQuantity.check({ type: 'min_quantity', quantity: 3, products: [1, 2] }, order).holds).toBe(true);
    expect(minQuantity.check({ type: 'min_quantity', quantity: 3, products: [2, 9] }, order)).toEqual({
      holds: false,
      reason: 'needs at least 3 items of products 2, 9; this order has 1',
    });
    expect(minQuantity.check({ type: 'min_quantity', quantity: 1, products: [9] }, order)).toEqual({
      holds: false,
      reason: 'needs at least 1 item of product 9; this order has 0',
    });
  });
});
