import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Db } from '../db/client.js';
import { adminReferenceScope, type ReferenceWriter } from '../http/auth.js';
import { nextCursor, Page, PageQuery } from '../http/paging.js';
import { bearerAuth, IdParams, problems } from '../http/schemas.js';
import { DomainError } from '../shared/errors.js';
import type { CurrencyFormat } from '../shared/money.js';
import { presentAdminProduct, presentAdminVariant, presentStorefrontProduct } from './catalog.presenter.js';
import {
  addVariant,
  archiveProduct,
  createProduct,
  findProduct,
  findVariant,
  listProducts,
  updateProduct,
  updateVariant,
} from './catalog.repository.js';
import {
  AdminProduct,
  HandleParams,
  AdminVariant,
  NewVariantInput,
  ProductInput,
  ProductPatch,
  StorefrontProduct,
  VariantChange,
} from './catalog.schema.js';
import { newVariantValues, productName, seoText, variantValues } from './catalog.values.js';
import { type MarketDirectory, marketHeader } from '../markets/market-directory.js';
import { MarketHeaderSchema } from '../markets/market.schema.js';
import { combinationOfVariant } from './options.repository.js';
import type { StorefrontCatalog } from './storefront-catalog.js';

export interface CatalogDeps {
  db: Db;
  money: CurrencyFormat;
}

const productNotFound = (id: number) => new DomainError('product_not_found', { detail: `product ${id} not found` });

