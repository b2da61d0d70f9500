import { describe, expect, it } from 'vitest';
import { freshContext } from '../promotion.testing.js';
import { takenPerLine } from '../unit-runs.js';
import { orderFixed } from './order-fixed.js';

describe('order_fixed', () => {
  const context = freshContext([
    [10, 800, 1],
    [20, 2500, 2],
  ]);

  it('spreads the amount over the eligible lines by largest remainder, and evenly over a line’s units', () => {
    // 15.00 over 8.00 and 50.00: 2.0689… → 2.07 (larger remainder) and 12.9310… → 12.93 = 6.47 + 6.46
    const take = orderFixed.take({ type: 'order_fixed', amountMinor: 1500, products: null }, context);
    expect(takenPerLine(2, take.units)).toEqual([207, 1293]);
    expect(take.units.filter((u) => u.line === 1)).toEqual([
      { line: 1, valueMinor: 2500, count: 1, offMinor: 647 },
      { line: 1, valueMinor: 2500, count: 1, offMinor: 646 },
    ]);
  });

  it('is capped at what is left of the lines of the products named', () => {
    const take = orderFixed.take({ type: 'order_fixed', amountMinor: 1500, products: [10] }, context);
    expect(takenPerLine(2, take.units)).toEqual([800, 0]);
  });

  it('takes nothing when no line is eligible', () => {
    expect(orderFixed.take({ type: 'order_fixed', amountMinor: 1500, products: [99] }, context).units).toEqual([]);
  });
});
