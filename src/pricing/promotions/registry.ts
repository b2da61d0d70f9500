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
import type { KindFields } from './kind-fields.js';
import type { ActionContext, ActionTake, ConditionVerdict, PromotionOrder } from './promotion.modules.js';
import type { PromotionAction, PromotionCondition } from './promotion.types.js';

/** Modules by their `type`, in the order given (the API's, the OpenAPI document's and the dashboard's order). */
function byType<const M extends readonly { readonly type: string }[]>(
  modules: M,
): { readonly [K in M[number] as K['type']]: K } {
  const table: Record<string, M[number]> = {};
  for (const module of modules) {
    if (Object.hasOwn(table, module.type)) throw new Error(`two promotion modules of type ${module.type}`);
    table[module.type] = module;
  }
  return table as { readonly [K in M[number] as K['type']]: K };
}

/**
 * Every condition and action kind with its module: a new kind is its module file (its rule and its fields), its
 * test, and its line here. The types of the kinds (`promotion.types.ts`), the admin API's schema, the stored form,
 * the mapping to pricing, the answers and the dashboard's inputs are all derived from these two lists.
 */
export const conditionModules = byType([minSubtotal, minQuantity, containsProducts]);

export const actionModules = byType([
  orderPercentage,
  orderFixed,
  itemPercentage,
  itemFixed,
  buyXGetY,
  shippingPercentage,
  shippingFixed,
  freeShipping,
]);

/** What the code deriving a kind's shapes reads of it, whatever the kind. */
export interface KindDescription {
  readonly type: string;
  readonly label: string;
  readonly fields: KindFields;
}

/** The conditions' or the actions' kinds, in registry order. */
export const conditionKinds: readonly KindDescription[] = Object.values(conditionModules);
export const actionKinds: readonly KindDescription[] = Object.values(actionModules);

const lookup = (table: object, type: string): KindDescription | undefined =>
  Object.hasOwn(table, type) ? (table as Record<string, KindDescription>)[type] : undefined;

/** A condition kind by its type; undefined for a type no module has (a stored row edited by hand). */
export const conditionKindOf = (type: string) => lookup(conditionModules, type);
export const actionKindOf = (type: string) => lookup(actionModules, type);

/** Checks one condition with its module. */
export function checkCondition(condition: PromotionCondition, order: PromotionOrder): ConditionVerdict {
  // Each module's rule takes its own member of the union, the one its `type` picks.
  const module: { check(condition: PromotionCondition, order: PromotionOrder): ConditionVerdict } =
    conditionModules[condition.type];
  return module.check(condition, order);
}

/** What one action takes off the amounts left, with its module. */
export function takeOf(action: PromotionAction, context: ActionContext): ActionTake {
  const module: { take(action: PromotionAction, context: ActionContext): ActionTake } = actionModules[action.type];
  return module.take(action, context);
}
