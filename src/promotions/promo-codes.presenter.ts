import type { CurrencyFormat } from '../shared/money.js';
import type { PromoCodeView } from './promo-codes.bridge.js';
import { presentAmounts } from './promotions.presenter.js';

function presentValue(code: PromoCodeView, money: CurrencyFormat): string {
  if (code.codeType === 'fixed') return money.format(Number(code.value));
  if (code.codeType === 'percentage') return code.value;
  return '0';
}

export function presentPromoCode(code: PromoCodeView, money: CurrencyFormat) {
  return {
    id: code.id,
    code: code.code,
    code_type: code.codeType,
    value: presentValue(code, money),
    amounts: presentAmounts(code.amounts),
    is_active: code.isActive,
    starts_at: code.startsAt?.toISOString() ?? null,
    expires_at: code.expiresAt?.toISOString() ?? null,
    min_purchase_amount: code.minPurchaseAmount === null ? null : money.format(code.minPurchaseAmount),
    min_purchase_amounts: presentAmounts(code.minPurchaseAmounts),
    redemption_limit: code.redemptionLimit,
    usage_limit_per_customer: code.usageLimitPerCustomer,
    specific_customers: code.specificCustomers,
    applicable_products: code.applicableProducts,
    new_customers_only: code.newCustomersOnly,
    times_used: code.timesUsed,
    created_at: code.createdAt.toISOString(),
    updated_at: code.updatedAt.toISOString(),
  };
}
