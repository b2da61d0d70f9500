import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../db/client.js';
import type { CurrencyFormat } from '../shared/money.js';

/** Promo codes: /discount/dashboard/api/promo-codes/ (admins only) */
export function promoCodeAdminRoutes(_deps: { db: Db; money: CurrencyFormat }): FastifyPluginAsyncTypebox {
  return async () => {};
}
