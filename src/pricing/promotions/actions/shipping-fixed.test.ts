import { describe, expect, it } from 'vitest';
import { freshContext } from '../promotion.testing.js';
import { shippingFixed } from './shipping-fixed.js';

describe('shipping_fixed', () => {
  it('takes the amount off the fee, capped at the fee left', () => {
    const action = { type: 'shipping_fixed', amountMinor: 300 } as const;
    expect(shippingFixed.take(action, freshContext([[1, 100, 1]], { shippingMinor: 490 }))).toEqual({
      units: [],
      shippingMinor: 300,
    });
    expect(shippingFixed.take(action, freshContext([[1, 100, 1]], { shippingMinor: 250 })).shippingMinor).toBe(250);
  });
});
