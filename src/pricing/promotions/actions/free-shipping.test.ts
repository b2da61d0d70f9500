import { describe, expect, it } from 'vitest';
import { freshContext } from '../promotion.testing.js';
import { freeShipping } from './free-shipping.js';

describe('free_shipping', () => {
  it('takes the whole fee left, and nothing off the lines', () => {
    expect(freeShipping.take({ type: 'free_shipping' }, freshContext([[1, 100, 1]], { shippingMinor: 490 }))).toEqual({
      units: [],
      shippingMinor: 490,
    });
    expect(freeShipping.take({ type: 'free_shipping' }, freshContext([[1, 100, 1]])).shippingMinor).toBe(0);
  });
});