/** Admin catalog: /product/dashboard/api/ (admins only). */
export function catalogAdminRoutes(deps: CatalogDeps & ReferenceWriter): FastifyPluginAsyncTypebox {
  return async (app) => {
    const common = { tags: ['catalog (admin)'], security: bearerAuth };
    const base = '/product/dashboard/api';
    adminReferenceScope(app, deps.referenceChanged);

    app.get(
      `${base}/products/`,
      {
        schema: {
          ...common,
          summary: 'Products with all their variants, archived ones included',
          querystring: Type.Object({
            ...PageQuery.properties,
            status: Type.Union([Type.Literal('active'), Type.Literal('archived'), Type.Literal('all')], {
              default: 'all',
            }),
            q: Type.Optional(Type.String({ maxLength: 200, description: 'name contains (case-insensitive)' })),
          }),
          response: { 200: Page(AdminProduct), ...problems(401, 403, 422) },
        },
      },
      async (request) => {
        const { limit, cursor, status, q } = request.query;
        const page = await listProducts(deps.db, { limit, after: cursor, status, search: q });
        return {
          items: page.items.map((p) => presentAdminProduct(p, deps.money)),
          next_cursor: nextCursor(page.next),
        };
      },
    );

    app.post(
      `${base}/products/`,
      {
        schema: {
          ...common,
          summary: 'Create a product with its variants',
          description:
            'Without a handle, one is made from the name (`-2`, `-3`, … when taken); a handle given that another '
            + 'product has is 409 handle_taken. An unknown category is 422.',
          body: ProductInput,
          response: { 201: AdminProduct, ...problems(401, 403, 409, 422) },
        },
      },
      async (request, reply) => {
        const body = request.body;
        const variants = body.variants.map((v, i) => newVariantValues(v, deps.money, `variants[${i}].`));
        const aliases = variants.map((v) => v.alias);
        const duplicate = aliases.find((a, i) => aliases.indexOf(a) !== i);
        if (duplicate) throw new DomainError('alias_taken', { detail: `alias "${duplicate}" is given twice` });
        const product = await createProduct(deps.db, {
          name: productName(body.name),
          description: body.description ?? '',
          taxClassId: body.tax_class_id ?? null,
          handle: body.handle,
          seoTitle: seoText(body.seo_title),
          seoDescription: seoText(body.seo_description),
          categoryIds: body.category_ids,
          variants,
        });
        return reply.code(201).send(presentAdminProduct(product, deps.money));
      },
    );

    app.get(
      `${base}/products/:id/`,
      {
        schema: {
          ...common,
          summary: 'One product',
          params: IdParams,
          response: { 200: AdminProduct, ...problems(401, 403, 404) },
        },
      },
      async (request) => {
        const product = await findProduct(deps.db, request.params.id);
        if (!product) throw productNotFound(request.params.id);
        return presentAdminProduct(product, deps.money);
      },
    );

    app.patch(
      `${base}/products/:id/`,
      {
        schema: {
          ...common,
          summary: 'Change a product; category_ids replaces its categories',
          description: 'Its handle stays when its name changes. A handle another product has is 409 handle_taken.',
          params: IdParams,
          body: ProductPatch,
          response: { 200: AdminProduct, ...problems(401, 403, 404, 409, 422) },
        },
      },
      async (request) => {
        const { name, description, tax_class_id, archived, handle, seo_title, seo_description } = request.body;
        const product = await updateProduct(deps.db, request.params.id, {
          name: name === undefined ? undefined : productName(name),
          description,
          taxClassId: tax_class_id,
          handle,
          seoTitle: seoText(seo_title),
          seoDescription: seoText(seo_description),
          categoryIds: request.body.category_ids,
          archived,
        });
        return presentAdminProduct(product, deps.money);
      },
    );

    app.delete(
      `${base}/products/:id/`,
      {
        schema: {
          ...common,
          summary: 'Archive a product (it can no longer be bought)',
          params: IdParams,
          response: { 204: Type.Null(), ...problems(401, 403, 404) },
        },
      },
      async (request, reply) => {
        await archiveProduct(deps.db, request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.post(
      `${base}/products/:id/variants/`,
      {
        schema: {
          ...common,
          summary: 'Add a variant to a product, with its value of each option',
          description:
            'A combination an active variant has is 409 variant_combination_taken; a missing or unknown option or '
            + 'value is 422.',
          params: IdParams,
          body: NewVariantInput,
          response: { 201: AdminVariant, ...problems(401, 403, 404, 409, 422) },
        },
      },
      async (request, reply) => {
        const { options, ...fields } = request.body;
        const variant = await addVariant(deps.db, request.params.id, {
          values: newVariantValues(fields, deps.money),
          combination: options,
        });
        return reply
          .code(201)
          .send(presentAdminVariant(variant, deps.money, await combinationOfVariant(deps.db, variant)));
      },
    );

    app.get(
      `${base}/variants/:id/`,
      {
        schema: {
          ...common,
          summary: 'One variant',
          params: IdParams,
          response: { 200: AdminVariant, ...problems(401, 403, 404) },
        },
      },
      async (request) => {
        const variant = await findVariant(deps.db, request.params.id);
        if (!variant) throw new DomainError('variant_not_found', { detail: `variant ${request.params.id} not found` });
        return presentAdminVariant(variant, deps.money, await combinationOfVariant(deps.db, variant));
      },
    );

    app.patch(
      `${base}/variants/:id/`,
      {
        schema: {
          ...common,
          summary: 'Change a variant (archived: false restores an archived one)',
          params: IdParams,
          body: VariantChange,
          response: { 200: AdminVariant, ...problems(401, 403, 404, 409, 422) },
        },
      },
      async (request) => {
        const { archived, ...fields } = request.body;
        const values = variantValues(fields, deps.money);
        const variant = await updateVariant(deps.db, request.params.id, {
          ...values,
          ...(archived === undefined ? {} : { archivedAt: archived ? new Date() : null }),
        });
        return presentAdminVariant(variant, deps.money, await combinationOfVariant(deps.db, variant));
      },
    );

    app.delete(
      `${base}/variants/:id/`,
      {
        schema: {
          ...common,
          summary: 'Archive a variant (it can no longer be bought)',
          params: IdParams,
          response: { 204: Type.Null(), ...problems(401, 403, 404) },
        },
      },
      async (request, reply) => {
        await updateVariant(deps.db, request.params.id, { archivedAt: new Date() });
        return reply.code(204).send(null);
      },
    );
  };
}

/** Storefront catalog: active products and variants, prices and availability; nothing internal. */
export function catalogStorefrontRoutes(deps: {
  catalog: StorefrontCatalog;
  money: CurrencyFormat;
  markets: MarketDirectory;
}): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['catalog'];
    const headers = Type.Object({ 'x-market': Type.Optional(MarketHeaderSchema) });
    const marketOf = (request: FastifyRequest) => deps.markets.ofRequest(marketHeader(request.headers));
    app.get(
      '/product/storefront/api/products/',
      {
        schema: {
          tags,
          summary: "Active products with their variants, priced in the request's market (X-Market)",
          headers,
          querystring: PageQuery,
          response: { 200: Page(StorefrontProduct), ...problems(422) },
        },
      },
      async (request) => {
        const { limit, cursor } = request.query;
        const market = await marketOf(request);
        const page = await deps.catalog.page({ limit, after: cursor });
        return {
          items: page.items.map((p) => presentStorefrontProduct(p, market)),
          next_cursor: nextCursor(page.next),
        };
      },
    );

    app.get(
      '/product/storefront/api/products/:id/',
      {
        schema: {
          tags,
          summary: "One active product, priced in the request's market (X-Market)",
          headers,
          params: IdParams,
          response: { 200: StorefrontProduct, ...problems(404, 422) },
        },
      },
      async (request) => {
        const market = await marketOf(request);
        const product = await deps.catalog.product(request.params.id);
        if (!product) throw productNotFound(request.params.id);
        return presentStorefrontProduct(product, market);
      },
    );

    app.get(
      '/product/storefront/api/products/by-handle/:handle/',
      {
        schema: {
          tags,
          summary: "One active product, by its handle, priced in the request's market (X-Market)",
          headers,
          params: HandleParams,
          response: { 200: StorefrontProduct, ...problems(404, 422) },
        },
      },
      async (request) => {
        const market = await marketOf(request);
        const product = await deps.catalog.productByHandle(request.params.handle);
        if (!product) {
          throw new DomainError('product_not_found', {
            detail: `no product has the handle "${request.params.handle}"`,
          });
        }
        return presentStorefrontProduct(product, market);
      },
    );
  };
}
