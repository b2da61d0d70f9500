import { buyXGetY } from './actions/buy-x-get-y.js';
import { freeShipping } from './actions/free-shipping.js';
import { itemFixed } from './actions/item-fixed.js';
import { itemPercentage } from './actions/item-percentage.js';
import { orderFixed } from './actions/order-fixed.js';
import { orderPercentage } from './actions/order-percentage.js';
import { shippingFixed } from './actions/shipping-fixed.js';
import { shippingPercentage } from './actions/shipping-percentage.js';
import { containsProducts } from './conditions/contains-products.js';
import { minQuantity } from './conditions/min-quantity.js';
import { minSubtotal } from './conditions/min-subtotal.js';
import type {
  ActionContext,
  ActionOf,
  ActionTake,
  ConditionOf,
  ConditionVerdict,
  PromotionActionModule,
  PromotionConditionModule,
  PromotionOrder,
} from './promotion.modules.js';
import type {
  PromotionAction,
  PromotionActionType,
  PromotionCondition,
  PromotionConditionType,
} from './promotion.types.js';

/**
 * Every condition and action kind with its module. A new kind is a member of the union in promotion.types.ts, its
 * module file, and its line here (the mapped types make a missing one a compile error); nothing else changes.
 */
export const conditionModules: { readonly [T in PromotionConditionType]: PromotionConditionModule<T> } = {
  min_subtotal: minSubtotal,
  min_quantity: minQuantity,
  contains_products: containsProducts,
};

export const actionModules: { readonly [T in PromotionActionType]: PromotionActionModule<T> } = {
  order_percentage: orderPercentage,
  order_fixed: orderFixed,
  item_percentage: itemPercentage,
  item_fixed: itemFixed,
  buy_x_get_y: buyXGetY,
  shipping_percentage: shippingPercentage,
  shipping_fixed: shippingFixed,
  free_shipping: freeShipping,
};

/** Checks one condition with its module. */
export function checkCondition(condition: PromotionCondition, order: PromotionOrder): ConditionVerdict {
  return checkWith(condition.type, { condition, order });
}

/** What one action takes off the amounts left, with its module. */
export function takeOf(action: PromotionAction, context: ActionContext): ActionTake {
  return takeWith(action.type, { action, context });
}

function checkWith<T extends PromotionConditionType>(
  type: T,
  input: { condition: ConditionOf<T>; order: PromotionOrder },
): ConditionVerdict {
  return conditionModules[type].check(input.condition, input.order);
}

function takeWith<T extends PromotionActionType>(
  type: T,
  input: { action: ActionOf<T>; context: ActionContext },
): ActionTake {
  return actionModules[type].take(input.action, input.context);
}
