import { GatewayError, type Money } from '../../payment-plugin.js';
import { currencyExponent, isSupportedCurrency } from '../../../shared/currency.js';
import { formatMinor } from '../../../shared/money.js';

/**
 * Stripe's own idea of a currency's minor unit, which is not always ISO 4217's or this runtime's
 * Intl data (the service's): Stripe keeps ISK, HUF, COP, IDR, PKR… two-decimal in its API, where
 * Intl counts whole units. Amounts cross between the two scales exactly or not at all.
 * https://docs.stripe.com/currencies#zero-decimal and #three-decimal
 */
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
/** Stripe takes these in thousandths, but only in multiples of ten (the last digit must be 0). */
export const THREE_DECIMAL = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND']);

export function stripeExponent(currency: string): number {
  if (ZERO_DECIMAL.has(currency)) return 0;
  if (THREE_DECIMAL.has(currency)) return 3;
  return 2;
}

const shown = (money: Money) => `${formatMinor(money.amountMinor, money.exponent)} ${money.currency}`;

/**
 * The integer Stripe must be sent for this amount. Throws GatewayError instead of rounding when
 * Stripe can't represent the amount exactly (e.g. 12.345 KWD: Stripe needs the last fils digit 0).
 */
export function toStripeAmount(money: Money): number {
  const shift = stripeExponent(money.currency) - money.exponent;
  let amount = money.amountMinor;
  if (shift > 0) {
    amount = money.amountMinor * 10 ** shift;
  } else if (shift < 0) {
    const divisor = 10 ** -shift;
    if (money.amountMinor % divisor !== 0) {
      throw new GatewayError(
        `Stripe accepts ${money.currency} only in steps of ${formatMinor(divisor, money.exponent)}; `
          + `${shown(money)} can't be charged exactly`,
      );
    }
    amount = money.amountMinor / divisor;
  }
  if (!Number.isSafeInteger(amount)) throw new GatewayError(`${shown(money)} is too large for Stripe`);
  if (THREE_DECIMAL.has(money.currency) && amount % 10 !== 0) {
    throw new GatewayError(
      `Stripe accepts ${money.currency} amounts only in multiples of 0.010 (the last of the three decimals must be 0); `
        + `${shown(money)} can't be charged exactly, and the service never rounds a payment`,
    );
  }
  return amount;
}

/**
 * An amount Stripe reports (lower-case currency, Stripe's minor units) as the service's Money, or
 * undefined when the currency is unknown here or the amount is not a whole number of the service's
 * minor units (such an event can't concern a payment this service started).
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
  if (shift <= 0) return { amountMinor: amount * 10 ** -shift, currency, exponent };
  const divisor = 10 ** shift;
  if (amount % divisor !== 0) return undefined;
  return { amountMinor: amount / divisor, currency, exponent };
}
