import type { Static } from 'typebox';
import { DomainError, type FieldError } from '../shared/errors.js';
import { compareDecimal, type CurrencyFormat, formatDecimal, MoneyFormatError } from '../shared/money.js';
import type { PromoCodeRow, PromoCodeValues } from './promo-codes.repository.js';
import type { PromoCodeInput, PromoCodePatch } from './promo-codes.schema.js';

type PromoCodeFields = Static<typeof PromoCodePatch>;
type CodeType = PromoCodeRow['codeType'];

/** numeric(7,4) like tax rates: three whole digits and four decimals. */
const PERCENT = /^\d{1,3}(\.\d{1,4})?$/;
const ZERO = /^0+(\.0+)?$/;

/**
 * The stored `value` of a code: the canonical percent for percentage codes, minor units written
 * as a decimal string for fixed ones (as the schema documents), "0" for free shipping.
 */
function storedValue(type: CodeType, text: string | undefined, money: CurrencyFormat): string | FieldError {
  const fail = (message: string): FieldError => ({ field: 'value', message });
  if (type === 'free_shipping')
    return text === undefined || ZERO.test(text) ? '0' : fail('must be absent or "0" for a free_shipping code');
  if (text === undefined) return fail(`is required for a ${type} code`);
  if (type === 'percentage') {
    if (!PERCENT.test(text) || compareDecimal(text, '0') <= 0 || compareDecimal(text, '100') > 0) {
      return fail(
        'must be a percentage above 0 and up to 100 with at most 4 decimals, written as a string like "12.5"',
      );
    }
    return formatDecimal(text);
  }
  try {
    const minor = money.parse(text);
    return minor > 0 ? String(minor) : fail('must be more than 0');
  } catch (err) {
    if (!(err instanceof MoneyFormatError)) throw err;
    return fail(`${err.message} (${money.currency})`);
  }
}

function timestamp(field: string, text: string | null | undefined, errors: FieldError[]): Date | null | undefined {
  if (text === undefined || text === null) return text;
  const date = new Date(text);
  // The date-time format lets leap seconds through; a JavaScript Date does not take them.
  if (Number.isNaN(date.getTime())) errors.push({ field, message: 'is not a date-time this service can store' });
  return date;
}

/**
 * Column values for a new code (`current` null) or a change to `current`, with every rule checked
 * on the code as it will be: the value against the (possibly new) type, starts before expires.
 * Absent fields stay absent; null clears a nullable field.
 */
export function promoCodeValues(
  body: PromoCodeFields,
  current: PromoCodeRow | null,
  money: CurrencyFormat,
): Partial<PromoCodeValues> {
  const errors: FieldError[] = [];
  const codeType = body.code_type ?? current?.codeType ?? 'percentage';
  let value: string | undefined;
  if (body.value !== undefined || !current || codeType !== current.codeType) {
    const changedType = current !== null && codeType !== current.codeType;
    const checked = storedValue(codeType, body.value, money);
    if (typeof checked === 'string') value = checked;
    else
      errors.push(
        changedType && body.value === undefined
          ? { field: 'value', message: `is required when code_type changes to ${codeType}` }
          : checked,
      );
  }
  let minPurchase: number | null | undefined = body.min_purchase_amount === null ? null : undefined;
  if (typeof body.min_purchase_amount === 'string') {
    try {
      minPurchase = money.parse(body.min_purchase_amount);
      if (minPurchase < 0) errors.push({ field: 'min_purchase_amount', message: 'must not be negative' });
    } catch (err) {
      if (!(err instanceof MoneyFormatError)) throw err;
      errors.push({ field: 'min_purchase_amount', message: `${err.message} (${money.currency})` });
    }
  }
  const startsAt = timestamp('starts_at', body.starts_at, errors);
  const expiresAt = timestamp('expires_at', body.expires_at, errors);
  const starts = startsAt === undefined ? (current?.startsAt ?? null) : startsAt;
  const expires = expiresAt === undefined ? (current?.expiresAt ?? null) : expiresAt;
  if (starts && expires && starts.getTime() >= expires.getTime()) {
    errors.push({ field: 'expires_at', message: `must be after starts_at (${starts.toISOString()})` });
  }
  if (errors.length > 0) {
    throw new DomainError('validation_error', {
      detail: errors.map((e) => `${e.field} ${e.message}`).join('; '),
      errors,
    });
  }
  const values: Partial<PromoCodeValues> = {
    code: body.code?.toUpperCase(),
    codeType: body.code_type,
    value,
    isActive: body.is_active,
    startsAt,
    expiresAt,
    minPurchaseAmount: minPurchase,
    redemptionLimit: body.redemption_limit,
    usageLimitPerCustomer: body.usage_limit_per_customer,
    specificCustomers: body.specific_customers,
    applicableProducts: body.applicable_products,
    newCustomersOnly: body.new_customers_only,
  };
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}

export function newPromoCodeValues(body: Static<typeof PromoCodeInput>, money: CurrencyFormat): PromoCodeValues {
  const { value, ...values } = promoCodeValues(body, null, money);
  // A new code always gets a value from promoCodeValues, or a 422 saying why not.
  if (value === undefined) throw new Error('promo code value left unset');
  return { ...values, code: body.code.toUpperCase(), codeType: body.code_type, value };
}

function presentValue(row: PromoCodeRow, money: CurrencyFormat): string {
  if (row.codeType === 'fixed') return money.format(Number(row.value));
  if (row.codeType === 'percentage') return formatDecimal(row.value);
  return '0';
}

export function presentPromoCode(row: PromoCodeRow, money: CurrencyFormat) {
  return {
    id: row.id,
    code: row.code,
    code_type: row.codeType,
    value: presentValue(row, money),
    is_active: row.isActive,
    starts_at: row.startsAt?.toISOString() ?? null,
    expires_at: row.expiresAt?.toISOString() ?? null,
    min_purchase_amount: row.minPurchaseAmount === null ? null : money.format(row.minPurchaseAmount),
    redemption_limit: row.redemptionLimit,
    usage_limit_per_customer: row.usageLimitPerCustomer,
    specific_customers: row.specificCustomers,
    applicable_products: row.applicableProducts,
    new_customers_only: row.newCustomersOnly,
    times_used: row.timesUsed,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
