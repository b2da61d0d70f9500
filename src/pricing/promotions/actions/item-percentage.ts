import type { PromotionActionModule } from '../promotion.modules.js';
import { parsePercent, percentOff } from '../promotion-amounts.js';
import { firstUnits, unitsInScope } from '../unit-runs.js';
import { maxUnits } from './unit-count.js';
import { takeOffUnits } from './off-units.js';

/** A percentage off each eligible unit, rounded per unit; with `maxUnits`, only that many, the cheapest first. */
export const itemPercentage: PromotionActionModule<'item_percentage'> = {
  type: 'item_percentage',
  take(action, context) {
    const percent = parsePercent(action.percent);
    const units = firstUnits(unitsInScope(context.lines, action.products), maxUnits(action.maxUnits));
    return {
      units: takeOffUnits(units, (value) => percentOff(value, percent, context.roundingMode)),
      shippingMinor: 0,
    };
  },
};
