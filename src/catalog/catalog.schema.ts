import { Type } from 'typebox';
import { Count, Id, StrictObject } from '../http/schemas.js';
import { AdminImage, Image } from '../media/media.schema.js';
import { HANDLE_MAX_LENGTH, HANDLE_PATTERN } from './handles.js';

const Decimal = (description: string) => Type.String({ pattern: '^\\d+(\\.\\d+)?$', maxLength: 32, description });
const Money = Decimal('Amount in the store currency, with at most its precision, e.g. "19.99"');

export const variantInputFields = {
  alias: Type.String({
    pattern: '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$',
    description: 'Unique, URL-safe; a UUID is generated when absent',
  }),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  sku: Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()]),
  price: Money,
  compare_at_price: Type.Union([Money, Type.Null()]),
  cost_price: Type.Union([Money, Type.Null()]),
  weight_grams: Type.Union([Decimal('Weight in grams, up to 3 decimals, e.g. "250" or "12.5"'), Type.Null()]),
  track_inventory: Type.Boolean(),
  stock: Count({ maximum: 1_000_000_000 }),
  allow_backorder: Type.Boolean(),
  purchase_limit_per_order: Type.Union([Count({ minimum: 1, maximum: 1_000_000 }), Type.Null()]),
};

/** A handle as an admin sends it: lower-case letters and digits in words joined by single hyphens. */
export const Handle = Type.String({
  pattern: HANDLE_PATTERN,
  maxLength: HANDLE_MAX_LENGTH,
  description: 'URL name, unique among its kind: lower-case letters and digits, words joined by single hyphens',
});

/** A path naming something by its handle. */
export const HandleParams = Type.Object({ handle: Handle });

/** SEO fields as an admin sends them: null (or blank) clears one, and the storefront falls back (docs/catalog.md). */
export const seoInputFields = {
  seo_title: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
  seo_description: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
};

/** SEO fields as the storefront shows them, fallbacks applied. */
export const Seo = Type.Object({
  title: Type.String({ description: 'The SEO title, or the name' }),
  description: Type.String({ description: 'The SEO description, or the start of the description (may be empty)' }),
});

/** A category as a product or a breadcrumb names it. */
export const CategoryRef = Type.Object({ id: Type.Integer(), name: Type.String(), handle: Type.String() });

const CategoryIds = Type.Array(Id, {
  uniqueItems: true,
  maxItems: 100,
  description: "The product's categories, the whole list (replaces the one stored)",
});

const optional = <T extends Record<string, Parameters<typeof Type.Optional>[0]>>(fields: T) =>
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, Type.Optional(v)])) as {
    [K in keyof T]: ReturnType<typeof Type.Optional<T[K]>>;
  };

export const VariantInput = StrictObject(
  {
    ...optional(variantInputFields),
    name: variantInputFields.name,
    price: variantInputFields.price,
  },
  { examples: [{ alias: 'espresso-cup-black', name: 'Black', sku: 'CUP-B', price: '12.00', stock: 25 }] },
);
/** A variant added to a product: its fields, and its value of each of the product's options. */
export const NewVariantInput = StrictObject(
  {
    ...VariantInput.properties,
    options: Type.Optional(
      Type.Record(Type.String({ maxLength: 200 }), Type.String({ maxLength: 1000 }), {
        description:
          'Its value of each option of the product, by name; optional when the product has one option (the name '
          + 'is then the value, added to the option when new)',
      }),
    ),
  },
  // A variant of a product with one option (the demo T-shirt's "Title"): its name is the value. With several options,
  // `options` names a value of each: {"Size": "XL", "Colour": "Black"}.
  { examples: [{ name: 'XL', sku: 'TSHIRT-XL', price: '27.00', stock: 5 }] },
);
export const VariantPatch = StrictObject(optional(variantInputFields));
/** A variant's change as the route takes it: its fields, and `archived`. */
export const VariantChange = StrictObject(
  { ...VariantPatch.properties, archived: Type.Optional(Type.Boolean({ description: 'false restores it' })) },
  { examples: [{ price: '26.00', compare_at_price: '30.00', stock: 12 }] },
);

