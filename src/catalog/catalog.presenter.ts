import { sellableUnits } from './availability.js';
import type { CurrencyFormat } from '../shared/money.js';
import type { ProductWithVariants, VariantRow } from './catalog.repository.js';

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
