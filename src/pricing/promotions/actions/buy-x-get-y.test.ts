import { describe, expect, it } from 'vitest';
import type { ActionOf } from '../promotion.modules.js';
import { claimUnits } from '../claimed-units.js';
import { freshContext, type TestLine } from '../promotion.testing.js';
import { takenPerLine } from '../unit-runs.js';
import { buyXGetY } from './buy-x-get-y.js';

const buy2get1: ActionOf<'buy_x_get_y'> = {
  type: 'buy_x_get_y',
  buyQuantity: 2,
  buyProducts: null,
  getQuantity: 1,
  getProducts: null,
  percent: '100',
  repeat: true,
};

function taken(action: ActionOf<'buy_x_get_y'>, lines: TestLine[]): number[] {
  return takenPerLine(lines.length, buyXGetY.take(action, freshContext(lines)).units);
}

describe('buy_x_get_y', () => {
  // Six units at mixed prices: 30.00, 20.00, 10.00, 25.00, 15.00, 5.00
  const mixed: TestLine[] = [
    [1, 3000, 1],
    [2, 2000, 1],
    [3, 1000, 1],
    [4, 2500, 1],
    [5, 1500, 1],
    [6, 500, 1],
  ];

  it('buy 2 get 1 free, repeated: two deals in six units, the two cheapest free (10.00 and 5.00)', () => {
    expect(taken(buy2get1, mixed)).toEqual([0, 0, 1000, 0, 0, 500]);
  });

  it('without repeat, applies once per order: only the cheapest unit is free', () => {
    expect(taken({ ...buy2get1, repeat: false }, mixed)).toEqual([0, 0, 0, 0, 0, 500]);
  });

  it('does not count the units used to qualify: two units make no deal, three make one', () => {
    expect(taken(buy2get1, [[1, 1000, 2]])).toEqual([0]);
    expect(taken(buy2get1, [[1, 1000, 3]])).toEqual([1000]);
    expect(taken(buy2get1, [[1, 1000, 5]])).toEqual([1000]);
    expect(taken(buy2get1, [[1, 1000, 6]])).toEqual([2000]);
  });

  it('with separate scopes, every 2 of product 1 bought gives one unit of product 2 at 50%', () => {
    const action = { ...buy2get1, buyProducts: [1], getProducts: [2], percent: '50' };
    // 5 units of product 1: 2 deals; 3 units of product 2: the 2 cheapest at half price
    expect(
      taken(action, [
        [1, 1000, 5],
        [2, 600, 2],
        [2, 400, 1],
      ]),
    ).toEqual([0, 300, 200]);
  });

  it('with overlapping scopes, a unit serves once: one of product 1 and one of product 2 qualify two free ones', () => {
    // Buy 1 of anything, get 1 of product 2 free: units 10.00 (product 1) and 4.00 × 3 (product 2).
    // Deal 1: 10.00 qualifies, a 4.00 is free; deal 2: a 4.00 qualifies, a 4.00 is free; no third deal.
    const action = { ...buy2get1, buyQuantity: 1, getProducts: [2] };
    expect(
      taken(action, [
        [1, 1000, 1],
        [2, 400, 3],
      ]),
    ).toEqual([0, 800]);
  });

  it('rounds a percentage per unit: 3 for 2 at 50% off the third unit of 0.99 (0.495 → 0.50)', () => {
    expect(taken({ ...buy2get1, percent: '50' }, [[1, 99, 3]])).toEqual([50]);
  });

  it('names the units its deals used: the free ones, and the dearest others as the ones bought to qualify', () => {
    // Buy 1 get 1 free on a tee 25.00 × 2 and a mug 12.00 × 3: two deals; the two cheapest (mugs) free, the tees
    // qualify.
    const take = buyXGetY.take(
      { ...buy2get1, buyQuantity: 1 },
      freshContext([
        [1, 2500, 2],
        [2, 1200, 3],
      ]),
    );
    expect(takenPerLine(2, take.units)).toEqual([0, 2400]);
    expect(take.claims).toEqual([
      { line: 1, valueMinor: 1200, count: 2 },
      { line: 0, valueMinor: 2500, count: 2 },
    ]);
  });

  it('claims no unit when it takes nothing off', () => {
    const take = buyXGetY.take(buy2get1, freshContext([[1, 1000, 2]]));
    expect(take).toEqual({ units: [], shippingMinor: 0, claims: [] });
  });

  it('counts only the units no buy-get used before: of three 50.00 units, two used leave no deal', () => {
    const context = freshContext([[1, 5000, 3]]);
    const lines = claimUnits(context.lines, [{ line: 0, valueMinor: 5000, count: 2 }]);
    const buy1get1 = { ...buy2get1, buyQuantity: 1 };
    expect(buyXGetY.take(buy1get1, { ...context, lines }).units).toEqual([]);
    // Four units, two used: the other two make a deal.
    const four = freshContext([[1, 5000, 4]]);
    const twoUsed = claimUnits(four.lines, [{ line: 0, valueMinor: 5000, count: 2 }]);
    expect(takenPerLine(1, buyXGetY.take(buy1get1, { ...four, lines: twoUsed }).units)).toEqual([5000]);
  });

  it('refuses deals of no units', () => {
    expect(() => taken({ ...buy2get1, buyQuantity: 0 }, mixed)).toThrow(RangeError);
    expect(() => taken({ ...buy2get1, getQuantity: 0 }, mixed)).toThrow(RangeError);
  });
});
