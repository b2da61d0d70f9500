import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Db } from '../db/client.js';
import { adminReferenceScope, type ReferenceWriter } from '../http/auth.js';
import { bearerAuth, IdParams, problems, StrictObject } from '../http/schemas.js';
import { presentVariantPrice } from './market.presenter.js';
import { listVariantPrices, replaceVariantPrices } from './variant-prices.repository.js';
import { variantPriceValues } from './variant-prices.values.js';

const Amount = (what: string) =>
  Type.String({ maxLength: 32, description: `${what} in this currency, at most its precision: "23.00", "3800"` });

const VariantPriceInput = StrictObject({
  currency: Type.String({ maxLength: 8, description: 'ISO 4217, any case; not the store currency' }),
  price: Amount('The price'),
  compare_at_price: Type.Optional(Type.Union([Amount('The compare-at price'), Type.Null()])),
});

export const VariantPricesInput = StrictObject(
  {
    prices: Type.Array(VariantPriceInput, {
      maxItems: 200,
      description: "Every explicit price of the variant; a currency left out is converted from the variant's price",
    }),
  },
  { examples: [{ prices: [{ currency: 'EUR', price: '23.00', compare_at_price: '27.00' }] }] },
);

export const VariantPrice = Type.Object({
  currency: Type.String(),
  price: Type.String(),
  compare_at_price: Type.Union([Type.String(), Type.Null()]),
  updated_at: Type.String(),
});

/** A variant's explicit prices per currency: /product/dashboard/api/variants/:id/prices/ (admins; decision 0031). */
export function variantPriceAdminRoutes(
  deps: { db: Db; storeCurrency: string } & ReferenceWriter,
): FastifyPluginAsyncTypebox {
  return async (app) => {
    const common = { tags: ['markets (admin)'], security: bearerAuth, params: IdParams };
    const url = '/product/dashboard/api/variants/:id/prices/';
    adminReferenceScope(app, deps.referenceChanged);

    app.get(
      url,
      {
        schema: {
          ...common,
          summary: "A variant's explicit prices in other currencies than the store's",
          response: { 200: Type.Array(VariantPrice), ...problems(401, 403, 404) },
        },
      },
      async (request) => (await listVariantPrices(deps.db, request.params.id)).map(presentVariantPrice),
    );

    app.put(
      url,
      {
        schema: {
          ...common,
          summary: "Set a variant's explicit prices in other currencies (the whole list)",
          description:
            "The store currency (the variant's own price), an unknown currency, one listed twice or an amount finer "
            + "than its currency's precision is 422 naming the field. Markets in a currency without a price here "
            + "convert the variant's price at their rate.",
          body: VariantPricesInput,
          response: { 200: Type.Array(VariantPrice), ...problems(401, 403, 404, 422) },
        },
      },
      async (request) => {
        const values = variantPriceValues(request.body.prices, deps.storeCurrency);
        return (await replaceVariantPrices(deps.db, request.params.id, values)).map(presentVariantPrice);
      },
    );
  };
}
