import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { nextCursor, PageQuery } from '../http/paging.js';
import { problems } from '../http/schemas.js';
import { DomainError } from '../shared/errors.js';
import { type MarketDirectory, marketHeader } from '../markets/market-directory.js';
import { MarketHeaderSchema } from '../markets/market.schema.js';
import type { StorefrontMarket } from './catalog.presenter.js';
import { presentStorefrontProduct, seoOf } from './catalog.presenter.js';
import { HandleParams } from './catalog.schema.js';
import { ancestorIds, bySiblingOrder, inTreeOrder, parentIndex, subtreeIds } from './category-tree.js';
import { refTo } from './navigation.presenter.js';
import {
  StorefrontCategoryEntry,
  StorefrontCategoryPage,
  StorefrontCollectionEntry,
  StorefrontCollectionPage,
} from './navigation.schema.js';
import type { StockedPage, StorefrontCatalog } from './storefront-catalog.js';

/**
 * The storefront's navigation: the category tree, a category's page (breadcrumb, subcategories, the products of it
 * and of its subcategories) and a collection's page, by handle; read from the catalog kept in memory.
 */
export function navigationStorefrontRoutes(deps: {
  catalog: StorefrontCatalog;
  markets: MarketDirectory;
}): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['catalog'];
    const base = '/product/storefront/api';
    const headers = Type.Object({ 'x-market': Type.Optional(MarketHeaderSchema) });
    const marketOf = (request: FastifyRequest) => deps.markets.ofRequest(marketHeader(request.headers));
    const products = (page: StockedPage, market: StorefrontMarket) => ({
      items: page.items.map((p) => presentStorefrontProduct(p, market)),
      next_cursor: nextCursor(page.next),
    });

    app.get(
      `${base}/categories/`,
      {
        schema: {
          tags,
          summary: 'Every category in tree order (a parent, then its subcategories), for navigation',
          response: { 200: Type.Array(StorefrontCategoryEntry) },
        },
      },
      async () =>
        inTreeOrder(await deps.catalog.categories()).map((c) => ({
          ...refTo(c),
          parent_id: c.parentId,
          depth: c.depth,
        })),
    );

    app.get(
      `${base}/categories/:handle/`,
      {
        schema: {
          tags,
          summary: 'A category by handle: its breadcrumb, subcategories, and products (its own and its subcategories’)',
          description:
            'Products are paged in id order like the product list; a product in several of these categories is '
            + 'listed once. Archived products, and products with nothing to buy, are left out.',
          headers,
          params: HandleParams,
          querystring: PageQuery,
          response: { 200: StorefrontCategoryPage, ...problems(404, 422) },
        },
      },
      async (request) => {
        const market = await marketOf(request);
        const all = await deps.catalog.categories();
        const category = all.find((c) => c.handle === request.params.handle);
        if (!category) {
          throw new DomainError('category_not_found', {
            detail: `no category has the handle "${request.params.handle}"`,
          });
        }
        const byId = new Map(all.map((c) => [c.id, c]));
        const { limit, cursor } = request.query;
        const page = await deps.catalog.categoryPage({
          key: category.id,
          categoryIds: subtreeIds(all, category.id),
          limit,
          after: cursor,
        });
        return {
          id: category.id,
          parent_id: category.parentId,
          name: category.name,
          handle: category.handle,
          description: category.description,
          seo: seoOf(category),
          breadcrumb: ancestorIds(parentIndex(all), category.id).flatMap((id) => {
            const ancestor = byId.get(id);
            return ancestor ? [refTo(ancestor)] : [];
          }),
          children: all
            .filter((c) => c.parentId === category.id)
            .sort(bySiblingOrder)
            .map(refTo),
          products: products(page, market),
        };
      },
    );

    app.get(
      `${base}/collections/`,
      {
        schema: {
          tags,
          summary: 'Every collection',
          response: { 200: Type.Array(StorefrontCollectionEntry) },
        },
      },
      async () => (await deps.catalog.collections()).map(refTo),
    );

    app.get(
      `${base}/collections/:handle/`,
      {
        schema: {
          tags,
          summary: 'A collection by handle, with its products in the collection’s order',
          description: 'Archived products, and products with nothing to buy, are left out.',
          headers,
          params: HandleParams,
          querystring: PageQuery,
          response: { 200: StorefrontCollectionPage, ...problems(404, 422) },
        },
      },
      async (request) => {
        const market = await marketOf(request);
        const collection = await deps.catalog.collectionByHandle(request.params.handle);
        if (!collection) {
          throw new DomainError('collection_not_found', {
            detail: `no collection has the handle "${request.params.handle}"`,
          });
        }
        const { limit, cursor } = request.query;
        const page = await deps.catalog.collectionPage({ collectionId: collection.id, limit, after: cursor });
        return {
          id: collection.id,
          name: collection.name,
          handle: collection.handle,
          description: collection.description,
          seo: seoOf(collection),
          products: products(page, market),
        };
      },
    );
  };
}
