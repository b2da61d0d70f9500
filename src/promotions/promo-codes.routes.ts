import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { nextCursor, Page, PageQuery } from '../http/paging.js';
import type { Db } from '../db/client.js';
import { adminReferenceScope, type ReferenceWriter } from '../http/auth.js';
import { bearerAuth, IdParams, problems } from '../http/schemas.js';
import type { CurrencyFormat } from '../shared/money.js';
import { presentPromoCode } from './promo-codes.presenter.js';
import {
  createPromoCode,
  deletePromoCode,
  findPromoCode,
  listPromoCodes,
  updatePromoCode,
} from './promo-codes.repository.js';
import { PromoCode, PromoCodeInput, PromoCodePatch } from './promo-codes.schema.js';
import { newPromoCodeValues, promoCodeValues } from './promo-codes.values.js';

/** Promo codes: /discount/dashboard/api/promo-codes/ (admins only) */
export function promoCodeAdminRoutes(
  deps: { db: Db; money: CurrencyFormat } & ReferenceWriter,
): FastifyPluginAsyncTypebox {
  return async (app) => {
    const common = { tags: ['promo codes (admin)'], security: bearerAuth };
    const base = '/discount/dashboard/api/promo-codes';
    adminReferenceScope(app, deps.referenceChanged);

    app.get(
      `${base}/`,
      {
        schema: {
          ...common,
          summary: 'Promo codes in creation order',
          querystring: PageQuery,
          response: { 200: Page(PromoCode), ...problems(401, 403, 422) },
        },
      },
      async (request) => {
        const { limit, cursor } = request.query;
        const page = await listPromoCodes(deps.db, { limit, after: cursor });
        return {
          items: page.items.map((row) => presentPromoCode(row, deps.money)),
          next_cursor: nextCursor(page.next),
        };
      },
    );

    app.post(
      `${base}/`,
      {
        schema: {
          ...common,
          summary: 'Create a promo code',
          body: PromoCodeInput,
          response: { 201: PromoCode, ...problems(401, 403, 409, 422) },
        },
      },
      async (request, reply) => {
        const row = await createPromoCode(deps.db, newPromoCodeValues(request.body, deps.money));
        return reply.code(201).send(presentPromoCode(row, deps.money));
      },
    );

    app.get(
      `${base}/:id/`,
      {
        schema: {
          ...common,
          summary: 'One promo code',
          params: IdParams,
          response: { 200: PromoCode, ...problems(401, 403, 404) },
        },
      },
      async (request) => presentPromoCode(await findPromoCode(deps.db, request.params.id), deps.money),
    );

    app.patch(
      `${base}/:id/`,
      {
        schema: {
          ...common,
          summary: 'Change a promo code (null clears a nullable field)',
          params: IdParams,
          body: PromoCodePatch,
          response: { 200: PromoCode, ...problems(401, 403, 404, 409, 422) },
        },
      },
      async (request) => {
        const row = await updatePromoCode(deps.db, request.params.id, (current) =>
          promoCodeValues(request.body, current, deps.money),
        );
        return presentPromoCode(row, deps.money);
      },
    );

    app.delete(
      `${base}/:id/`,
      {
        schema: {
          ...common,
          summary: 'Delete a promo code for good (is_active: false retires it and keeps its history)',
          params: IdParams,
          response: { 204: Type.Null(), ...problems(401, 403, 404) },
        },
      },
      async (request, reply) => {
        await deletePromoCode(deps.db, request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
