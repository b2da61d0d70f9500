import { actionKind } from '../promotion.modules.js';

/** All of the shipping fee left. */
export const freeShipping = actionKind({
  type: 'free_shipping',
  label: 'Free shipping',
  description: 'No shipping fee',
  example: { type: 'free_shipping' },
  fields: {},
  take(_action, context) {
    return { units: [], shippingMinor: context.shippingLeftMinor };
  },
});
