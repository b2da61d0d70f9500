import { currencyFormat } from './money.js';

/**
 * Amounts as a reader expects them in text (issue #28): Intl's currency format for `locale`, with the currency's
 * symbol where the locale has an unambiguous one and its code otherwise — in English ¥8,860, KWD 7.688, €23.00,
 * $23.00, CA$23.00 — at the currency's exact precision (ISO 4217 as the service counts it, never Intl's own idea of
 * it). The amount goes to Intl as its exact decimal string (`formatMinor`), never as a float: 90,071,992,547,409.91
 * comes out with every digit. One formatter per call: make it once per email, not per amount.
 */
export function moneyDisplay(currency: string, locale = 'en'): (minor: number) => string {
  const money = currencyFormat(currency);
  const intl = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    currencyDisplay: 'symbol',
    minimumFractionDigits: money.exponent,
    maximumFractionDigits: money.exponent,
  });
  // Intl reads a string as an exact decimal (ECMA-402 NumberFormat v3, Node 20).
  return (minor) => intl.format(money.format(minor) as `${number}`);
}
