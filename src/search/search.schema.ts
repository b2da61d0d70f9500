import { Type } from 'typebox';
import { Handle, StorefrontProduct } from '../catalog/catalog.schema.js';
import { PageLimit } from '../http/paging.js';
import { MAX_OPTION_FILTERS } from './search.values.js';

const Amount = (description: string) =>
  Type.String({ pattern: '^\\d+(\\.\\d+)?$', maxLength: 32, description: `${description}, in the market's currency` });

const OptionFilter = Type.String({ minLength: 3, maxLength: 256 });

export const SearchQuerystring = Type.Object({
  q: Type.String({ maxLength: 200, default: '', description: 'Words to find; blank lists by the filters alone' }),
  /** A category's handle: its products and its subcategories'. */
  category: Type.Optional(Handle),
  /** A collection's handle. */
  collection: Type.Optional(Handle),
  price_min: Type.Optional(Amount('Products with a variant priced at least this')),
  price_max: Type.Optional(Amount('Products with a variant priced below this')),
  in_stock: Type.Optional(Type.Boolean({ description: 'true: products with a variant that can be bought now' })),
  option: Type.Optional(
    Type.Union([OptionFilter, Type.Array(OptionFilter, { maxItems: MAX_OPTION_FILTERS })], {
      description:
        'Option name, colon, value (Colour:Red), in any case; repeatable: products with a variant of one of the '
        + 'values of each option given',
    }),
  ),
  cursor: Type.Optional(Type.String({ maxLength: 40, description: 'next_cursor of the previous page (opaque)' })),
  limit: PageLimit,
});

const Count = Type.Integer({ minimum: 0 });

export const SearchCategoryFacet = Type.Object({
  id: Type.Integer(),
  parent_id: Type.Union([Type.Integer(), Type.Null()]),
  depth: Type.Integer({ description: '0 for a top-level category' }),
  name: Type.String(),
  handle: Type.String(),
  count: Count,
});

export const SearchPriceFacet = Type.Object({
  min: Type.String({ description: 'Lowest price of the range (included): price_min to ask for it' }),
  max: Type.Union([Type.String(), Type.Null()], {
    description: 'Price the range stops below (price_max to ask for it); null: no upper end',
  }),
  count: Count,
});

export const SearchOptionFacet = Type.Object({
  name: Type.String({ description: 'Option name as the admin wrote it (Colour)' }),
  values: Type.Array(
    Type.Object({
      value: Type.String({ description: 'option=<name>:<value> to ask for it' }),
      count: Count,
    }),
    { description: 'Values with products, most products first' },
  ),
});

export const SearchAnswer = Type.Object({
  items: Type.Array(StorefrontProduct, { description: 'Best match first; as the product list shows products' }),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
  total: Type.Integer({ description: 'Products matching the words and every filter' }),
  currency: Type.String({ description: "ISO 4217: the request's market's currency, that of every price here" }),
  facets: Type.Object(
    {
      categories: Type.Array(SearchCategoryFacet, {
        description: 'Categories in tree order, each with its products and its subcategories’; empty ones left out',
      }),
      price: Type.Array(SearchPriceFacet, { description: 'Price ranges with products, lowest first' }),
      options: Type.Array(SearchOptionFacet, {
        description: "Options by name (A to Z), each value's count with the other options' filters applied",
      }),
      availability: Type.Object({
        in_stock: Type.Integer({ description: 'Products with a variant that can be bought now' }),
        all: Type.Integer({ description: 'Products, in stock or not' }),
      }),
    },
    { description: "Counts of products for each value, every filter applied but the facet's own" },
  ),
});
