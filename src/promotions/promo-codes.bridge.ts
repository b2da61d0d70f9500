import type { StoredPromotionAction, StoredPromotionCondition } from '../db/schema.js';
import type { PromotionRow, PromotionValues } from './promotions.repository.js';

// A promo code is a promotion with a code (SPEC section 10). The promo-codes API shows the code promotions that have
// a promo code's shape, and takes promo codes into promotions, through the two functions here. The mapping is the one
// migration 0014 applied to the codes it copied.

export type PromoCodeType = 'percentage' | 'fixed' | 'free_shipping';

/**
 * A code promotion as a promo code: the fields of the promo-codes API (and of the promo_codes table migration 0015
 * dropped).
 */
export interface PromoCodeView {
  /** The promotion's id. */
  id: number;
  /** Upper-case. */
  code: string;
  codeType: PromoCodeType;
  /** Canonical percent for `percentage`, minor units as a decimal string for `fixed`, "0" for `free_shipping`. */
  value: string;
  /** A fixed code's amount in other currencies (decision 0037), minor units of each; null: none. */
  amounts: Readonly<Record<string, number>> | null;
  isActive: boolean;
  startsAt: Date | null;
  expiresAt: Date | null;
  /** Minor units. */
  minPurchaseAmount: number | null;
  /** The minimum in other currencies (decision 0037), minor units of each; null: none. */
  minPurchaseAmounts: Readonly<Record<string, number>> | null;
  redemptionLimit: number | null;
  usageLimitPerCustomer: number | null;
  specificCustomers: number[] | null;
  applicableProducts: number[] | null;
  newCustomersOnly: boolean;
  timesUsed: number;
  createdAt: Date;
  updatedAt: Date;
}

type PerCurrencyFields = 'amounts' | 'minPurchaseAmounts';

/** What a promo code is made of, without what the service keeps about it (absent amounts per currency: none). */
export type PromoCodeFields = Omit<PromoCodeView, 'id' | 'timesUsed' | 'createdAt' | 'updatedAt' | PerCurrencyFields> &
  Partial<Pick<PromoCodeView, PerCurrencyFields>>;

const sameIds = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((id) => b.includes(id));

/** The code's discount and the products it is limited to, or null when the action is no promo code's. */
function codeDiscount(
  action: StoredPromotionAction,
  products: number[] | null,
): Pick<PromoCodeView, 'codeType' | 'value' | 'amounts'> | null {
  if (action.type === 'free_shipping') return { codeType: 'free_shipping', value: '0', amounts: null };
  if (action.type !== 'order_percentage' && action.type !== 'order_fixed') return null;
  // A promo code limited to products both needs one of them in the order and discounts only them.
  const scoped = action.products;
  if (scoped === null ? products !== null : products === null || !sameIds(scoped, products)) return null;
  return action.type === 'order_percentage'
    ? { codeType: 'percentage', value: action.percent, amounts: null }
    : { codeType: 'fixed', value: String(action.amount), amounts: action.amounts ?? null };
}

/**
 * The promotion as a promo code, or null when it is none: archived, automatic, or with an action or conditions a promo
 * code cannot express (priority, combinable and name are a promotion's own and are left out).
 */
export function promoCodeView(row: PromotionRow): PromoCodeView | null {
  if (row.code === null || row.archivedAt !== null) return null;
  let minPurchaseAmount: number | null = null;
  let minPurchaseAmounts: PromoCodeView['minPurchaseAmounts'] = null;
  let applicableProducts: number[] | null = null;
  for (const condition of row.conditions) {
    if (condition.type === 'min_subtotal' && minPurchaseAmount === null) {
      minPurchaseAmount = condition.amount;
      minPurchaseAmounts = condition.amounts ?? null;
    } else if (condition.type === 'contains_products' && applicableProducts === null)
      applicableProducts = condition.products;
    else return null;
  }
  const discount = codeDiscount(row.action, applicableProducts);
  if (discount === null) return null;
  return {
    id: row.id,
    code: row.code,
    ...discount,
    isActive: row.isActive,
    startsAt: row.startsAt,
    expiresAt: row.expiresAt,
    minPurchaseAmount,
    minPurchaseAmounts,
    redemptionLimit: row.redemptionLimit,
    usageLimitPerCustomer: row.usageLimitPerCustomer,
    specificCustomers: row.specificCustomers,
    applicableProducts,
    newCustomersOnly: row.newCustomersOnly,
    timesUsed: row.timesUsed,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** The columns a promo code sets: all but a promotion's own (name, priority, combinable). */
export type PromoCodeColumns = Required<Omit<PromotionValues, 'name' | 'priority' | 'combinable'>>;

/** A money field's amounts in other currencies as a promotion stores them: absent when none. */
const perCurrency = (amounts: Readonly<Record<string, number>> | null | undefined) =>
  amounts && Object.keys(amounts).length > 0 ? { amounts: { ...amounts } } : {};

/** A promo code as a promotion's columns: the promo code's rules, as conditions and an action. */
export function promotionFromPromoCode(code: PromoCodeFields): PromoCodeColumns {
  const products = code.applicableProducts && code.applicableProducts.length > 0 ? code.applicableProducts : null;
  const conditions: StoredPromotionCondition[] = [];
  // A minimum of 0 asks nothing.
  if (code.minPurchaseAmount !== null && code.minPurchaseAmount > 0)
    conditions.push({ type: 'min_subtotal', amount: code.minPurchaseAmount, ...perCurrency(code.minPurchaseAmounts) });
  if (products) conditions.push({ type: 'contains_products', products });
  const action: StoredPromotionAction =
    code.codeType === 'percentage'
      ? { type: 'order_percentage', percent: code.value, products }
      : code.codeType === 'fixed'
        ? { type: 'order_fixed', amount: Number(code.value), products, ...perCurrency(code.amounts) }
        : { type: 'free_shipping' };
  return {
    code: code.code,
    isActive: code.isActive,
    startsAt: code.startsAt,
    expiresAt: code.expiresAt,
    redemptionLimit: code.redemptionLimit,
    usageLimitPerCustomer: code.usageLimitPerCustomer,
    newCustomersOnly: code.newCustomersOnly,
    specificCustomers: code.specificCustomers && code.specificCustomers.length > 0 ? code.specificCustomers : null,
    conditions,
    action,
  };
}
