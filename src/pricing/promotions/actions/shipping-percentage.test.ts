import { describe, expect, it } from 'vitest';
import { freshContext } from '../promotion.testing.js';
import { shippingPercentage } from './shipping-percentage.js';

describe('shipping_percentage', () => {
  it('takes the percentage of the fee left, rounded once in the store mode: 25% of 4.90 = 1.225', () => {
    const action = { type: 'shipping_percentage', percent: '25' } as const;
    expect(shippingPercentage.take(action, freshContext([[1, 100, 1]], { shippingMinor: 490 }))).toEqual({
      units: [],
      shippingMinor: 123,
    });
    const even = freshContext([[1, 100, 1]], { shippingMinor: 490, roundingMode: 'half_even' });
    expect(shippingPercentage.take(action, even).shippingMinor).toBe(122);
  });

  it('takes nothing without shipping, and never more than the fee', () => {
    const action = { type: 'shipping_percentage', percent: '120' } as const;
    expect(shippingPercentage.take(action, freshContext([[1, 100, 1]])).shippingMinor).toBe(0);
    expect(shippingPercentage.take(action, freshContext([[1, 100, 1]], { shippingMinor: 490 })).shippingMinor).toBe(
      490,
    );
  });
});
