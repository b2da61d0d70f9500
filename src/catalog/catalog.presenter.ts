import { sellableUnits } from './availability.js';
import { randomUUID } from 'node:crypto';
import type { Static } from 'typebox';
import { DomainError } from '../shared/errors.js';
import { type CurrencyFormat, MoneyFormatError } from '../shared/money.js';
import type { ProductWithVariants, VariantRow, VariantValues } from './catalog.repository.js';
import type { VariantPatch } from './catalog.schema.js';

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

const money = (format: CurrencyFormat, minor: number | null) => (minor === null ? null : format.format(minor));
/**
 * numeric(12,3) comes back as "250.000" (or "250" through a JSON aggregate): shown without
 * trailing decimal zeros, and only decimal zeros are ever dropped.
 */
export const weight = (grams: string | null) =>
  grams === null ? null : grams.includes('.') ? grams.replace(/0+$/, '').replace(/\.$/, '') : grams;

export function presentAdminVariant(v: VariantRow, format: CurrencyFormat) {
  return {
    id: v.id,
    product_id: v.productId,
    alias: v.alias,
    name: v.name,
    sku: v.sku,
    price: format.format(v.price),
    compare_at_price: money(format, v.compareAtPrice),
    cost_price: money(format, v.costPrice),
    weight_grams: weight(v.weightGrams),
    track_inventory: v.trackInventory,
    stock: v.stock,
    allow_backorder: v.allowBackorder,
    purchase_limit_per_order: v.purchaseLimitPerOrder,
    archived: v.archivedAt !== null,
  };
}

export function presentAdminProduct(p: ProductWithVariants, format: CurrencyFormat) {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    tax_class_id: p.taxClassId,
    archived: p.archivedAt !== null,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
    variants: p.variants.map((v) => presentAdminVariant(v, format)),
  };
}

export function presentStorefrontVariant(v: VariantRow, format: CurrencyFormat) {
  const available = sellableUnits(v);
  return {
    id: v.id,
    alias: v.alias,
    name: v.name,
    sku: v.sku,
    price: format.format(v.price),
    compare_at_price: money(format, v.compareAtPrice),
    weight_grams: weight(v.weightGrams),
    available: available === null || available > 0,
    quantity_available: available,
    purchase_limit_per_order: v.purchaseLimitPerOrder,
  };
}

export function presentStorefrontProduct(p: ProductWithVariants, format: CurrencyFormat) {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    variants: p.variants.map((v) => presentStorefrontVariant(v, format)),
  };
}
