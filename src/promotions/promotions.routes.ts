import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Db } from '../db/client.js';
import { adminReferenceScope, type ReferenceWriter } from '../http/auth.js';
import { nextCursor, Page } from '../http/paging.js';
import { bearerAuth, IdParams, problems } from '../http/schemas.js';
import type { CurrencyFormat } from '../shared/money.js';
import { presentPromotion } from './promotions.presenter.js';
import {
  archivePromotion,
  createPromotion,
  findPromotion,
  listPromotions,
  updatePromotion,
} from './promotions.repository.js';
import { Promotion, PromotionInput, PromotionPatch, PromotionQuery } from './promotions.schema.js';
import { newPromotionValues, promotionValues } from './promotions.values.js';

/** Promotions: /discount/dashboard/api/promotions/ (admins only). */
export function promotionAdminRoutes(
  deps: { db: Db; money: CurrencyFormat } & ReferenceWriter,
): FastifyPluginAsyncTypebox {
  return async (app) => {
    const common = { tags: ['promotions (admin)'], security: bearerAuth };
    const base = '/discount/dashboard/api/promotions';
    adminReferenceScope(app, deps.referenceChanged);

    app.get(
      `${base}/`,
      {
        schema: {
          ...common,
          summary: 'Promotions in creation order, filtered; archived ones only with archived=true',
          querystring: PromotionQuery,
          response: { 200: Page(Promotion), ...problems(401, 403, 422) },
        },
      },
      async (request) => {
        const { limit, cursor, is_active, code, automatic, q, archived } = request.query;
        const page = await listPromotions(deps.db, {
          limit,
          after: cursor,
          isActive: is_active,
          code,
          automatic,
          search: q,
          archived,
        });
        return {
          items: page.items.map((row) => presentPromotion(row, deps.money)),
          next_cursor: nextCursor(page.next),
        };
      },
    );

    app.post(
      `${base}/`,
      {
        schema: {
          ...common,
          summary: 'Create a promotion',
          body: PromotionInput,
          response: { 201: Promotion, ...problems(401, 403, 409, 422) },
        },
      },
      async (request, reply) => {
        const row = await createPromotion(deps.db, newPromotionValues(request.body, deps.money));
        return reply.code(201).send(presentPromotion(row, deps.money));
      },
    );

    app.get(
      `${base}/:id/`,
      {
        schema: {
          ...common,
          summary: 'One promotion, archived or not',
          params: IdParams,
          response: { 200: Promotion, ...problems(401, 403, 404, 422) },
        },
      },
      async (request) => presentPromotion(await findPromotion(deps.db, request.params.id), deps.money),
    );

    app.patch(
      `${base}/:id/`,
      {
        schema: {
          ...common,
          summary: 'Change a promotion: any field, the kind of its action too (null clears a nullable field)',
          params: IdParams,
          body: PromotionPatch,
          response: { 200: Promotion, ...problems(401, 403, 404, 409, 422) },
        },
      },
      async (request) => {
        const row = await updatePromotion(deps.db, request.params.id, (current) =>
          promotionValues(request.body, current, deps.money),
        );
        return presentPromotion(row, deps.money);
      },
    );

    app.delete(
      `${base}/:id/`,
      {
        schema: {
          ...common,
          summary: 'Archive a promotion: it stops applying for good and frees its code; its history stays',
          params: IdParams,
          response: { 204: Type.Null(), ...problems(401, 403, 404, 422) },
        },
      },
      async (request, reply) => {
        await archivePromotion(deps.db, request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
