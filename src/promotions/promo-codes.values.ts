import type { Static } from 'typebox';
import { type CurrencyFormat, MoneyFormatError } from '../shared/money.js';
import type { PromoCodeFields, PromoCodeType, PromoCodeView } from './promo-codes.bridge.js';
import type { PromoCodeInput, PromoCodePatch } from './promo-codes.schema.js';
import { checkedAmount, checkedAmounts, checkedPercent, checkedWindow, FieldErrors } from './promotions.values.js';

type PromoCodeBody = Static<typeof PromoCodePatch>;

const ZERO = /^0+(\.0+)?$/;

/**
 * The stored `value` of a code: the canonical percent for percentage codes, minor units written as a decimal string
 * for fixed ones, "0" for free shipping; or why it is refused. The rules are the promotions' own.
 */
function storedValue(
  type: PromoCodeType,
  text: string | undefined,
  money: CurrencyFormat,
): { value: string } | { message: string } {
  if (type === 'free_shipping')
    return text === undefined || ZERO.test(text)
      ? { value: '0' }
      : { message: 'must be absent or "0" for a free_shipping code' };
  if (text === undefined) return { message: `is required for a ${type} code` };
  if (type === 'percentage') return checkedPercent(text);
  const amount = checkedAmount(text, money);
  return 'value' in amount ? { value: String(amount.value) } : amount;
}

/**
 * The amounts in other currencies as sent (decision 0037), checked as the promotions API checks them: undefined when
 * not sent (unchanged), null for `{}` (cleared). Only a fixed code has them for its value, and only a code with a
 * minimum for its minimum: sent to another, they are refused rather than dropped.
 */
function checkedPerCurrency(
  body: PromoCodeBody,
  code: {
    current: PromoCodeView | null;
    codeType: PromoCodeType;
    minPurchase: number | null | undefined;
    money: CurrencyFormat;
  },
  errors: FieldErrors,
): Pick<Partial<PromoCodeFields>, 'amounts' | 'minPurchaseAmounts'> {
  const sent = (field: 'amounts' | 'min_purchase_amounts') =>
    body[field] === undefined
      ? undefined
      : (checkedAmounts({ field, sent: body[field], money: code.money }, errors) ?? null);
  const amounts = sent('amounts');
  const minPurchaseAmounts = sent('min_purchase_amounts');
  if (amounts && code.codeType !== 'fixed')
    errors.add('amounts', `is for a fixed code only, not a ${code.codeType} one`);
  const minimum = code.minPurchase === undefined ? (code.current?.minPurchaseAmount ?? null) : code.minPurchase;
  if (minPurchaseAmounts && !(minimum !== null && minimum > 0))
    errors.add('min_purchase_amounts', 'needs a min_purchase_amount in the store currency beside it');
  return { amounts, minPurchaseAmounts };
}

/**
 * The fields of a new code (`current` null) or of `current` changed, with every rule checked on the code as it will
 * be: the value against the (possibly new) type, starts before expires. Null clears a nullable field.
 */
export function promoCodeValues(
  body: PromoCodeBody,
  current: PromoCodeView | null,
  money: CurrencyFormat,
): Partial<PromoCodeFields> {
  const errors = new FieldErrors();
  const codeType = body.code_type ?? current?.codeType ?? 'percentage';
  let value: string | undefined;
  if (body.value !== undefined || !current || codeType !== current.codeType) {
    const changedType = current !== null && codeType !== current.codeType;
    const checked = storedValue(codeType, body.value, money);
    if ('value' in checked) value = checked.value;
    else if (changedType && body.value === undefined)
      errors.add('value', `is required when code_type changes to ${codeType}`);
    else errors.add('value', checked.message);
  }
  let minPurchase: number | null | undefined = body.min_purchase_amount === null ? null : undefined;
  if (typeof body.min_purchase_amount === 'string') {
    try {
      minPurchase = money.parse(body.min_purchase_amount);
      if (minPurchase < 0) errors.add('min_purchase_amount', 'must not be negative');
    } catch (err) {
      if (!(err instanceof MoneyFormatError)) throw err;
      errors.add('min_purchase_amount', `${err.message} (${money.currency})`);
    }
  }
  const window = checkedWindow(body, current, errors);
  const perCurrency = checkedPerCurrency(body, { current, codeType, minPurchase, money }, errors);
  errors.throwIfAny();
  const values: Partial<PromoCodeFields> = {
    code: body.code?.toUpperCase(),
    codeType: body.code_type,
    value,
    isActive: body.is_active,
    ...window,
    minPurchaseAmount: minPurchase,
    ...perCurrency,
    redemptionLimit: body.redemption_limit,
    usageLimitPerCustomer: body.usage_limit_per_customer,
    specificCustomers: body.specific_customers,
    applicableProducts: body.applicable_products,
    newCustomersOnly: body.new_customers_only,
  };
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}

/** Every field of a new code: what was sent, checked, and the defaults for the rest. */
export function newPromoCodeValues(body: Static<typeof PromoCodeInput>, money: CurrencyFormat): PromoCodeFields {
  const { value, ...values } = promoCodeValues(body, null, money);
  // A new code always gets a value from promoCodeValues, or a 422 saying why not.
  if (value === undefined) throw new Error('promo code value left unset');
  return {
    isActive: true,
    startsAt: null,
    expiresAt: null,
    minPurchaseAmount: null,
    redemptionLimit: null,
    usageLimitPerCustomer: null,
    specificCustomers: null,
    applicableProducts: null,
    newCustomersOnly: false,
    ...values,
    code: body.code.toUpperCase(),
    codeType: body.code_type,
    value,
  };
}
