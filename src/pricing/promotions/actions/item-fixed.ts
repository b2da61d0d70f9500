import { money } from '../kind-fields.js';
import { actionKind } from '../promotion.modules.js';
import { fixedAmount } from '../promotion-amounts.js';
import { firstUnits, unitsInScope } from '../unit-runs.js';
import { actsOn, atMostUnits } from './common-fields.js';
import { takeOffUnits } from './off-units.js';
import { maxUnits } from './unit-count.js';

/** A fixed amount off each eligible unit, capped at what is left of it; with `maxUnits`, the cheapest units first. */
export const itemFixed = actionKind({
  type: 'item_fixed',
  label: 'Amount off each item',
  description: 'An amount off each eligible unit, capped at the unit price',
  example: { type: 'item_fixed', amount: '1.50', products: [7] },
  fields: {
    amount: money({
      description: 'Amount off each unit, capped at its price',
      example: '1.50',
      label: 'Amount off each unit',
    }),
    products: actsOn,
    max_units: atMostUnits,
  },
  take(action, context) {
    const amount = fixedAmount(action.amountMinor);
    const units = firstUnits(unitsInScope(context.lines, action.products), maxUnits(action.maxUnits));
    return { units: takeOffUnits(units, () => amount), shippingMinor: 0 };
  },
});
