import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, Type } from 'typebox';
import type { Db } from '../db/client.js';
import { adminReferenceScope, type ReferenceWriter } from '../http/auth.js';
import { bearerAuth, IdParams, problems } from '../http/schemas.js';
import { productName, seoText } from './catalog.values.js';
import {
  type CollectionFields,
  createCollection,
  deleteCollection,
  findCollection,
  listCollections,
  placeCollectionProduct,
  removeCollectionProduct,
  updateCollection,
} from './collections.repository.js';
import { presentAdminCollection } from './navigation.presenter.js';
import {
  AdminCollection,
  CollectionInput,
  CollectionPatch,
  CollectionProductInput,
  CollectionProductParams,
} from './navigation.schema.js';

/** A collection as sent → the fields stored (names trimmed, blank SEO fields cleared). */
function collectionFields(body: Static<typeof CollectionPatch>): CollectionFields {
  return {
    name: body.name === undefined ? undefined : productName(body.name),
    handle: body.handle,
    description: body.description,
    seoTitle: seoText(body.seo_title),
    seoDescription: seoText(body.seo_description),
    productIds: body.product_ids,
  };
}

/** Manual collections: /product/dashboard/api/collections/ (admins only); docs/catalog.md. */
export function collectionAdminRoutes(deps: { db: Db } & ReferenceWriter): FastifyPluginAsyncTypebox {
  return async (app) => {
    const common = { tags: ['catalog (admin)'], security: bearerAuth };
    const base = '/product/dashboard/api/collections';
    adminReferenceScope(app, deps.referenceChanged);

    app.get(
      `${base}/`,
      {
        schema: {
          ...common,
          summary: 'Every collection, with its products in order',
          response: { 200: Type.Array(AdminCollection), ...problems(401, 403) },
        },
      },
      async () => (await listCollections(deps.db)).map(presentAdminCollection),
    );

    app.post(
      `${base}/`,
      {
        schema: {
          ...common,
          summary: 'Create a collection, with its products in order',
          description:
            'Without a handle, one is made from the name (`-2`, `-3`, … when taken); a handle given that another '
            + 'collection has is 409 handle_taken; an unknown product is 422.',
          body: CollectionInput,
          response: { 201: AdminCollection, ...problems(401, 403, 409, 422) },
        },
      },
      async (request, reply) => {
        const fields = collectionFields(request.body);
        const record = await createCollection(deps.db, { ...fields, name: fields.name ?? request.body.name });
        return reply.code(201).send(presentAdminCollection(record));
      },
    );

    app.get(
      `${base}/:id/`,
      {
        schema: {
          ...common,
          summary: 'One collection',
          params: IdParams,
          response: { 200: AdminCollection, ...problems(401, 403, 404) },
        },
      },
      async (request) => presentAdminCollection(await findCollection(deps.db, request.params.id)),
    );

    app.patch(
      `${base}/:id/`,
      {
        schema: {
          ...common,
          summary: 'Change a collection; product_ids replaces its products and their order',
          params: IdParams,
          body: CollectionPatch,
          response: { 200: AdminCollection, ...problems(401, 403, 404, 409, 422) },
        },
      },
      async (request) =>
        presentAdminCollection(await updateCollection(deps.db, request.params.id, collectionFields(request.body))),
    );

    app.delete(
      `${base}/:id/`,
      {
        schema: {
          ...common,
          summary: 'Delete a collection (its products stay)',
          params: IdParams,
          response: { 204: Type.Null(), ...problems(401, 403, 404) },
        },
      },
      async (request, reply) => {
        await deleteCollection(deps.db, request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.post(
      `${base}/:id/products/`,
      {
        schema: {
          ...common,
          summary: 'Put a product in a collection at a position, or move it there',
          description: 'The other products keep their order. An unknown product is 422.',
          params: IdParams,
          body: CollectionProductInput,
          response: { 200: AdminCollection, ...problems(401, 403, 404, 422) },
        },
      },
      async (request) => {
        const { product_id: productId, position } = request.body;
        const record = await placeCollectionProduct(deps.db, { collectionId: request.params.id, productId, position });
        return presentAdminCollection(record);
      },
    );

    app.delete(
      `${base}/:id/products/:productId/`,
      {
        schema: {
          ...common,
          summary: 'Take a product out of a collection',
          description: 'A product that is not in the collection is 404 product_not_found.',
          params: CollectionProductParams,
          response: { 200: AdminCollection, ...problems(401, 403, 404) },
        },
      },
      async (request) => {
        const { id: collectionId, productId } = request.params;
        return presentAdminCollection(await removeCollectionProduct(deps.db, { collectionId, productId }));
      },
    );
  };
}
