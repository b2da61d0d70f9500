import { describe, expect, it } from 'vitest';
import { freshContext } from '../promotion.testing.js';
import { applyUnitTakes, takenPerLine } from '../unit-runs.js';
import { orderPercentage } from './order-percentage.js';

const tenPercent = { type: 'order_percentage', percent: '10', products: null } as const;

describe('order_percentage', () => {
  it('takes the percentage of the eligible lines together, rounded once, allocated by largest remainder', () => {
    // 10% of 94.97 = 9.497 → 9.50, over 59.97 : 25.00 : 10.00 → 5.99889… → 6.00 (largest remainder), 2.50, 1.00
    const context = freshContext([
      [1, 1999, 3],
      [2, 1250, 2],
      [3, 1000, 1],
    ]);
    const take = orderPercentage.take(tenPercent, context);
    expect(takenPerLine(3, take.units)).toEqual([600, 250, 100]);
    expect(take.shippingMinor).toBe(0);
    // each shirt unit carries a third of its line's 6.00
    expect(take.units.filter((u) => u.line === 0)).toEqual([{ line: 0, valueMinor: 1999, count: 3, offMinor: 200 }]);
  });

  it('takes it only of the lines of the products named', () => {
    const context = freshContext([
      [1, 1999, 3],
      [2, 1250, 2],
    ]);
    const take = orderPercentage.take({ ...tenPercent, products: [2] }, context);
    expect(takenPerLine(2, take.units)).toEqual([0, 250]);
  });

  it('acts on what the promotions before it left: 10% after 10% is 19% in all', () => {
    const first = freshContext([[1, 1000, 2]]);
    const lines = applyUnitTakes(first.lines, orderPercentage.take(tenPercent, first).units);
    const second = orderPercentage.take(tenPercent, { ...first, lines });
    expect(takenPerLine(1, second.units)).toEqual([180]);
    expect(applyUnitTakes(lines, second.units)[0]?.units).toEqual([{ valueMinor: 810, count: 2 }]);
  });

  it('rounds an exact half in the store mode: 10% of ¥1225', () => {
    const up = orderPercentage.take(tenPercent, freshContext([[1, 1225, 1]]));
    const even = orderPercentage.take(tenPercent, freshContext([[1, 1225, 1]], { roundingMode: 'half_even' }));
    expect([takenPerLine(1, up.units), takenPerLine(1, even.units)]).toEqual([[123], [122]]);
  });

  it('never takes more than the lines hold, and refuses a negative percentage', () => {
    expect(
      takenPerLine(1, orderPercentage.take({ ...tenPercent, percent: '150' }, freshContext([[1, 800, 1]])).units),
    ).toEqual([800]);
    expect(() => orderPercentage.take({ ...tenPercent, percent: '-5' }, freshContext([[1, 800, 1]]))).toThrow(
      RangeError,
    );
  });
});
