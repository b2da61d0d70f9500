import type { UnitTake } from '../promotion.modules.js';
import type { UnitGroup } from '../unit-runs.js';

/** The same amount off each unit of a group, `offOf(value left)`, never more than the unit is worth. */
export function takeOffUnits(groups: readonly UnitGroup[], offOf: (valueMinor: number) => number): UnitTake[] {
  const takes: UnitTake[] = [];
  for (const { line, valueMinor, count } of groups) {
    const offMinor = Math.min(offOf(valueMinor), valueMinor);
    if (offMinor > 0 && count > 0) takes.push({ line, valueMinor, count, offMinor });
  }
  return takes;
}
