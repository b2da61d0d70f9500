import { describe, expect, it } from 'vitest';
import { freshContext } from '../promotion.testing.js';
import { takenPerLine } from '../unit-runs.js';
import { itemPercentage } from './item-percentage.js';

describe('item_percentage', () => {
  it('rounds per unit: 10% of three 1.05 units is 0.11 each (0.33), where the line’s 10% would be 0.32', () => {
    const action = { type: 'item_percentage', percent: '10', products: null, maxUnits: null } as const;
    expect(takenPerLine(1, itemPercentage.take(action, freshContext([[1, 105, 3]])).units)).toEqual([33]);
    const even = itemPercentage.take(action, freshContext([[1, 105, 3]], { roundingMode: 'half_even' }));
    expect(takenPerLine(1, even.units)).toEqual([30]);
  });

  it('with max_units, discounts that many units, the cheapest first (equal prices: the earlier line)', () => {
    const context = freshContext([
      [1, 500, 2],
      [2, 300, 1],
      [3, 300, 2],
    ]);
    const take = itemPercentage.take({ type: 'item_percentage', percent: '50', products: null, maxUnits: 2 }, context);
    expect(takenPerLine(3, take.units)).toEqual([0, 150, 150]);
  });

  it('discounts only the products named', () => {
    const context = freshContext([
      [1, 500, 2],
      [2, 300, 1],
    ]);
    const take = itemPercentage.take(
      { type: 'item_percentage', percent: '20', products: [1], maxUnits: null },
      context,
    );
    expect(takenPerLine(2, take.units)).toEqual([200, 0]);
  });
});
