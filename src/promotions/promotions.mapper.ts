import type { StoredPromotionAction, StoredPromotionCondition } from '../db/schema.js';
import type { Promotion, PromotionAction, PromotionCondition } from '../pricing/promotions/promotion.types.js';
import type { PromotionRow } from './promotions.repository.js';

// A stored promotion (src/db/schema.ts: snake_case, money in minor units) as pricing takes it (camelCase). Money needs
// no currency here: both sides hold minor units of the store currency.

function conditionFromStored(condition: StoredPromotionCondition): PromotionCondition {
  switch (condition.type) {
    case 'min_subtotal':
      return { type: condition.type, amountMinor: condition.amount };
    case 'min_quantity':
      return { type: condition.type, quantity: condition.quantity, products: condition.products };
    case 'contains_products':
      return { type: condition.type, products: condition.products };
  }
  // Only a hand-edited row gets here.
  throw new Error(`stored promotion condition of unknown type: ${JSON.stringify(condition)}`);
}

function actionFromStored(action: StoredPromotionAction): PromotionAction {
  switch (action.type) {
    case 'order_percentage':
      return { type: action.type, percent: action.percent, products: action.products };
    case 'order_fixed':
      return { type: action.type, amountMinor: action.amount, products: action.products };
    case 'item_percentage':
      return { type: action.type, percent: action.percent, products: action.products, maxUnits: action.max_units };
    case 'item_fixed':
      return { type: action.type, amountMinor: action.amount, products: action.products, maxUnits: action.max_units };
    case 'buy_x_get_y':
      return {
        type: action.type,
        buyQuantity: action.buy_quantity,
        buyProducts: action.buy_products,
        getQuantity: action.get_quantity,
        getProducts: action.get_products,
        percent: action.percent,
        repeat: action.repeat,
      };
    case 'shipping_percentage':
      return { type: action.type, percent: action.percent };
    case 'shipping_fixed':
      return { type: action.type, amountMinor: action.amount };
    case 'free_shipping':
      return { type: action.type };
  }
  throw new Error(`stored promotion action of unknown type: ${JSON.stringify(action)}`);
}

/** A promotion row as the rules and the pricing function use it. */
export function promotionFromRow(row: PromotionRow): Promotion {
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    isActive: row.isActive,
    startsAt: row.startsAt,
    expiresAt: row.expiresAt,
    priority: row.priority,
    combinable: row.combinable,
    redemptionLimit: row.redemptionLimit,
    usageLimitPerCustomer: row.usageLimitPerCustomer,
    newCustomersOnly: row.newCustomersOnly,
    specificCustomerIds: row.specificCustomers,
    conditions: row.conditions.map(conditionFromStored),
    action: actionFromStored(row.action),
  };
}
