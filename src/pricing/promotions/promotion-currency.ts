import type { Promotion } from './promotion.types.js';
import { actionKindOf, conditionKindOf, type KindDescription } from './registry.js';

/*
 * A promotion's money fields (an amount off, a minimum subtotal) are amounts of the store currency (decision 0031).
 * Until a promotion gives them per currency, it does not apply to an order in another currency: "5.00 off" is a
 * marketing promise in one currency, never converted. Percentages, quantities and products apply everywhere.
 */

const hasMoney = (kind: KindDescription | undefined) =>
  kind !== undefined && Object.values(kind.fields).some((field) => field.sort === 'money');

/** Whether a promotion names an amount of money (in the store currency) in its action or a condition. */
export function hasStoreCurrencyAmounts(promotion: Pick<Promotion, 'action' | 'conditions'>): boolean {
  return (
    hasMoney(actionKindOf(promotion.action.type)) || promotion.conditions.some((c) => hasMoney(conditionKindOf(c.type)))
  );
}

/** Whether a promotion can apply to an order in `orderCurrency` of a store selling in `storeCurrency`. */
export function appliesInCurrency(
  promotion: Pick<Promotion, 'action' | 'conditions'>,
  currency: { order: string; store: string },
): boolean {
  return currency.order === currency.store || !hasStoreCurrencyAmounts(promotion);
}
