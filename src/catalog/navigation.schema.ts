import { Type } from 'typebox';
import { Page } from '../http/paging.js';
import { Id, StrictObject } from '../http/schemas.js';
import { CategoryRef, Handle, Seo, seoInputFields, StorefrontProduct } from './catalog.schema.js';

// Categories and collections: what an admin sends and reads, what the storefront shows (docs/catalog.md).

const Name = Type.String({ minLength: 1, maxLength: 200 });
const Description = Type.String({ maxLength: 10_000 });
const NullableString = Type.Union([Type.String(), Type.Null()]);
const Position = (description: string) => Type.Integer({ minimum: 0, maximum: 100_000, description });

const categoryFields = {
  handle: Type.Optional(Handle),
  description: Type.Optional(Description),
  ...seoInputFields,
  parent_id: Type.Optional(Type.Union([Id, Type.Null()], { description: 'null: a top-level category' })),
  position: Type.Optional(Position('Place among its siblings, 0 first; past the end: last')),
};

export const CategoryInput = StrictObject(
  { name: Name, ...categoryFields },
  { examples: [{ name: 'Mugs', parent_id: 1, seo_title: 'Stoneware mugs' }] },
);
export const CategoryPatch = StrictObject(
  { name: Type.Optional(Name), ...categoryFields },
  { examples: [{ parent_id: null, position: 0 }] },
);

export const AdminCategory = Type.Object({
  id: Type.Integer(),
  parent_id: Type.Union([Type.Integer(), Type.Null()]),
  position: Type.Integer(),
  name: Type.String(),
  handle: Type.String(),
  description: Type.String(),
  seo_title: NullableString,
  seo_description: NullableString,
  created_at: Type.String(),
  updated_at: Type.String(),
});

const ProductIds = Type.Array(Id, {
  uniqueItems: true,
  maxItems: 1000,
  description: "The collection's products in order, the whole list (replaces the one stored)",
});

const collectionFields = {
  handle: Type.Optional(Handle),
  description: Type.Optional(Description),
  ...seoInputFields,
  product_ids: Type.Optional(ProductIds),
};

export const CollectionInput = StrictObject(
  { name: Name, ...collectionFields },
  { examples: [{ name: 'Staff picks', product_ids: [3, 1] }] },
);
export const CollectionPatch = StrictObject(
  { name: Type.Optional(Name), ...collectionFields },
  { examples: [{ product_ids: [1, 3, 2] }] },
);
export const CollectionProductInput = StrictObject(
  {
    product_id: Id,
    position: Type.Optional(Position('Place in the collection, 0 first; absent or past the end: last')),
  },
  { examples: [{ product_id: 2, position: 0 }] },
);
export const CollectionProductParams = Type.Object({ id: Id, productId: Id });

export const AdminCollection = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  handle: Type.String(),
  description: Type.String(),
  seo_title: NullableString,
  seo_description: NullableString,
  product_ids: Type.Array(Type.Integer(), { description: 'In the collection’s order' }),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const StorefrontCategoryEntry = Type.Object({
  id: Type.Integer(),
  parent_id: Type.Union([Type.Integer(), Type.Null()]),
  depth: Type.Integer({ description: '0 for a top-level category' }),
  name: Type.String(),
  handle: Type.String(),
});

export const StorefrontCategoryPage = Type.Object({
  id: Type.Integer(),
  parent_id: Type.Union([Type.Integer(), Type.Null()]),
  name: Type.String(),
  handle: Type.String(),
  description: Type.String(),
  seo: Seo,
  breadcrumb: Type.Array(CategoryRef, { description: 'Its ancestors, the top-level one first; itself excluded' }),
  children: Type.Array(CategoryRef, { description: 'Its subcategories in order' }),
  products: Page(StorefrontProduct),
});

export const StorefrontCollectionEntry = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  handle: Type.String(),
});

export const StorefrontCollectionPage = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  handle: Type.String(),
  description: Type.String(),
  seo: Seo,
  products: Page(StorefrontProduct),
});
