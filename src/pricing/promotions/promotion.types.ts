import type { PricingForm, StoredForm, WireForm } from './kind-fields.js';
import type { actionModules, conditionModules } from './registry.js';

/**
 * Promotions as pricing sees them (SPEC section 10): amounts in minor units of the store currency, percentages as
 * decimal strings in percent (up to 4 decimals), product scopes as product ids. The admin API stores and shows the
 * wire form (money strings); its repository turns a stored promotion into this shape.
 */

export type { ProductScope } from './kind-fields.js';

type ConditionModules = typeof conditionModules;
type ActionModules = typeof actionModules;

/**
 * All conditions of a promotion must hold for it to apply. One module per kind under `conditions/`, listed in
 * `registry.ts`; its fields say its members (`{type: 'min_subtotal', amountMinor}`, see `kind-fields.ts`).
 */
export type PromotionCondition = {
  [T in keyof ConditionModules]: PricingForm<T, ConditionModules[T]['fields']>;
}[keyof ConditionModules];

/** What a promotion gives. One module per kind under `actions/`, listed in `registry.ts`. */
export type PromotionAction = {
  [T in keyof ActionModules]: PricingForm<T, ActionModules[T]['fields']>;
}[keyof ActionModules];

export type PromotionConditionType = PromotionCondition['type'];
export type PromotionActionType = PromotionAction['type'];

/** A condition as stored in a promotion's row (jsonb): the API's names, money in minor units (src/db/schema.ts). */
export type StoredPromotionCondition = {
  [T in keyof ConditionModules]: StoredForm<T, ConditionModules[T]['fields']>;
}[keyof ConditionModules];

export type StoredPromotionAction = {
  [T in keyof ActionModules]: StoredForm<T, ActionModules[T]['fields']>;
}[keyof ActionModules];

/** A condition or action as the admin API takes it (and answers it, every field present). */
export type WirePromotionCondition = {
  [T in keyof ConditionModules]: WireForm<T, ConditionModules[T]['fields']>;
}[keyof ConditionModules];

export type WirePromotionAction = {
  [T in keyof ActionModules]: WireForm<T, ActionModules[T]['fields']>;
}[keyof ActionModules];

/** A stored promotion, as the rules and the pricing function use it. */
export interface Promotion {
  id: number;
  /** Shown on the order and in the result. */
  name: string;
  /** Null: automatic. Else stored upper-case, matched case-insensitively. */
  code: string | null;
  isActive: boolean;
  startsAt: Date | null;
  /** Exclusive. */
  expiresAt: Date | null;
  /** Higher applies first; ties: lower id first. */
  priority: number;
  /** False: exclusive (priced alone, applies alone if it beats the combinable ones together). */
  combinable: boolean;
  /** Redemptions allowed across all customers; null: unlimited. */
  redemptionLimit: number | null;
  /** Redemptions allowed per customer (a user by id, a guest by normalised email); null: unlimited. */
  usageLimitPerCustomer: number | null;
  newCustomersOnly: boolean;
  /** User ids allowed; null or empty: anyone. */
  specificCustomerIds: readonly number[] | null;
  conditions: readonly PromotionCondition[];
  action: PromotionAction;
}
