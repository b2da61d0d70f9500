import { sellableUnits } from './availability.js';
import { type MarketPricing, priceInMarket } from '../markets/market-price.js';
import type { CurrencyFormat } from '../shared/money.js';
import type { CatalogProduct, CatalogVariant, ProductWithVariants, VariantRow } from './catalog.repository.js';
import type { Combination } from './options.rules.js';
import type { StockedProduct } from './storefront-catalog.js';
import { presentAdminImage } from '../media/media.presenter.js';
import { presentImage } from '../media/media.values.js';

const money = (format: CurrencyFormat, minor: number | null) => (minor === null ? null : format.format(minor));
/**
 * numeric(12,3) comes back as "250.000" (or "250" through a JSON aggregate): shown without
 * trailing decimal zeros, and only decimal zeros are ever dropped.
 */
export const weight = (grams: string | null) =>
  grams === null ? null : grams.includes('.') ? grams.replace(/0+$/, '').replace(/\.$/, '') : grams;

export function presentAdminVariant(v: VariantRow, format: CurrencyFormat, options: Combination = {}) {
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
    options,
  };
}

/** Longest SEO description made from a description, in characters (what search engines show, roughly). */
export const SEO_DESCRIPTION_LENGTH = 160;

/**
 * What a storefront page puts in its title and meta description: the SEO fields set, else the name and the start of
 * the description (whitespace folded, cut at a word with an ellipsis when longer than SEO_DESCRIPTION_LENGTH).
 */
export function seoOf(item: {
  name: string;
  description: string;
  seoTitle: string | null;
  seoDescription: string | null;
}) {
  return { title: item.seoTitle ?? item.name, description: item.seoDescription ?? summary(item.description) };
}

function summary(text: string): string {
  const folded = text.replace(/\s+/g, ' ').trim();
  if (folded.length <= SEO_DESCRIPTION_LENGTH) return folded;
  const cut = folded.slice(0, SEO_DESCRIPTION_LENGTH - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > 0 ? cut.slice(0, space) : cut).replace(/[\s,.;:!?-]+$/, '')}…`;
}

export function presentAdminProduct(p: ProductWithVariants, format: CurrencyFormat) {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    tax_class_id: p.taxClassId,
    handle: p.handle,
    seo_title: p.seoTitle,
    seo_description: p.seoDescription,
    category_ids: p.categoryIds,
    archived: p.archivedAt !== null,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
    options: p.options,
    variants: p.variants.map((v) => presentAdminVariant(v, format, p.combinations.get(v.id))),
    images: p.images.map(presentAdminImage),
  };
}

/**
 * A variant on the storefront, with `stock`, its units on hand read for this answer (unused when not counted),
 * `imageIds`, the product's images that show it, and its prices in the request's market (its explicit ones in the
 * market's currency, else converted: decision 0031).
 */
export function presentStorefrontVariant(
  v: CatalogVariant,
  market: StorefrontMarket,
  { stock, imageIds }: { stock: number; imageIds: number[] },
) {
  const available = sellableUnits({ trackInventory: v.trackInventory, allowBackorder: v.allowBackorder, stock });
  const format = market.money;
  const shown =
    market.pricing.conversion === null
      ? { amount: v.price, compareAt: v.compareAtPrice }
      : priceInMarket(
          { amount: v.price, compareAt: v.compareAtPrice },
          v.explicitPrices?.[market.currency],
          market.pricing,
        );
  return {
    id: v.id,
    alias: v.alias,
    name: v.name,
    sku: v.sku,
    price: format.format(shown.amount),
    compare_at_price: money(format, shown.compareAt),
    weight_grams: weight(v.weightGrams),
    available: available === null || available > 0,
    quantity_available: available,
    purchase_limit_per_order: v.purchaseLimitPerOrder,
    image_ids: imageIds,
    options: v.options ?? {},
  };
}

export function presentStorefrontProduct({ product, stock }: StockedProduct, market: StorefrontMarket) {
  return {
    id: product.id,
    handle: product.handle,
    name: product.name,
    description: product.description,
    currency: market.currency,
    seo: seoOf(product),
    categories: product.categories,
    images: product.images.map(presentImage),
    options: product.options,
    // A variant whose stock row is gone (deleted since the product was read) has nothing to sell.
    variants: product.variants.map((v) =>
      presentStorefrontVariant(v, market, { stock: stock.get(v.id) ?? 0, imageIds: imageIdsOf(product.images, v.id) }),
    ),
  };
}

/** The ids of the images that show a variant, in the product's order (a gallery shows them first). */
function imageIdsOf(images: CatalogProduct['images'], variantId: number): number[] {
  const ids: number[] = [];
  for (const image of images) if (image.variantIds.includes(variantId)) ids.push(image.id);
  return ids;
}

/** What the storefront's prices need of the request's market (src/markets/market-directory.ts `Market`). */
export interface StorefrontMarket {
  currency: string;
  money: CurrencyFormat;
  pricing: MarketPricing;
}
