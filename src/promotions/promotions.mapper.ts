import type {
  OrderPromotion,
  OrderPromotionTerms,
  StoredPromotionAction,
  StoredPromotionCondition,
} from '../db/schema.js';
import { perCurrencyName, perCurrencyPricingName, pricingName } from '../pricing/promotions/kind-fields.js';
import type { Promotion, PromotionAction, PromotionCondition } from '../pricing/promotions/promotion.types.js';
import { actionKinds, conditionKinds, type KindDescription } from '../pricing/promotions/registry.js';
import type { PromotionRow } from './promotions.repository.js';

// A stored promotion (src/db/schema.ts: snake_case, money in minor units) as pricing takes it (camelCase, money named
// `…Minor`), field by field as each kind's module describes them. Money needs no currency here: both sides hold minor
// units, of the store currency in a promotion's row and of each currency in its amounts per currency (`amounts` →
// `amountsMinor`, copied when present). An order's kept terms hold the amounts it got, in its own currency.

/** Per kind, each stored field's name and pricing's name for it (a money field's per currency too), once. */
function renamings(kinds: readonly KindDescription[]): Map<string, readonly [string, string][]> {
  return new Map(
    kinds.map((kind) => [
      kind.type,
      Object.entries(kind.fields).flatMap(([name, field]): [string, string][] => {
        const own: [string, string] = [name, pricingName(name, field)];
        return field.sort === 'money' ? [own, [perCurrencyName(name), perCurrencyPricingName(name)]] : [own];
      }),
    ]),
  );
}

const conditionRenamings = renamings(conditionKinds);
const actionRenamings = renamings(actionKinds);

function fromStored<T>(part: { type: string }, table: Map<string, readonly [string, string][]>, what: string): T {
  const fields = table.get(part.type);
  // Only a hand-edited row gets here.
  if (fields === undefined) throw new Error(`stored promotion ${what} of unknown type: ${JSON.stringify(part)}`);
  const stored = part as unknown as Record<string, unknown>;
  const pricing: Record<string, unknown> = { type: part.type };
  for (const [name, as] of fields) if (stored[name] !== undefined) pricing[as] = stored[name];
  return pricing as T;
}

/** The inverse of `fromStored`: a pricing-form condition or action in its stored form. */
function toStored<T>(part: { type: string }, table: Map<string, readonly [string, string][]>, what: string): T {
  const fields = table.get(part.type);
  if (fields === undefined) throw new Error(`promotion ${what} of unknown type: ${JSON.stringify(part)}`);
  const pricing = part as unknown as Record<string, unknown>;
  const stored: Record<string, unknown> = { type: part.type };
  for (const [name, as] of fields) if (pricing[as] !== undefined) stored[name] = pricing[as];
  return stored as T;
}

const conditionFromStored = (condition: StoredPromotionCondition) =>
  fromStored<PromotionCondition>(condition, conditionRenamings, 'condition');
const actionFromStored = (action: StoredPromotionAction) =>
  fromStored<PromotionAction>(action, actionRenamings, 'action');

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

/** What an order keeps of a promotion it applied (`OrderPromotion.terms`), in the stored form. */
export function promotionTerms(promotion: Promotion): OrderPromotionTerms {
  return {
    priority: promotion.priority,
    combinable: promotion.combinable,
    conditions: promotion.conditions.map((c) => toStored<StoredPromotionCondition>(c, conditionRenamings, 'condition')),
    action: toStored<StoredPromotionAction>(promotion.action, actionRenamings, 'action'),
  };
}

/**
 * A promotion an order applied, as it was when the order was placed (its kept terms), for pricing the order again
 * (an edit): it applies to this order whatever has happened to the promotion since (changed, archived, its limit
 * reached), as long as its conditions hold on the order as priced. Its window, limits and customers held at placement
 * and are not checked again. Undefined for an order placed before terms were kept: its caller decides.
 */
export function promotionAsPlaced(applied: OrderPromotion): Promotion | undefined {
  const { terms } = applied;
  if (terms === undefined) return undefined;
  return {
    id: applied.id,
    name: applied.name,
    code: applied.code,
    isActive: true,
    startsAt: null,
    expiresAt: null,
    priority: terms.priority,
    combinable: terms.combinable,
    redemptionLimit: null,
    usageLimitPerCustomer: null,
    newCustomersOnly: false,
    specificCustomerIds: null,
    conditions: terms.conditions.map(conditionFromStored),
    action: actionFromStored(terms.action),
  };
}
