import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Db } from '../db/client.js';
import { adminReferenceScope, type ReferenceWriter } from '../http/auth.js';
import { bearerAuth, IdParams, problems } from '../http/schemas.js';
import { presentMarket, presentStorefrontMarket, type StoreMarketSettings } from './market.presenter.js';
import { Market, MarketInput, MarketPatch, StorefrontMarket } from './market.schema.js';
import {
  createMarket,
  deleteMarket,
  findMarket,
  findMarketRow,
  largestStorePrice,
  listMarkets,
  updateMarket,
} from './markets.repository.js';
import {
  checkLargestPriceConverts,
  type MarketColumns,
  type MarketSettings,
  marketChangeValues,
  newMarketValues,
} from './markets.values.js';

export interface MarketDeps extends StoreMarketSettings, MarketSettings, ReferenceWriter {
  db: Db;
}

/** A 422 when a market's new pricing would not convert the store's largest price (`checkLargestPriceConverts`). */
async function checkPricingFits(deps: MarketDeps, columns: Partial<MarketColumns>): Promise<void> {
  const { currency, exchangeRate, roundingStep, priceEnding, roundingDirection } = columns;
  // Only a change of pricing sets these (all together: markets.values.ts pricingColumns).
  if (!currency || !exchangeRate || priceEnding === undefined || !roundingDirection || roundingStep === undefined) {
    return;
  }
  checkLargestPriceConverts(
    { currency, exchangeRate, roundingStep, priceEnding, roundingDirection },
    { largestMinor: await largestStorePrice(deps.db), storeCurrency: deps.storeCurrency },
  );
}

/** Markets: /market/dashboard/api/markets/ (admins only); decision 0031. */
export function marketAdminRoutes(deps: MarketDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const common = { tags: ['markets (admin)'], security: bearerAuth };
    const base = '/market/dashboard/api/markets';
    // Requests read markets from memory (market-directory.ts): a write clears it before it is answered.
    adminReferenceScope(app, deps.referenceChanged);

    app.get(
      `${base}/`,
      {
        schema: {
          ...common,
          summary: 'Every market, the default one first',
          response: { 200: Type.Array(Market), ...problems(401, 403) },
        },
      },
      async () => (await listMarkets(deps.db)).map((record) => presentMarket(record, deps)),
    );

    app.post(
      `${base}/`,
      {
        schema: {
          ...common,
          summary: 'Create a market: countries sold to in one currency',
          description:
            'A country of another market is 409 country_in_another_market naming it; a code in use is 409 '
            + 'market_code_taken; an unknown currency, a rate or rounding rule that does not fit it, a payment plugin '
            + 'not enabled or a shipping method that does not exist is 422 naming the field.',
          body: MarketInput,
          response: { 201: Market, ...problems(401, 403, 409, 422) },
        },
      },
      async (request, reply) => {
        const values = newMarketValues(request.body, deps);
        await checkPricingFits(deps, values.columns);
        const record = await createMarket(deps.db, values);
        return reply.code(201).send(presentMarket(record, deps));
      },
    );

    app.get(
      `${base}/:id/`,
      {
        schema: {
          ...common,
          summary: 'One market',
          params: IdParams,
          response: { 200: Market, ...problems(401, 403, 404) },
        },
      },
      async (request) => presentMarket(await findMarket(deps.db, request.params.id), deps),
    );

    app.patch(
      `${base}/:id/`,
      {
        schema: {
          ...common,
          summary: 'Change a market; a list sent replaces the one stored',
          description:
            "The default market's currency, tax inclusivity, rate and rounding follow STORE_CURRENCY and "
            + 'PRICES_INCLUDE_TAX: setting them is 422. Its name, code and lists may change.',
          params: IdParams,
          body: MarketPatch,
          response: { 200: Market, ...problems(401, 403, 404, 409, 422) },
        },
      },
      async (request) => {
        const stored = await findMarketRow(deps.db, request.params.id);
        const values = marketChangeValues(request.body, stored, deps);
        await checkPricingFits(deps, values.columns);
        const record = await updateMarket(deps.db, stored.id, values);
        return presentMarket(record, deps);
      },
    );

    app.delete(
      `${base}/:id/`,
      {
        schema: {
          ...common,
          summary: 'Delete a market and its lists (the default market: 409 default_market_required)',
          params: IdParams,
          response: { 204: Type.Null(), ...problems(401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        await deleteMarket(deps.db, request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}

/** Storefront: GET /market/storefront/api/markets/ */
export function marketStorefrontRoutes(deps: StoreMarketSettings & { db: Db }): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/market/storefront/api/markets/',
      {
        schema: {
          tags: ['markets'],
          summary: 'The markets a shop can offer: each one’s countries, currency and whether prices include tax',
          response: { 200: Type.Array(StorefrontMarket) },
        },
      },
      async () => (await listMarkets(deps.db)).map((record) => presentStorefrontMarket(record, deps)),
    );
  };
}
