/**
 * Promotions as pricing sees them (SPEC section 10): amounts in minor units of the store currency, percentages as
 * decimal strings in percent (up to 4 decimals), product scopes as product ids. The admin API stores and shows the
 * wire form (money strings); its repository turns a stored promotion into this shape.
 */

/** Product ids a condition or action is narrowed to; null: every product. */
export type ProductScope = readonly number[] | null;

/** All conditions of a promotion must hold for it to apply. One module per kind under `conditions/`. */
export type PromotionCondition =
  /** The order's subtotal before any discount is at least `amountMinor` (inclusive). */
  | { type: 'min_subtotal'; amountMinor: number }
  /** At least `quantity` units, counted over the lines of `products` (every line when null). */
  | { type: 'min_quantity'; quantity: number; products: ProductScope }
  /** Any of `products` is in the order. */
  | { type: 'contains_products'; products: readonly number[] };

/** What a promotion gives. One module per kind under `actions/`. */
export type PromotionAction =
  | { type: 'order_percentage'; percent: string; products: ProductScope }
  | { type: 'order_fixed'; amountMinor: number; products: ProductScope }
  | { type: 'item_percentage'; percent: string; products: ProductScope; maxUnits: number | null }
  | { type: 'item_fixed'; amountMinor: number; products: ProductScope; maxUnits: number | null }
  | {
      type: 'buy_x_get_y';
      buyQuantity: number;
      buyProducts: ProductScope;
      getQuantity: number;
      getProducts: ProductScope;
      percent: string;
      repeat: boolean;
    }
  | { type: 'shipping_percentage'; percent: string }
  | { type: 'shipping_fixed'; amountMinor: number }
  | { type: 'free_shipping' };

export type PromotionConditionType = PromotionCondition['type'];
export type PromotionActionType = PromotionAction['type'];

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
