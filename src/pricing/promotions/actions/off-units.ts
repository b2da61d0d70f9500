import type { UnitTake } from '../promotion.modules.js';
import type { UnitGroup } from '../unit-runs.js';

/** The same amount off each unit of a group, `offOf(value left)`, never more than the unit is worth. */
export function takeOffUnits(groups: readonly UnitGroup[], offOf: (valueMinor: number) => number): UnitTake[] {
  return groups.flatMap((group) => {
    const offMinor = Math.min(offOf(group.valueMinor), group.valueMinor);
    return offMinor > 0 && group.count > 0 ? [{ ...group, offMinor }] : [];
  });
}
