import type { Static } from 'typebox';
import type { StoredPromotionAction, StoredPromotionCondition } from '../db/schema.js';
import { actionKinds, conditionKinds, type KindDescription } from '../pricing/promotions/registry.js';
import { perCurrencyName } from '../pricing/promotions/kind-fields.js';
import { type CurrencyFormat, currencyFormat } from '../shared/money.js';
import type { PromotionRow } from './promotions.repository.js';
import type { Promotion } from './promotions.schema.js';

type Answer = Static<typeof Promotion>;

/** Per kind, the names of its money fields (as its module describes them), worked out once. */
const moneyFields = (kinds: readonly KindDescription[]) =>
  new Map(
    kinds.map((kind) => [
      kind.type,
      Object.entries(kind.fields).flatMap(([name, field]) => (field.sort === 'money' ? [name] : [])),
    ]),
  );
const conditionMoney = moneyFields(conditionKinds);
const actionMoney = moneyFields(actionKinds);

/** Amounts in other currencies as the admin APIs show them: by currency in code order, each at its precision. */
export function presentAmounts(stored: Readonly<Record<string, number>> | null | undefined): Record<string, string> {
  return Object.fromEntries(
    Object.entries(stored ?? {})
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([currency, minor]) => [currency, currencyFormat(currency).format(minor)]),
  );
}

/**
 * A stored condition or action with every money field of its kind as a money string, and its amounts in other
 * currencies beside it (`amounts`, `{}` when none) each at its currency's precision; the rest as stored.
 */
function withMoney(
  part: StoredPromotionCondition | StoredPromotionAction,
  input: { money: CurrencyFormat; fields: Map<string, string[]> },
) {
  const names = input.fields.get(part.type) ?? [];
  if (names.length === 0) return part;
  const shown: Record<string, unknown> = { ...part };
  for (const name of names) {
    shown[name] = input.money.format(shown[name] as number);
    const other = perCurrencyName(name);
    shown[other] = presentAmounts(shown[other] as Record<string, number> | undefined);
  }
  return shown;
}

export function presentPromotion(row: PromotionRow, money: CurrencyFormat): Answer {
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    is_active: row.isActive,
    starts_at: row.startsAt?.toISOString() ?? null,
    expires_at: row.expiresAt?.toISOString() ?? null,
    priority: row.priority,
    combinable: row.combinable,
    redemption_limit: row.redemptionLimit,
    usage_limit_per_customer: row.usageLimitPerCustomer,
    new_customers_only: row.newCustomersOnly,
    specific_customers: row.specificCustomers,
    conditions: row.conditions.map(
      (c) => withMoney(c, { money, fields: conditionMoney }) as Answer['conditions'][number],
    ),
    action: withMoney(row.action, { money, fields: actionMoney }) as Answer['action'],
    times_used: row.timesUsed,
    archived_at: row.archivedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
