import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { normaliseCountry } from '../addresses/address.schema.js';
import type { Db } from '../db/client.js';
import { adminReferenceScope, type ReferenceWriter } from '../http/auth.js';
import { bearerAuth, IdParams, problems } from '../http/schemas.js';
import type { CurrencyFormat } from '../shared/money.js';
import { presentShippingMethod, presentShippingRate } from './shipping.presenter.js';
import {
  createShippingMethod,
  createShippingRate,
  deleteShippingMethod,
  deleteShippingRate,
  findShippingMethod,
  findShippingRate,
  listShippingMethods,
  listShippingRates,
  shippingMethodsFor,
  updateShippingMethod,
  updateShippingRate,
} from './shipping.repository.js';
import type { DestinationDirectory } from './shipping-destinations.js';
import {
  ShippingDestinationsSchema,
  ShippingMethod,
  ShippingMethodInput,
  ShippingMethodPatch,
  ShippingRate,
  ShippingRateInput,
  ShippingRatePatch,
  ShippingRateQuery,
  StorefrontMethodQuery,
  StorefrontShippingMethod,
} from './shipping.schema.js';
import {
  newShippingMethodValues,
  newShippingRate,
  shippingMethodValues,
  shippingRateChange,
} from './shipping.values.js';

export interface ShippingDeps {
  db: Db;
  money: CurrencyFormat;
}

/** Shipping methods and rates: /shipping/dashboard/api/ (admins only) */
export function shippingAdminRoutes(deps: ShippingDeps & ReferenceWriter): FastifyPluginAsyncTypebox {
  return async (app) => {
    const common = { tags: ['shipping (admin)'], security: bearerAuth };
    const base = '/shipping/dashboard/api';
    adminReferenceScope(app, deps.referenceChanged);

    app.get(
      `${base}/shipping-methods/`,
      {
        schema: {
          ...common,
          summary: 'Every shipping method, inactive ones included',
          response: { 200: Type.Array(ShippingMethod), ...problems(401, 403) },
        },
      },
      async () => (await listShippingMethods(deps.db)).map(presentShippingMethod),
    );

    app.post(
      `${base}/shipping-methods/`,
      {
        schema: {
          ...common,
          summary: 'Create a shipping method',
          body: ShippingMethodInput,
          response: { 201: ShippingMethod, ...problems(401, 403, 422) },
        },
      },
      async (request, reply) => {
        const row = await createShippingMethod(deps.db, newShippingMethodValues(request.body));
        return reply.code(201).send(presentShippingMethod(row));
      },
    );

    app.get(
      `${base}/shipping-methods/:id/`,
      {
        schema: {
          ...common,
          summary: 'One shipping method',
          params: IdParams,
          response: { 200: ShippingMethod, ...problems(401, 403, 404) },
        },
      },
      async (request) => presentShippingMethod(await findShippingMethod(deps.db, request.params.id)),
    );

    app.patch(
      `${base}/shipping-methods/:id/`,
      {
        schema: {
          ...common,
          summary: 'Change a shipping method',
          params: IdParams,
          body: ShippingMethodPatch,
          response: { 200: ShippingMethod, ...problems(401, 403, 404, 422) },
        },
      },
      async (request) => {
        const row = await updateShippingMethod(deps.db, request.params.id, shippingMethodValues(request.body));
        return presentShippingMethod(row);
      },
    );

    app.delete(
      `${base}/shipping-methods/:id/`,
      {
        schema: {
          ...common,
          summary: 'Delete a shipping method and its rates (is_active: false retires it instead)',
          params: IdParams,
          response: { 204: Type.Null(), ...problems(401, 403, 404) },
        },
      },
      async (request, reply) => {
        await deleteShippingMethod(deps.db, request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.get(
      `${base}/shipping-rates/`,
      {
        schema: {
          ...common,
          summary: 'Shipping rates, optionally of one method',
          querystring: ShippingRateQuery,
          response: { 200: Type.Array(ShippingRate), ...problems(401, 403, 422) },
        },
      },
      async (request) => {
        const rows = await listShippingRates(deps.db, { shippingMethodId: request.query.shipping_method_id });
        return rows.map((row) => presentShippingRate(row, deps.money));
      },
    );

    app.post(
      `${base}/shipping-rates/`,
      {
        schema: {
          ...common,
          summary: 'Create a rate of a method for a place and weight bracket',
          body: ShippingRateInput,
          response: { 201: ShippingRate, ...problems(401, 403, 422) },
        },
      },
      async (request, reply) => {
        const { values, prices } = newShippingRate(request.body, deps.money);
        const row = await createShippingRate(deps.db, values, prices);
        return reply.code(201).send(presentShippingRate(row, deps.money));
      },
    );

    app.get(
      `${base}/shipping-rates/:id/`,
      {
        schema: {
          ...common,
          summary: 'One shipping rate',
          params: IdParams,
          response: { 200: ShippingRate, ...problems(401, 403, 404) },
        },
      },
      async (request) => presentShippingRate(await findShippingRate(deps.db, request.params.id), deps.money),
    );

    app.patch(
      `${base}/shipping-rates/:id/`,
      {
        schema: {
          ...common,
          summary: 'Change a shipping rate',
          params: IdParams,
          body: ShippingRatePatch,
          response: { 200: ShippingRate, ...problems(401, 403, 404, 422) },
        },
      },
      async (request) => {
        const row = await updateShippingRate(deps.db, request.params.id, shippingRateChange(request.body, deps.money));
        return presentShippingRate(row, deps.money);
      },
    );

    app.delete(
      `${base}/shipping-rates/:id/`,
      {
        schema: {
          ...common,
          summary: 'Delete a shipping rate',
          params: IdParams,
          response: { 204: Type.Null(), ...problems(401, 403, 404) },
        },
      },
      async (request, reply) => {
        await deleteShippingRate(deps.db, request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}

/**
 * Storefront: GET /shipping/storefront/api/shipping-methods/?country=&state=, and GET
 * /shipping/storefront/api/destinations/ (where the store ships, for an address form's country list).
 */
export function shippingStorefrontRoutes(
  deps: ShippingDeps & { destinations: DestinationDirectory },
): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/shipping/storefront/api/destinations/',
      {
        schema: {
          tags: ['shipping'],
          summary: 'The countries the store ships to (the countries of its active shipping methods’ rates)',
          response: { 200: ShippingDestinationsSchema },
        },
      },
      async () => deps.destinations.get(),
    );
    app.get(
      '/shipping/storefront/api/shipping-methods/',
      {
        schema: {
          tags: ['shipping'],
          summary: 'Active shipping methods that can deliver to a country (and state)',
          querystring: StorefrontMethodQuery,
          response: { 200: Type.Array(StorefrontShippingMethod), ...problems(422) },
        },
      },
      async (request) => {
        const country = normaliseCountry(request.query.country, 'querystring.country');
        const state = request.query.state?.trim() || null;
        return shippingMethodsFor(deps.db, { country, state });
      },
    );
  };
}
