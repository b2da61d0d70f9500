import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { checkoutCartToken } from '../cart/cart-token.js';
import type { Outbox } from '../events/outbox.js';
import { optionalBearerAuth, problems } from '../http/schemas.js';
import { IDEMPOTENCY_TTL_HOURS, idempotencyKeyFrom } from '../orders/idempotency.js';
import { marketHeader } from '../markets/market-directory.js';
import { MarketHeaderSchema } from '../markets/market.schema.js';
import { orderPayloadExamples, orderPayloadSchema } from './order-payload.schema.js';
import { preparedQuoteReads } from './order-quote.repository.js';
import { PlacedOrderSchema } from './order-result.schema.js';
import { type PlacementMetrics, placementWriter } from './placement.write.js';
import { type PlacementDeps, type PlacementKind, placeOrder } from './placement.service.js';
import { type Limiter, promoCodeGuard } from './promo-rate-limit.js';

const operations: { path: string; kind: PlacementKind; summary: string }[] = [
  {
    path: '/order/storefront/api/create/',
    kind: 'any',
    summary: 'Place an order (guest or signed in; an admin may place it for customer_id)',
  },
  {
    path: '/order/storefront/api/guest-user-order-create/',
    kind: 'guest',
    summary: 'Place a guest order (needs an email in the shipping or billing address)',
  },
  {
    path: '/order/storefront/api/user-order-create/',
    kind: 'user',
    summary: 'Place an order as a signed-in customer (401 without a valid token)',
  },
];

export function placementRoutes(
  deps: Omit<PlacementDeps, 'source' | 'writer'> & {
    promoLimiter: Limiter;
    metrics?: PlacementMetrics;
    outbox: Outbox;
  },
): FastifyPluginAsyncTypebox {
  return async (app) => {
    const body = orderPayloadSchema(deps.config, orderPayloadExamples.placement);
    const writer = placementWriter(deps.database, {
      now: deps.now,
      maxQueued: deps.config.placementQueueLimit,
      metrics: deps.metrics,
      outbox: deps.outbox,
    });
    const placement = { ...deps, source: preparedQuoteReads(deps.database.db), writer };
    for (const op of operations) {
      app.post(
        op.path,
        {
          preHandler: promoCodeGuard(deps.promoLimiter),
          schema: {
            tags: ['orders'],
            summary: op.summary,
            description:
              'Same payload and figures as the estimate. '
              + 'One transaction: stock, promo-code usage, the order and the cart update. '
              + 'Send Idempotency-Key to make retries safe: the same key and payload answer with the first order.',
            security: op.kind === 'user' ? [{ bearerAuth: [] }] : optionalBearerAuth,
            headers: Type.Object({
              'idempotency-key': Type.Optional(
                Type.String({ description: `Makes the request safe to retry (kept ${IDEMPOTENCY_TTL_HOURS} h)` }),
              ),
              'x-cart-token': Type.Optional(
                Type.String({
                  description:
                    'Guest cart to take the ordered items out of; without a market named, the order is priced in the '
                    + 'market it keeps',
                }),
              ),
              'x-market': Type.Optional(MarketHeaderSchema),
            }),
            body,
            response: { 201: PlacedOrderSchema, ...problems(400, 401, 403, 404, 409, 422, 503) },
          },
        },
        async (request, reply) => {
          const result = await placeOrder(placement, {
            kind: op.kind,
            principal: request.principal,
            payload: request.body,
            cartToken: checkoutCartToken(request.headers['x-cart-token']),
            idempotencyKey: idempotencyKeyFrom(request.headers['idempotency-key']),
            marketHeader: marketHeader(request.headers),
          });
          // Only successful placements (201) are ever stored for replay.
          return reply.code(result.status as 201).send(result.body as never);
        },
      );
    }
  };
}
