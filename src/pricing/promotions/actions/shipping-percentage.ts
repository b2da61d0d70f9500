import { actionKind } from '../promotion.modules.js';
import { parsePercent, percentOff } from '../promotion-amounts.js';
import { discountPercent } from './common-fields.js';

/** A percentage off the shipping fee left, rounded once. */
export const shippingPercentage = actionKind({
  type: 'shipping_percentage',
  label: 'Percent off shipping',
  description: 'Percent off the shipping fee',
  example: { type: 'shipping_percentage', percent: '50' },
  fields: { percent: discountPercent },
  take(action, context) {
    const percent = parsePercent(action.percent);
    return { units: [], shippingMinor: percentOff(context.shippingLeftMinor, percent, context.roundingMode) };
  },
});
