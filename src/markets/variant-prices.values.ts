import { isSupportedCurrency } from '../shared/currency.js';
import { invalidField } from '../shared/errors.js';
import { currencyFormat, MoneyFormatError } from '../shared/money.js';

// A variant's explicit prices in other currencies (decision 0031), checked beyond their schema: an ISO 4217 currency
// other than the store's, each once, amounts at that currency's precision. Each refusal a 422 naming its field.

/** One price as the admin sends it. */
export interface VariantPriceInput {
  currency: string;
  price: string;
  compare_at_price?: string | null;
}

/** One price as stored: minor units of its own currency. */
export interface VariantPriceValues {
  currency: string;
  amount: number;
  compareAtAmount: number | null;
}

function minorUnits(text: string, currency: string, field: string): number {
  try {
    const amount = currencyFormat(currency).parse(text);
    if (amount < 0) throw invalidField(field, 'must not be negative');
    return amount;
  } catch (err) {
    if (err instanceof MoneyFormatError) throw invalidField(field, `${err.message} (${currency})`);
    throw err;
  }
}

export function variantPriceValues(prices: readonly VariantPriceInput[], storeCurrency: string): VariantPriceValues[] {
  const seen = new Set<string>();
  return prices.map((input, i) => {
    const currency = input.currency.trim().toUpperCase();
    const field = `prices[${i}]`;
    if (!isSupportedCurrency(currency)) {
      throw invalidField(`${field}.currency`, 'is not an ISO 4217 currency code such as "EUR"');
    }
    if (currency === storeCurrency) {
      throw invalidField(`${field}.currency`, `is the store currency: the variant's own price is in ${currency}`);
    }
    if (seen.has(currency)) throw invalidField(`${field}.currency`, 'is listed twice');
    seen.add(currency);
    const compareAt = input.compare_at_price;
    return {
      currency,
      amount: minorUnits(input.price, currency, `${field}.price`),
      compareAtAmount:
        compareAt === undefined || compareAt === null
          ? null
          : minorUnits(compareAt, currency, `${field}.compare_at_price`),
    };
  });
}
