import { DEFAULT_OPTION } from '../catalog/options.rules.js';
import type { LineImageRow, LineOptionRow } from '../db/schema.js';
import { presentStoredImage } from '../media/media.values.js';
import { lineNaming } from './line-naming.js';

/**
 * What an order line keeps of the item sold, as it was at placement: the catalog may rename or delete the product
 * and its variant afterwards, the order still says what was bought.
 */
export interface SoldItem {
  /** Null only on lines placed before these were kept (migration 0021) whose product was gone by then. */
  productName: string | null;
  variantName: string;
  sku: string | null;
  /** The variant's option values ("Size": "Small"), as `optionsAsSold` keeps them. */
  options: LineOptionRow[];
  /** The image it showed (the variant's first, else its product's); null: none. */
  image: LineImageRow | null;
}

/** The item a variant is, as an order line keeps it (the variant as a quote read it, with its product's name). */
export function soldItem(variant: {
  productName: string;
  name: string;
  sku: string | null;
  options: readonly LineOptionRow[];
  image: LineImageRow | null;
}): SoldItem {
  return {
    productName: variant.productName,
    variantName: variant.name,
    sku: variant.sku,
    options: variant.options.length === 0 ? [] : variant.options.map((o) => ({ name: o.name, value: o.value })),
    image: variant.image,
  };
}

/**
 * The option values an order line keeps of a variant's, read as `[name, value]` pairs in the options' order: all of
 * them, except the stand-in of a product that has no options of its own (a lone "Title", decision 0036), whose value
 * is the variant's name or "Default" and says nothing the line's name does not.
 */
export function optionsAsSold(read: readonly (readonly [string, string])[] | null): LineOptionRow[] {
  if (read === null || read.length === 0) return [];
  if (read.length === 1 && read[0]?.[0] === DEFAULT_OPTION) return [];
  return read.map(([name, value]) => ({ name, value }));
}

/**
 * What a line is called wherever one name is shown (answers' `name`, emails, the order page): "Product - Variant",
 * or the product's name alone when the variant has no name of its own (empty, or the product's name again), or the
 * variant's alone when the product's name is not known.
 */
export function lineDisplayName(item: { productName: string | null; variantName: string }): string {
  return lineNaming({ product: item.productName, variant: item.variantName, options: [] }).name;
}

/**
 * How a line as sold is named where its option values are shown beside it (the emails, the order page), by
 * `lineNaming`: "Pullover Hoodie" with "Size: L · Colour: Black", the variant's own name only where it says more.
 */
export function lineNamingAsSold(item: {
  productName: string | null;
  variantName: string;
  options: readonly LineOptionRow[];
}): ReturnType<typeof lineNaming> {
  return lineNaming({ product: item.productName, variant: item.variantName, options: item.options });
}

/** A line's image as answers show it (`LineImage`): its URLs and size, or null. */
export const presentLineImage = (image: LineImageRow | null) => (image === null ? null : presentStoredImage(image));

/** A line's option values as answers show them (a copy: answers never share the stored or cached list). */
export const presentOptions = (options: readonly LineOptionRow[]) =>
  options.length === 0 ? [] : options.map((o) => ({ name: o.name, value: o.value }));
