import type { Static } from 'typebox';
import type { StoredPromotionAction, StoredPromotionCondition } from '../db/schema.js';
import type { CurrencyFormat } from '../shared/money.js';
import type { PromotionRow } from './promotions.repository.js';
import type { Promotion } from './promotions.schema.js';

type Answer = Static<typeof Promotion>;

/** A stored condition or action with its money as money strings (`amount` is the one money field of every kind). */
function withMoney<T extends StoredPromotionCondition | StoredPromotionAction>(part: T, money: CurrencyFormat) {
  return 'amount' in part ? { ...part, amount: money.format(part.amount) } : part;
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
    conditions: row.conditions.map((c) => withMoney(c, money) as Answer['conditions'][number]),
    action: withMoney(row.action, money) as Answer['action'],
    times_used: row.timesUsed,
    archived_at: row.archivedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
