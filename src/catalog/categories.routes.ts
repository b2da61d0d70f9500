import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, Type } from 'typebox';
import type { Db } from '../db/client.js';
import { adminReferenceScope, type ReferenceWriter } from '../http/auth.js';
import { bearerAuth, IdParams, problems } from '../http/schemas.js';
import { productName, seoText } from './catalog.values.js';
import {
  type CategoryFields,
  createCategory,
  deleteCategory,
  findCategory,
  listCategories,
  updateCategory,
} from './categories.repository.js';
import { inTreeOrder } from './category-tree.js';
import { presentAdminCategory } from './navigation.presenter.js';
import { AdminCategory, CategoryInput, CategoryPatch } from './navigation.schema.js';

type CategoryBody = Static<typeof CategoryPatch>;

/** A category as sent → the fields stored (names trimmed, blank SEO fields cleared). */
function categoryFields(body: CategoryBody): CategoryFields {
  return {
    name: body.name === undefined ? undefined : productName(body.name),
    handle: body.handle,
    description: body.description,
    seoTitle: seoText(body.seo_title),
    seoDescription: seoText(body.seo_description),
    parentId: body.parent_id,
    position: body.position,
  };
}

/** Categories: /product/dashboard/api/categories/ (admins only); docs/catalog.md. */
export function categoryAdminRoutes(deps: { db: Db } & ReferenceWriter): FastifyPluginAsyncTypebox {
  return async (app) => {
    const common = { tags: ['catalog (admin)'], security: bearerAuth };
    const base = '/product/dashboard/api/categories';
    adminReferenceScope(app, deps.referenceChanged);

    app.get(
      `${base}/`,
      {
        schema: {
          ...common,
          summary: 'Every category in tree order (a parent, then its subcategories)',
          response: { 200: Type.Array(AdminCategory), ...problems(401, 403) },
        },
      },
      async () => inTreeOrder(await listCategories(deps.db)).map(presentAdminCategory),
    );

    app.post(
      `${base}/`,
      {
        schema: {
          ...common,
          summary: 'Create a category, at the top or under a parent',
          description:
            'Without a handle, one is made from the name (`-2`, `-3`, … when taken); a handle given that another '
            + 'category has is 409 handle_taken. A parent that does not exist is 422. Without a position it comes '
            + 'last among its siblings.',
          body: CategoryInput,
          response: { 201: AdminCategory, ...problems(401, 403, 409, 422) },
        },
      },
      async (request, reply) => {
        const fields = categoryFields(request.body);
        const row = await createCategory(deps.db, { ...fields, name: fields.name ?? request.body.name });
        return reply.code(201).send(presentAdminCategory(row));
      },
    );

    app.get(
      `${base}/:id/`,
      {
        schema: {
          ...common,
          summary: 'One category',
          params: IdParams,
          response: { 200: AdminCategory, ...problems(401, 403, 404) },
        },
      },
      async (request) => presentAdminCategory(await findCategory(deps.db, request.params.id)),
    );

    app.patch(
      `${base}/:id/`,
      {
        schema: {
          ...common,
          summary: 'Change a category; parent_id moves it, position reorders it among its siblings',
          description:
            'A parent that is the category itself or one of its subcategories is 422 category_cycle; its handle '
            + 'stays when its name changes; a handle another category has is 409 handle_taken.',
          params: IdParams,
          body: CategoryPatch,
          response: { 200: AdminCategory, ...problems(401, 403, 404, 409, 422) },
        },
      },
      async (request) =>
        presentAdminCategory(await updateCategory(deps.db, request.params.id, categoryFields(request.body))),
    );

    app.delete(
      `${base}/:id/`,
      {
        schema: {
          ...common,
          summary: 'Delete a category without subcategories (its products stay, out of it)',
          description: 'A category with subcategories is 409 category_has_children: move or delete them first.',
          params: IdParams,
          response: { 204: Type.Null(), ...problems(401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        await deleteCategory(deps.db, request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
