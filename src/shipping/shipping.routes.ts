import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../db/client.js';
import type { CurrencyFormat } from '../shared/money.js';

/** Shipping methods and rates: /shipping/dashboard/api/ (admins only) */
export function shippingAdminRoutes(_deps: { db: Db; money: CurrencyFormat }): FastifyPluginAsyncTypebox {
  return async () => {};
}

/** Storefront: GET /shipping/storefront/api/shipping-methods/?country=&state= */
export function shippingStorefrontRoutes(_deps: { db: Db; money: CurrencyFormat }): FastifyPluginAsyncTypebox {
  return async () => {};
}
