// Every condition kind and action kind the API takes, read from the generated types: a kind the API gains and this
// table lacks fails the type check, and so does a field the API has no longer.
import type { RequestBody } from '../../../api/client';

export type PromotionBody = RequestBody<'/discount/dashboard/api/promotions/', 'post'>;
export type Action = PromotionBody['action'];
export type Condition = NonNullable<PromotionBody['conditions']>[number];
export type ActionKind = Action['type'];
export type ConditionKind = Condition['type'];

/** The fields of one kind, `type` aside. */
type FieldsOf<U, K> = Exclude<keyof Extract<U, { type: K }>, 'type'>;

export const conditionKinds: Record<ConditionKind, string> = {
  min_subtotal: 'Minimum subtotal',
  min_quantity: 'Minimum quantity',
  contains_products: 'Contains products',
};

/** What each condition kind asks for, in the order the form shows it. */
export const conditionFields = {
  min_subtotal: ['amount'],
  min_quantity: ['quantity', 'products'],
  contains_products: ['products'],
} as const satisfies { [K in ConditionKind]: readonly FieldsOf<Condition, K>[] };

export const actionKinds: Record<ActionKind, string> = {
  order_percentage: 'Percent off the order',
  order_fixed: 'Amount off the order',
  item_percentage: 'Percent off each item',
  item_fixed: 'Amount off each item',
  buy_x_get_y: 'Buy X, get Y',
  shipping_percentage: 'Percent off shipping',
  shipping_fixed: 'Amount off shipping',
  free_shipping: 'Free shipping',
};

/** What each action kind asks for, in the order the form shows it. */
export const actionFields = {
  order_percentage: ['percent', 'products'],
  order_fixed: ['amount', 'products'],
  item_percentage: ['percent', 'products', 'max_units'],
  item_fixed: ['amount', 'products', 'max_units'],
  buy_x_get_y: ['buy_quantity', 'buy_products', 'get_quantity', 'get_products', 'percent', 'repeat'],
  shipping_percentage: ['percent'],
  shipping_fixed: ['amount'],
  free_shipping: [],
} as const satisfies { [K in ActionKind]: readonly FieldsOf<Action, K>[] };

export type ConditionField = (typeof conditionFields)[ConditionKind][number];
export type ActionField = (typeof actionFields)[ActionKind][number];
