import { perCurrencyPricingName, pricingName } from './kind-fields.js';
import type { Promotion } from './promotion.types.js';
import { actionKindOf, conditionKindOf, type KindDescription } from './registry.js';

/*
 * A promotion's money fields (an amount off, a minimum subtotal) are amounts of the store currency, each with optional
 * amounts in other currencies beside it (decision 0037). In an order of another currency the promotion applies with
 * those amounts, or not at all when a money field has none in it: "5.00 off" is a marketing promise in one currency,
 * never converted. Percentages, quantities and products apply everywhere. One rule, here: the quote, the check under
 * lock at placement and the dashboard's reading of it all come through `promotionInCurrency`.
 */

type Part = { type: string };

/** Per part, its money fields' pricing names: [amount, amounts per currency]. */
function moneyNames(kind: KindDescription | undefined): [string, string][] {
  if (kind === undefined) return [];
  return Object.entries(kind.fields).flatMap(([name, field]): [string, string][] =>
    field.sort === 'money' ? [[pricingName(name, field), perCurrencyPricingName(name)]] : [],
  );
}

/** The part with each money field in `currency` (its per-currency maps dropped), or null when one has none. */
function partIn<T extends Part>(part: T, kind: KindDescription | undefined, currency: string): T | null {
  const names = moneyNames(kind);
  if (names.length === 0) return part;
  const local: Record<string, unknown> = { ...part };
  for (const [own, perCurrency] of names) {
    const amounts = local[perCurrency] as Readonly<Record<string, number>> | undefined;
    const inCurrency = amounts?.[currency];
    if (inCurrency === undefined) return null;
    local[own] = inCurrency;
    delete local[perCurrency];
  }
  return local as T;
}

/**
 * The promotion as it applies to an order in `currency.order` of a store selling in `currency.store`: in the store
 * currency, itself; in another, with every money field's amount in that currency, or null (it does not apply) when a
 * money field has none there. A promotion without money fields is the same everywhere.
 */
export function promotionInCurrency(
  promotion: Promotion,
  currency: { order: string; store: string },
): Promotion | null {
  if (currency.order === currency.store) return promotion;
  const action = partIn(promotion.action, actionKindOf(promotion.action.type), currency.order);
  if (action === null) return null;
  const conditions: Promotion['conditions'][number][] = [];
  for (const condition of promotion.conditions) {
    const local = partIn(condition, conditionKindOf(condition.type), currency.order);
    if (local === null) return null;
    conditions.push(local);
  }
  return { ...promotion, action, conditions };
}

/** Whether a promotion can apply to an order in `currency.order` (see `promotionInCurrency`). */
export function appliesInCurrency(promotion: Promotion, currency: { order: string; store: string }): boolean {
  return promotionInCurrency(promotion, currency) !== null;
}

/** The refusal of a code without amounts in the order's currency (422 `promo_code_invalid`, rule `currency`). */
export function currencyRefusal(promotion: Pick<Promotion, 'code' | 'name'>, currency: string): string {
  const name = promotion.code === null ? `promotion "${promotion.name}"` : `promo code ${promotion.code}`;
  return `${name} has no amount in ${currency}`;
}
