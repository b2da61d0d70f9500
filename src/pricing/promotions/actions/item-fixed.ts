import type { PromotionActionModule } from '../promotion.modules.js';
import { fixedAmount } from '../promotion-amounts.js';
import { firstUnits, unitsInScope } from '../unit-runs.js';
import { maxUnits } from './unit-count.js';
import { takeOffUnits } from './off-units.js';

/** A fixed amount off each eligible unit, capped at what is left of it; with `maxUnits`, the cheapest units first. */
export const itemFixed: PromotionActionModule<'item_fixed'> = {
  type: 'item_fixed',
  take(action, context) {
    const amount = fixedAmount(action.amountMinor);
    const units = firstUnits(unitsInScope(context.lines, action.products), maxUnits(action.maxUnits));
    return { units: takeOffUnits(units, () => amount), shippingMinor: 0 };
  },
};
