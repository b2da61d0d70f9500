import { isSupportedCurrency } from '../shared/currency.js';
import { currencyFormat, MoneyFormatError } from '../shared/money.js';

/*
 * Amounts an admin gives in other currencies than the store's (decision 0037: shipping rates, promotions; decision
 * 0031: variant prices follow the same rules), checked one at a time: the caller names the field and gathers the
 * refusals. Each answers its value, or why it is refused.
 */

export type Checked<T> = { value: T } | { message: string };

/** A currency code as sent (any case) → upper case; unknown, or the store currency (the own amount), refused. */
export function otherCurrency(text: string, storeCurrency: string): Checked<string> {
  const currency = text.trim().toUpperCase();
  if (!isSupportedCurrency(currency)) return { message: 'is not an ISO 4217 currency code such as "EUR"' };
  if (currency === storeCurrency) {
    return { message: `is the store currency: the amount in ${currency} is the one beside these` };
  }
  return { value: currency };
}

/**
 * An amount of `currency` at its exact precision (`"4.50"` EUR, `"800"` JPY, `"1.500"` KWD) → minor units; finer, or
 * below the least allowed (0, or above 0 with `positive`), refused.
 */
export function amountIn(text: string, currency: string, rule: { positive: boolean }): Checked<number> {
  try {
    const minor = currencyFormat(currency).parse(text);
    if (rule.positive && minor <= 0) return { message: 'must be more than 0' };
    if (minor < 0) return { message: 'must not be negative' };
    return { value: minor };
  } catch (err) {
    if (!(err instanceof MoneyFormatError)) throw err;
    return { message: `${err.message} (${currency})` };
  }
}