export const ProductInput = StrictObject(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    description: Type.Optional(Type.String({ maxLength: 10_000 })),
    tax_class_id: Type.Optional(Type.Union([Id, Type.Null()])),
    handle: Type.Optional(Handle),
    ...seoInputFields,
    category_ids: Type.Optional(CategoryIds),
    variants: Type.Array(VariantInput, { minItems: 1, maxItems: 100 }),
  },
  {
    examples: [
      {
        name: 'Espresso cup',
        description: 'Porcelain, 90 ml',
        tax_class_id: 1,
        variants: [
          { alias: 'espresso-cup-white', name: 'White', sku: 'CUP-W', price: '12.00', weight_grams: '180', stock: 40 },
        ],
      },
    ],
  },
);
export const ProductPatch = StrictObject(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    description: Type.Optional(Type.String({ maxLength: 10_000 })),
    tax_class_id: Type.Optional(Type.Union([Id, Type.Null()])),
    handle: Type.Optional(Handle),
    ...seoInputFields,
    category_ids: Type.Optional(CategoryIds),
    archived: Type.Optional(Type.Boolean({ description: 'false restores an archived product' })),
  },
  { examples: [{ description: 'Organic cotton, printed in Lisbon', tax_class_id: 1, category_ids: [2] }] },
);

const NullableString = Type.Union([Type.String(), Type.Null()]);

/** An option with its values, in order, as answers show it. */
export const ProductOption = Type.Object({
  name: Type.String(),
  values: Type.Array(Type.String()),
});

/** A variant's value of each option of its product, by option name ({"Size": "M", "Colour": "Black"}). */
export const VariantOptions = Type.Object(
  {},
  {
    additionalProperties: Type.String(),
    description: "The variant's value of each option of the product, by option name; empty for a variant made without",
  },
);

export const AdminVariant = Type.Object({
  id: Type.Integer(),
  product_id: Type.Integer(),
  alias: Type.String(),
  name: Type.String(),
  sku: NullableString,
  price: Type.String(),
  compare_at_price: NullableString,
  cost_price: NullableString,
  weight_grams: NullableString,
  track_inventory: Type.Boolean(),
  stock: Type.Integer(),
  allow_backorder: Type.Boolean(),
  purchase_limit_per_order: Type.Union([Type.Integer(), Type.Null()]),
  archived: Type.Boolean(),
  options: VariantOptions,
});

export const AdminProduct = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  tax_class_id: Type.Union([Type.Integer(), Type.Null()]),
  handle: Type.String(),
  seo_title: NullableString,
  seo_description: NullableString,
  category_ids: Type.Array(Type.Integer()),
  archived: Type.Boolean(),
  created_at: Type.String(),
  updated_at: Type.String(),
  options: Type.Array(ProductOption, { description: 'Its options (Size, Colour) with their values, in order' }),
  variants: Type.Array(AdminVariant),
  images: Type.Array(AdminImage, { description: 'Its images in their order (docs/catalog.md#media)' }),
});

export const StorefrontVariant = Type.Object({
  id: Type.Integer(),
  alias: Type.String(),
  name: Type.String(),
  sku: NullableString,
  price: Type.String(),
  compare_at_price: NullableString,
  weight_grams: NullableString,
  available: Type.Boolean({ description: 'Can be bought now (in stock, untracked, or backorderable)' }),
  quantity_available: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Units that can be bought; null when unlimited',
  }),
  purchase_limit_per_order: Type.Union([Type.Integer(), Type.Null()]),
  image_ids: Type.Array(Type.Integer(), {
    description: "The ids of the product's images that show this variant, in the product's order",
  }),
  options: VariantOptions,
});

export const StorefrontProduct = Type.Object({
  id: Type.Integer(),
  handle: Type.String(),
  name: Type.String(),
  description: Type.String(),
  currency: Type.String({
    description: "ISO 4217: the request's market's currency (X-Market), that of every price and compare-at price",
  }),
  seo: Seo,
  categories: Type.Array(CategoryRef, { description: 'The categories it is in (not their parents), in id order' }),
  images: Type.Array(Image, { description: 'Its images in their order; a variant names its own (image_ids)' }),
  options: Type.Array(ProductOption, {
    description:
      'Its options with all their values, in order. A combination no variant listed has does not exist (or is'
      + ' archived); one whose variant is not `available` is sold out. One option with one value: nothing to choose.',
  }),
  variants: Type.Array(StorefrontVariant),
});
