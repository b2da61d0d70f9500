import type { Answer, RequestBody } from '../../../api/client';
import { formReader, textOrNull } from '../common/form-values';

export type Product = Answer<'/product/dashboard/api/products/{id}/', 'get'>;
export type Variant = Product['variants'][number];
type NewVariant = RequestBody<'/product/dashboard/api/products/{id}/variants/', 'post'>;
type VariantChange = RequestBody<'/product/dashboard/api/variants/{id}/', 'patch'>;

/** A variant's form as typed: text for every value the API takes as text or number, so nothing is lost on the way. */
export interface VariantDraft {
  name: string;
  alias: string;
  sku: string;
  price: string;
  compare_at_price: string;
  cost_price: string;
  weight_grams: string;
  stock: string;
  track_inventory: boolean;
  allow_backorder: boolean;
  purchase_limit_per_order: string;
}

export const emptyVariantDraft: VariantDraft = {
  name: '',
  alias: '',
  sku: '',
  price: '',
  compare_at_price: '',
  cost_price: '',
  weight_grams: '',
  stock: '0',
  track_inventory: true,
  allow_backorder: false,
  purchase_limit_per_order: '',
};

export function variantDraft(variant: Variant): VariantDraft {
  return {
    name: variant.name,
    alias: variant.alias,
    sku: variant.sku ?? '',
    price: variant.price,
    compare_at_price: variant.compare_at_price ?? '',
    cost_price: variant.cost_price ?? '',
    weight_grams: variant.weight_grams ?? '',
    stock: String(variant.stock),
    track_inventory: variant.track_inventory,
    allow_backorder: variant.allow_backorder,
    purchase_limit_per_order: variant.purchase_limit_per_order === null ? '' : String(variant.purchase_limit_per_order),
  };
}

/**
 * The body of a new variant, or of a change to one (the same fields). `prefix` names the fields as the API would
 * (`variants[0].` inside a new product). Throws FormErrors for what can't be sent as typed.
 */
export function variantBody(draft: VariantDraft, prefix = ''): NewVariant & VariantChange {
  const read = formReader();
  const body: NewVariant = {
    name: draft.name,
    sku: textOrNull(draft.sku),
    price: draft.price.trim(),
    compare_at_price: textOrNull(draft.compare_at_price),
    cost_price: textOrNull(draft.cost_price),
    weight_grams: textOrNull(draft.weight_grams),
    stock: read.integer(`${prefix}stock`, draft.stock),
    track_inventory: draft.track_inventory,
    allow_backorder: draft.allow_backorder,
    purchase_limit_per_order: read.integerOrNull(`${prefix}purchase_limit_per_order`, draft.purchase_limit_per_order),
  };
  read.done();
  const alias = draft.alias.trim();
  return alias === '' ? body : { ...body, alias };
}
