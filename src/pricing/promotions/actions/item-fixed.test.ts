import { describe, expect, it } from 'vitest';
import { freshContext } from '../promotion.testing.js';
import { takenPerLine } from '../unit-runs.js';
import { itemFixed } from './item-fixed.js';

describe('item_fixed', () => {
  const context = freshContext([
    [1, 500, 1],
    [2, 900, 2],
  ]);

  it('takes the amount off each unit, capped at the unit price', () => {
    const take = itemFixed.take({ type: 'item_fixed', amountMinor: 700, products: null, maxUnits: null }, context);
    expect(takenPerLine(2, take.units)).toEqual([500, 1400]);
  });

  it('with max_units, only that many units, the cheapest first', () => {
    const take = itemFixed.take({ type: 'item_fixed', amountMinor: 700, products: null, maxUnits: 2 }, context);
    expect(takenPerLine(2, take.units)).toEqual([500, 700]);
    expect(
      itemFixed.take({ type: 'item_fixed', amountMinor: 700, products: null, maxUnits: 0 }, context).units,
    ).toEqual([]);
  });

  it('refuses a negative amount or unit count', () => {
    expect(() =>
      itemFixed.take({ type: 'item_fixed', amountMinor: -1, products: null, maxUnits: null }, context),
    ).toThrow(RangeError);
    expect(() => itemFixed.take({ type: 'item_fixed', amountMinor: 1, products: null, maxUnits: -1 }, context)).toThrow(
      RangeError,
    );
  });
});
