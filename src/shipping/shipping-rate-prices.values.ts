import { amountIn, otherCurrency } from '../markets/currency-amounts.js';
import type { FieldError } from '../shared/errors.js';

// A shipping rate's amounts in other currencies than the store's (decision 0037), checked beyond their schema: an
// ISO 4217 currency other than the store's, each once, amounts at that currency's exact precision, not negative.

/** One currency's amounts as the admin sends them. */
export interface ShippingRatePriceInput {
  currency: string;
  base_rate: string;
  per_kg_rate?: string;
}

/** As stored: minor units of `currency`. */
export interface ShippingRatePriceValues {
  currency: string;
  baseRate: number;
  perKgRate: number;
}

/** The list as stored, or the refusals added to `errors` (each naming `prices[i].<field>`). */
export function shippingRatePriceValues(
  prices: readonly ShippingRatePriceInput[],
  input: { storeCurrency: string; errors: FieldError[] },
): ShippingRatePriceValues[] {
  const { errors } = input;
  const seen = new Set<string>();
  const values: ShippingRatePriceValues[] = [];
  prices.forEach((price, i) => {
    const at = `prices[${i}]`;
    const currency = otherCurrency(price.currency, input.storeCurrency);
    if ('message' in currency) {
      errors.push({ field: `${at}.currency`, message: currency.message });
      return;
    }
    if (seen.has(currency.value)) {
      errors.push({ field: `${at}.currency`, message: 'is listed twice' });
      return;
    }
    seen.add(currency.value);
    const amount = (field: string, text: string | undefined): number => {
      if (text === undefined) return 0;
      const checked = amountIn(text, currency.value, { positive: false });
      if ('value' in checked) return checked.value;
      errors.push({ field: `${at}.${field}`, message: checked.message });
      return 0;
    };
    values.push({
      currency: currency.value,
      baseRate: amount('base_rate', price.base_rate),
      perKgRate: amount('per_kg_rate', price.per_kg_rate),
    });
  });
  return values;
}
