import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../db/client.js';
import type { CurrencyFormat } from '../shared/money.js';

/** Tax classes and tax rates: /tax/dashboard/api/ (admins only) */
export function taxAdminRoutes(_deps: { db: Db; money: CurrencyFormat }): FastifyPluginAsyncTypebox {
  return async () => {};
}
