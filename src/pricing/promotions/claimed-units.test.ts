import { describe, expect, it } from 'vitest';
import { claimUnits, openLines, openUnits } from './claimed-units.js';
import { freshContext } from './promotion.testing.js';
import { applyUnitTakes } from './unit-runs.js';

describe('claimed units (the buy-get ledger)', () => {
  it('starts with every unit open', () => {
    const { lines } = freshContext([[1, 5000, 3]]);
    expect(lines[0]?.claimed).toEqual([]);
    expect(openUnits(lines[0]!)).toEqual([{ valueMinor: 5000, count: 3 }]);
    expect(openLines(lines)).toBe(lines);
  });

  it('keeps claimed units out of the open ones, and out of the lines a buy-get sees', () => {
    const { lines } = freshContext([
      [1, 5000, 3],
      [2, 1200, 1],
    ]);
    const claimed = claimUnits(lines, [{ line: 0, valueMinor: 5000, count: 2 }]);
    expect(claimed[0]?.claimed).toEqual([{ valueMinor: 5000, count: 2 }]);
    expect(claimed[1]).toBe(lines[1]);
    expect(openLines(claimed)).toEqual([
      { productId: 1, unitPriceMinor: 5000, quantity: 1, units: [{ valueMinor: 5000, count: 1 }], claimed: [] },
      lines[1],
    ]);
  });

  it('refuses to claim a unit twice, or a unit that is not there', () => {
    const { lines } = freshContext([[1, 5000, 3]]);
    const once = claimUnits(lines, [{ line: 0, valueMinor: 5000, count: 2 }]);
    expect(() => claimUnits(once, [{ line: 0, valueMinor: 5000, count: 2 }])).toThrow(RangeError);
    expect(() => claimUnits(lines, [{ line: 0, valueMinor: 4000, count: 1 }])).toThrow(RangeError);
    expect(() =>
      claimUnits(lines, [
        { line: 0, valueMinor: 5000, count: 2 },
        { line: 0, valueMinor: 5000, count: 2 },
      ]),
    ).toThrow(RangeError);
  });

  it('follows claimed units to their new value when a take lands on them', () => {
    // A buy 1 get 1 free: both units claimed, then the given one taken to 0.
    const { lines } = freshContext([[1, 5000, 3]]);
    const claimed = claimUnits(lines, [{ line: 0, valueMinor: 5000, count: 2 }]);
    const after = applyUnitTakes(claimed, [{ line: 0, valueMinor: 5000, count: 1, offMinor: 5000 }]);
    expect(after[0]?.units).toEqual([
      { valueMinor: 0, count: 1 },
      { valueMinor: 5000, count: 2 },
    ]);
    expect(after[0]?.claimed).toEqual([
      { valueMinor: 0, count: 1 },
      { valueMinor: 5000, count: 1 },
    ]);
    expect(openUnits(after[0]!)).toEqual([{ valueMinor: 5000, count: 1 }]);
  });

  it('lets a take from units of one value land on the claimed ones first, leaving the open ones as they were', () => {
    const { lines } = freshContext([[1, 1000, 4]]);
    const claimed = claimUnits(lines, [{ line: 0, valueMinor: 1000, count: 1 }]);
    const after = applyUnitTakes(claimed, [{ line: 0, valueMinor: 1000, count: 2, offMinor: 100 }]);
    expect(after[0]?.claimed).toEqual([{ valueMinor: 900, count: 1 }]);
    expect(openUnits(after[0]!)).toEqual([
      { valueMinor: 900, count: 1 },
      { valueMinor: 1000, count: 2 },
    ]);
  });
});
