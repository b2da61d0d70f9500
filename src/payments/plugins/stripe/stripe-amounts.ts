import { type Money, UnchargeableAmountError } from '../../payment-plugin.js';
import { currencyExponent, isSupportedCurrency } from '../../../shared/currency.js';
import { formatMinor } from '../../../shared/money.js';

/**
 * Stripe's currency rules, in one place (https://docs.stripe.com/currencies: "Minor units in API amounts",
 * "Zero-decimal currencies", "Three-decimal currencies", "Special cases"). Stripe's idea of a currency's minor unit is
 * not always ISO 4217's or this runtime's Intl data (the service's): amounts cross between the two scales exactly or
 * not at all, and an amount Stripe cannot take exactly is refused, never rounded.
 */

/** Amounts in whole units: ¥500 is `500`. */
const ZERO_DECIMAL = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);
/** Amounts in thousandths, but only in multiples of ten (Stripe: "the last digit must be 0"). */
export const THREE_DECIMAL = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND']);
/**
 * Special cases that change how a charge is written. ISK became zero-decimal for card networks in 2023 but Stripe
 * keeps it two-decimal in its API: the amount must be divisible by 100 (5 ISK is `500`). HUF and TWD are charged in
 * two decimals (their whole-unit rule is for payouts, not charges), like every currency not listed here.
 */
const WHOLE_UNITS_IN_TWO_DECIMALS = new Set(['ISK']);

/** How Stripe writes amounts of a currency: the digits after the unit, and the step an amount must be a multiple of. */
export interface StripeUnit {
  exponent: number;
  /** In Stripe's minor units: 1 for most currencies, 10 for three-decimal ones, 100 for ISK. */
  step: number;
}

export function stripeUnitOf(currency: string): StripeUnit {
  if (ZERO_DECIMAL.has(currency)) return { exponent: 0, step: 1 };
  if (THREE_DECIMAL.has(currency)) return { exponent: 3, step: 10 };
  if (WHOLE_UNITS_IN_TWO_DECIMALS.has(currency)) return { exponent: 2, step: 100 };
  return { exponent: 2, step: 1 };
}

export function stripeExponent(currency: string): number {
  return stripeUnitOf(currency).exponent;
}

const shown = (money: Money) => `${formatMinor(money.amountMinor, money.exponent)} ${money.currency}`;

/**
 * The integer Stripe must be sent for this amount (any sign: a refund is sent positive by the caller). Throws
 * UnchargeableAmountError instead of rounding when Stripe can't represent it exactly: 12.345 KWD (Stripe needs the
 * last fils digit 0), an amount with more decimals than Stripe has, or one beyond the safe integer range.
 */
export function toStripeAmount(money: Money): number {
  const unit = stripeUnitOf(money.currency);
  const shift = unit.exponent - money.exponent;
  let amount: number;
  if (shift >= 0) {
    amount = money.amountMinor * 10 ** shift;
  } else {
    const divisor = 10 ** -shift;
    if (money.amountMinor % divisor !== 0)
      throw new UnchargeableAmountError(
        `Stripe counts ${money.currency} in steps of ${formatMinor(divisor, money.exponent)}; `
          + `${shown(money)} can't be charged exactly, and the service never rounds a payment`,
      );
    amount = money.amountMinor / divisor;
  }
  if (!Number.isSafeInteger(amount)) throw new UnchargeableAmountError(`${shown(money)} is too large for Stripe`);
  if (amount % unit.step !== 0) {
    const step = formatMinor(unit.step, unit.exponent);
    throw new UnchargeableAmountError(
      `Stripe accepts ${money.currency} amounts only in multiples of ${step}`
        + `${unit.exponent === 3 ? ' (the last of the three decimals must be 0)' : ''}; `
        + `${shown(money)} can't be charged exactly, and the service never rounds a payment`,
    );
  }
  return amount || 0;
}

/**
 * An amount Stripe reports (lower-case currency, Stripe's minor units) as the service's Money, or undefined when the
 * currency is unknown here or the amount is not a whole number of the service's minor units (such an event can't
 * concern a payment this service started).
 */
export function fromStripeAmount(
  amount: number | null | undefined,
  stripeCurrency: string | null | undefined,
): Money | undefined {
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || typeof stripeCurrency !== 'string')
    return undefined;
  const currency = stripeCurrency.toUpperCase();
  if (!isSupportedCurrency(currency)) return undefined;
  const exponent = currencyExponent(currency);
  const shift = stripeExponent(currency) - exponent;
  if (shift <= 0) {
    const amountMinor = amount * 10 ** -shift;
    return Number.isSafeInteger(amountMinor) ? { amountMinor, currency, exponent } : undefined;
  }
  const divisor = 10 ** shift;
  if (amount % divisor !== 0) return undefined;
  return { amountMinor: amount / divisor || 0, currency, exponent };
}
