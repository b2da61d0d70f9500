import { actionKind } from '../promotion.modules.js';
import { parsePercent, percentOff } from '../promotion-amounts.js';
import { firstUnits, unitsInScope } from '../unit-runs.js';
import { actsOn, atMostUnits, discountPercent } from './common-fields.js';
import { takeOffUnits } from './off-units.js';
import { maxUnits } from './unit-count.js';

/** A percentage off each eligible unit, rounded per unit; with `maxUnits`, only that many, the cheapest first. */
export const itemPercentage = actionKind({
  type: 'item_percentage',
  label: 'Percent off each item',
  description: 'Percent off each eligible unit (rounded per unit)',
  example: { type: 'item_percentage', percent: '20', products: [7], max_units: 2 },
  fields: { percent: discountPercent, products: actsOn, max_units: atMostUnits },
  take(action, context) {
    const percent = parsePercent(action.percent);
    const units = firstUnits(unitsInScope(context.lines, action.products), maxUnits(action.maxUnits));
    return {
      units: takeOffUnits(units, (value) => percentOff(value, percent, context.roundingMode)),
      shippingMinor: 0,
    };
  },
});
