import { describe, expect, it } from 'vitest';
import { freshContext } from './promotion.testing.js';
import { applyUnitTakes, firstUnits, lineLeftMinor, spreadOverLine, unitsInScope } from './unit-runs.js';

describe('unit runs', () => {
  it('spreads an amount over a line’s units in proportion to what is left, within one minor unit per unit', () => {
    const { lines } = freshContext([[1, 1000, 3]]);
    const takes = spreadOverLine(lines, { line: 0, amountMinor: 100 });
    expect(takes).toEqual([
      { line: 0, valueMinor: 1000, count: 1, offMinor: 34 },
      { line: 0, valueMinor: 1000, count: 2, offMinor: 33 },
    ]);
    const after = applyUnitTakes(lines, takes);
    expect(after[0]?.units).toEqual([
      { valueMinor: 966, count: 1 },
      { valueMinor: 967, count: 2 },
    ]);
    expect(lineLeftMinor(after[0]!)).toBe(2900);
  });

  it('rebuilds only the lines taken from, merging equal values into one run', () => {
    const { lines } = freshContext([
      [1, 500, 3],
      [2, 800, 1],
    ]);
    const after = applyUnitTakes(lines, [
      { line: 0, valueMinor: 500, count: 1, offMinor: 100 },
      { line: 0, valueMinor: 500, count: 2, offMinor: 50 },
    ]);
    expect(after[1]).toBe(lines[1]);
    expect(after[0]?.units).toEqual([
      { valueMinor: 400, count: 1 },
      { valueMinor: 450, count: 2 },
    ]);
    const again = applyUnitTakes(after, [
      { line: 0, valueMinor: 400, count: 1, offMinor: 0 },
      { line: 0, valueMinor: 450, count: 1, offMinor: 50 },
    ]);
    expect(again[0]?.units).toEqual([
      { valueMinor: 400, count: 2 },
      { valueMinor: 450, count: 1 },
    ]);
    expect(lineLeftMinor(again[0]!)).toBe(1250);
  });

  it('spreads over the runs of a line in proportion to what is left of each', () => {
    const lines = applyUnitTakes(freshContext([[1, 1000, 3]]).lines, [
      { line: 0, valueMinor: 1000, count: 1, offMinor: 500 },
    ]);
    const takes = spreadOverLine(lines, { line: 0, amountMinor: 101 });
    expect(takes).toEqual([
      { line: 0, valueMinor: 500, count: 1, offMinor: 20 },
      { line: 0, valueMinor: 1000, count: 1, offMinor: 41 },
      { line: 0, valueMinor: 1000, count: 1, offMinor: 40 },
    ]);
  });

  it('lists the units in scope cheapest first, leaving out units worth nothing', () => {
    const { lines } = freshContext([
      [1, 500, 2],
      [2, 0, 1],
      [3, 300, 1],
    ]);
    expect(unitsInScope(lines, null)).toEqual([
      { line: 2, valueMinor: 300, count: 1 },
      { line: 0, valueMinor: 500, count: 2 },
    ]);
    expect(firstUnits(unitsInScope(lines, [1]), 1)).toEqual([{ line: 0, valueMinor: 500, count: 1 }]);
  });

  it('refuses a take of more units than a line has at that value, or of more than a unit is worth', () => {
    const { lines } = freshContext([[1, 500, 2]]);
    expect(() => applyUnitTakes(lines, [{ line: 0, valueMinor: 500, count: 3, offMinor: 1 }])).toThrow(RangeError);
    expect(() => applyUnitTakes(lines, [{ line: 0, valueMinor: 400, count: 1, offMinor: 1 }])).toThrow(RangeError);
    expect(() => applyUnitTakes(lines, [{ line: 0, valueMinor: 500, count: 1, offMinor: 501 }])).toThrow(RangeError);
  });
});
