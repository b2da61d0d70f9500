import { money } from '../kind-fields.js';
import { actionKind } from '../promotion.modules.js';
import { fixedAmount } from '../promotion-amounts.js';

/** A fixed amount off the shipping fee, capped at the fee left. */
export const shippingFixed = actionKind({
  type: 'shipping_fixed',
  label: 'Amount off shipping',
  description: 'An amount off the shipping fee',
  example: { type: 'shipping_fixed', amount: '3.00' },
  fields: {
    amount: money({
      description: 'Amount off the shipping fee, at most the fee',
      example: '3.00',
      label: 'Amount off shipping',
    }),
  },
  take(action, context) {
    return { units: [], shippingMinor: Math.min(fixedAmount(action.amountMinor), context.shippingLeftMinor) };
  },
});
