import { describe, expect, it } from 'vitest';
import { testOrder } from '../promotion.testing.js';
import { minSubtotal } from './min-subtotal.js';

describe('min_subtotal', () => {
  it('holds for a subtotal at the minimum or above (inclusive), before any discount', () => {
    expect(minSubtotal.check({ type: 'min_subtotal', amountMinor: 5000 }, testOrder([[1, 2500, 2]]))).toEqual({
      holds: true,
    });
    expect(minSubtotal.check({ type: 'min_subtotal', amountMinor: 5000 }, testOrder([[1, 5001, 1]])).holds).toBe(true);
  });

  it('refuses a smaller subtotal, naming both amounts in the currency', () => {
    expect(minSubtotal.check({ type: 'min_subtotal', amountMinor: 5000 }, testOrder([[1, 2000, 1]]))).toEqual({
      holds: false,
      reason: "needs a subtotal of at least 50.00 USD; this order's is 20.00 USD",
    });
    expect(minSubtotal.check({ type: 'min_subtotal', amountMinor: 3000 }, testOrder([[1, 2980, 1]], 'JPY'))).toEqual({
      holds: false,
      reason: "needs a subtotal of at least 3000 JPY; this order's is 2980 JPY",
    });
    expect(minSubtotal.check({ type: 'min_subtotal', amountMinor: 10000 }, testOrder([[1, 9999, 1]], 'KWD'))).toEqual({
      holds: false,
      reason: "needs a subtotal of at least 10.000 KWD; this order's is 9.999 KWD",
    });
  });
});
