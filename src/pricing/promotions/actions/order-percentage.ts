import { actionKind } from '../promotion.modules.js';
import { parsePercent, percentOff } from '../promotion-amounts.js';
import { actsOn, discountPercent } from './common-fields.js';
import { takeOffLines } from './off-lines.js';

/** A percentage of the eligible lines together, rounded once, allocated over them by largest remainder. */
export const orderPercentage = actionKind({
  type: 'order_percentage',
  label: 'Percent off the order',
  description: 'Percent off the eligible lines together, allocated over them',
  example: { type: 'order_percentage', percent: '10' },
  fields: { percent: discountPercent, products: actsOn },
  take(action, context) {
    const percent = parsePercent(action.percent);
    const units = takeOffLines(context, {
      products: action.products,
      amountOf: (eligible) => percentOff(eligible, percent, context.roundingMode),
    });
    return { units, shippingMinor: 0 };
  },
});
