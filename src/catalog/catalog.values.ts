import { randomUUID } from 'node:crypto';
import type { Static } from 'typebox';
import { DomainError } from '../shared/errors.js';
import { type CurrencyFormat, MoneyFormatError } from '../shared/money.js';
import type { VariantValues } from './catalog.repository.js';
import type { VariantPatch } from './catalog.schema.js';

// What the admin sends, checked beyond its schema and turned into the stored form (money at the store currency's
// precision, weights, blank names), each failure a 422 naming its field.

/** A name (of a product, a category, a collection), trimmed; blank is a 422. */
export function productName(name: string, field = 'name'): string {
  const trimmed = name.trim();
  if (trimmed === '') {
    throw new DomainError('validation_error', {
      errors: [{ field, message: 'must not be blank' }],
      detail: `${field} must not be blank`,
    });
  }
  return trimmed;
}

/** An SEO field as sent: trimmed; blank or null clears it (the storefront then falls back); absent stays absent. */
export function seoText(text: string | null | undefined): string | null | undefined {
  if (text === undefined || text === null) return text;
  const trimmed = text.trim();
  return trimmed === '' ? null : trimmed;
}

type VariantFields = Static<typeof VariantPatch>;

const WEIGHT = /^\d{1,9}(\.\d{1,3})?$/;

/** Wire variant fields → column values, checking money against the store currency's precision. */
export function variantValues(input: VariantFields, money: CurrencyFormat, path = ''): Partial<VariantValues> {
  const errors: { field: string; message: string }[] = [];
  const amount = (field: string, text: string | null | undefined): number | null | undefined => {
    if (text === undefined || text === null) return text;
    try {
      return money.parse(text);
    } catch (err) {
      if (!(err instanceof MoneyFormatError)) throw err;
      errors.push({ field: `${path}${field}`, message: `${err.message} (${money.currency})` });
      return undefined;
    }
  };
  const values: Partial<VariantValues> = {
    alias: input.alias,
    name: input.name?.trim(),
    sku: input.sku === null ? null : input.sku?.trim(),
    price: amount('price', input.price) ?? undefined,
    compareAtPrice: amount('compare_at_price', input.compare_at_price),
    costPrice: amount('cost_price', input.cost_price),
    weightGrams: input.weight_grams,
    trackInventory: input.track_inventory,
    stock: input.stock,
    allowBackorder: input.allow_backorder,
    purchaseLimitPerOrder: input.purchase_limit_per_order,
  };
  if (input.weight_grams !== undefined && input.weight_grams !== null && !WEIGHT.test(input.weight_grams)) {
    errors.push({ field: `${path}weight_grams`, message: 'must have at most 9 digits and 3 decimals' });
  }
  if (values.name === '') errors.push({ field: `${path}name`, message: 'must not be blank' });
  if (errors.length > 0) {
    throw new DomainError('validation_error', {
      detail: errors.map((e) => `${e.field} ${e.message}`).join('; '),
      errors,
    });
  }
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}

/** Values of a new variant: a generated alias when none was given. */
export function newVariantValues(
  input: VariantFields & { name: string; price: string },
  money: CurrencyFormat,
  path = '',
): VariantValues {
  const values = variantValues(input, money, path);
  return { ...values, alias: values.alias ?? randomUUID(), name: values.name ?? input.name, price: values.price ?? 0 };
}
