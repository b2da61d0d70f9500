// The market form's live example of its rate and rounding rule, worked out by the service's own pure function
// (src/markets/market-price.ts, browser-safe like the promotion kinds), so the dashboard keeps no copy of the rule.
import { convertPrice, exchangeMinor, priceRoundingOf } from '../../../../src/markets/market-price.js';
import { currencyExponent, isSupportedCurrency } from '../../../../src/shared/currency.js';
import { formatMinor, parseMinor } from '../../../../src/shared/money.js';
import type { MarketText } from './market-draft.js';

/** What one price of the store currency becomes in the market: converted to its precision, then by its rule. */
export interface RoundingExample {
  from: string;
  exact: string;
  rounded: string;
  currency: string;
}

/**
 * `price` (a decimal of `storeCurrency`, "25.00") in the market the form describes, or undefined while the form does
 * not describe one yet (no currency, a rate or rule the API would refuse). Halves go up, as the store's default
 * `ROUNDING_MODE` does.
 */
export function roundingExample(
  text: Pick<MarketText, 'currency' | 'exchange_rate' | 'rounding_step' | 'price_ending' | 'rounding_direction'>,
  store: { currency: string; price: string },
): RoundingExample | undefined {
  const currency = text.currency.trim().toUpperCase();
  if (!isSupportedCurrency(currency) || !isSupportedCurrency(store.currency)) return undefined;
  try {
    const amount = parseMinor(store.price, currencyExponent(store.currency));
    const conversion = {
      from: store.currency,
      to: currency,
      rate: text.exchange_rate.trim(),
      mode: 'half_up' as const,
    };
    const rule = priceRoundingOf(
      {
        step: text.rounding_step.trim() === '' ? null : text.rounding_step.trim(),
        ending: text.price_ending.trim() === '' ? '0' : text.price_ending.trim(),
        direction: text.rounding_direction,
      },
      currency,
    );
    const exponent = currencyExponent(currency);
    return {
      from: `${store.price} ${store.currency}`,
      exact: formatMinor(exchangeMinor(amount, conversion), exponent),
      rounded: formatMinor(convertPrice(amount, conversion, rule), exponent),
      currency,
    };
  } catch {
    // A rate or rule that does not parse or fit the currency: the API will say which when the form is sent.
    return undefined;
  }
}
