import type { Answer } from '../api/client';

export type Product = Answer<'/product/storefront/api/products/{id}/', 'get'>;
export type Variant = Product['variants'][number];

/** Below this many, the shopper is told how many are left. */
const FEW_LEFT = 5;

/** Whether a variant can be bought, in the shopper's words. */
export function availabilityText(variant: Variant): string {
  if (!variant.available) return 'Out of stock';
  const left = variant.quantity_available;
  if (left === null) return 'Available';
  return left <= FEW_LEFT ? `Only ${left} left` : 'In stock';
}

/** The most of a variant one line may hold: its stock, its purchase limit, and the service's line maximum (999). */
export function maxQuantity(variant: Variant): number {
  return Math.min(variant.quantity_available ?? 999, variant.purchase_limit_per_order ?? 999, 999);
}
