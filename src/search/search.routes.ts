import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, Type } from 'typebox';
import { presentStorefrontProduct } from '../catalog/catalog.presenter.js';
import { ancestorIds, parentIndex } from '../catalog/category-tree.js';
import type { CatalogCategory } from '../catalog/navigation.repository.js';
import type { StorefrontCatalog } from '../catalog/storefront-catalog.js';
import { problems } from '../http/schemas.js';
import { type MarketDirectory, marketHeader } from '../markets/market-directory.js';
import { MarketHeaderSchema } from '../markets/market.schema.js';
import { invalidField } from '../shared/errors.js';
import { type CurrencyFormat, MoneyFormatError } from '../shared/money.js';
import type { ProductSearch } from './product-search.js';
import { presentFacets } from './search.presenter.js';
import { SearchAnswer, SearchQuerystring } from './search.schema.js';
import { decodeSearchCursor, encodeSearchCursor, optionFiltersOf, priceBucketBounds } from './search.values.js';

/** An amount of the query in the market's currency, or a 422 naming the parameter. */
function amountOf(field: string, text: string | undefined, money: CurrencyFormat): number | undefined {
  if (text === undefined) return undefined;
  try {
    return money.parse(text);
  } catch (err) {
    if (err instanceof MoneyFormatError) throw invalidField(field, err.message);
    throw err;
  }
}

/** The query's filters as ids and amounts; a handle that names nothing, or a bad amount or cursor, is a 422. */
async function filtersOf(
  query: Static<typeof SearchQuerystring>,
  known: { categories: readonly CatalogCategory[]; catalog: StorefrontCatalog; money: CurrencyFormat },
) {
  const category = query.category === undefined ? undefined : known.categories.find((c) => c.handle === query.category);
  if (query.category !== undefined && !category) throw invalidField('category', 'names no category');
  const collection = query.collection === undefined ? null : await known.catalog.collectionByHandle(query.collection);
  if (query.collection !== undefined && !collection) throw invalidField('collection', 'names no collection');
  const min = amountOf('price_min', query.price_min, known.money);
  const max = amountOf('price_max', query.price_max, known.money);
  if (min !== undefined && max !== undefined && max <= min)
    throw invalidField('price_max', 'must be more than price_min');
  const options = optionFiltersOf(
    query.option === undefined ? [] : typeof query.option === 'string' ? [query.option] : query.option,
  );
  if ('error' in options) throw invalidField(`option[${options.index}]`, options.error);
  const after = query.cursor === undefined ? undefined : decodeSearchCursor(query.cursor);
  if (query.cursor !== undefined && !after) throw invalidField('cursor', 'is not a next_cursor of this search');
  return {
    categoryId: category?.id,
    collectionId: collection?.id,
    price: { min, max },
    options: options.filters,
    after,
  };
}

/** Each category with itself and its ancestors: what a product in it counts for in the category facet. */
function ancestryOf(categories: readonly CatalogCategory[]): Map<number, number[]> {
  const parents = parentIndex(categories);
  return new Map(categories.map((c) => [c.id, [c.id, ...ancestorIds(parents, c.id)]]));
}

/** The storefront's search: GET /product/storefront/api/search/ (docs/catalog.md#search). */
export function searchStorefrontRoutes(deps: {
  catalog: StorefrontCatalog;
  markets: MarketDirectory;
  search: ProductSearch;
}): FastifyPluginAsyncTypebox {
  return async (app) => {
    // The category list is kept whole by the catalog until it changes: its ancestry is worked out once per list.
    const ancestries = new WeakMap<readonly CatalogCategory[], Map<number, number[]>>();
    const ancestry = (categories: readonly CatalogCategory[]) => {
      let known = ancestries.get(categories);
      if (!known) {
        known = ancestryOf(categories);
        ancestries.set(categories, known);
      }
      return known;
    };

    app.get(
      '/product/storefront/api/search/',
      {
        schema: {
          tags: ['catalog'],
          summary: "Search products: words with typos forgiven, filters, facet counts, priced in the request's market",
          description:
            'Best match first (ties in id order); a blank q lists by the filters in id order. price_min and '
            + 'price_max are in the market’s currency (X-Market): a product matches when one of its variants is '
            + 'priced at least price_min and below price_max; option=Colour:Red (repeatable) one with an active '
            + 'variant of one of the values asked of each option. Facets count products for each value with every '
            + "filter applied but the facet's own.",
          headers: Type.Object({ 'x-market': Type.Optional(MarketHeaderSchema) }),
          querystring: SearchQuerystring,
          response: { 200: SearchAnswer, ...problems(422) },
        },
      },
      async (request) => {
        const query = request.query;
        const market = await deps.markets.ofRequest(marketHeader(request.headers));
        const categories = await deps.catalog.categories();
        const filters = await filtersOf(query, { categories, catalog: deps.catalog, money: market.money });
        const bounds = priceBucketBounds(market.money.exponent);
        const found = await deps.search.search({
          text: query.q,
          ...filters,
          inStock: query.in_stock,
          market: market.pricing,
          categoryAncestry: ancestry(categories),
          priceBounds: bounds,
          limit: query.limit,
        });
        const items = await deps.catalog.shown(found.productIds);
        return {
          items: items.map((p) => presentStorefrontProduct(p, market)),
          next_cursor: found.next === null ? null : encodeSearchCursor(found.next),
          total: found.total,
          currency: market.currency,
          facets: presentFacets(found.facets, { categories, bounds, money: market.money }),
        };
      },
    );
  };
}
