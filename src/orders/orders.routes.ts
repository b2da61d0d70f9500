import { idempotencyKeyFrom } from './idempotency.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { TokenService } from '../auth/tokens.js';
import type { Db } from '../db/client.js';
import type { Outbox } from '../events/outbox.js';
import type { MarketDirectory } from '../markets/market-directory.js';
import { principalOf, requireAdmin, requireUser } from '../http/auth.js';
import { nextCursor, PageQuery } from '../http/paging.js';
import { bearerAuth, Id, optionalBearerAuth, problems } from '../http/schemas.js';
import {
  AdminOrderDetail,
  AliasParams,
  OrderDetail,
  OrderPage,
  OrderStatusSchema,
  OrderTokenHeader,
  PaymentStatusSchema,
} from './order.schema.js';
import { presentOrder, presentOrderMarket, presentOrderSummary } from './order.presenter.js';
import { presentFulfillment } from './fulfillment.presenter.js';
import { fulfillmentsOf } from './fulfillments.repository.js';
import { linesOf, listOrders, type OrderFilter, type OrderRow } from './orders.repository.js';
import { DomainError } from '../shared/errors.js';
import { orderStates } from './order-states.js';
import { statusesByHand } from './fulfillment.decide.js';
import { changeOrderStatus, findVisibleOrder } from './orders.service.js';
import { orderCallerOf } from './order-caller.js';

/** An order with its lines and its shipments (fulfillments), as its answers show it. */
async function detail(db: Db, order: Parameters<typeof presentOrder>[0]) {
  const [lines, shipments] = await Promise.all([linesOf(db, order.id), fulfillmentsOf(db, order.id)]);
  return { ...presentOrder(order, lines), fulfillments: shipments.map(presentFulfillment) };
}

/** What an admin's view of an order reads besides the order: the store's currency and its markets. */
export interface AdminOrderContext {
  storeCurrency: string;
  /** The market an order was placed in, by the id it stores (its currency and locked rate are the order's own). */
  markets: MarketDirectory;
}

/**
 * The order as admins read it: where it may go next is the state machine's answer (less the moves its fulfillments
 * make), so no client keeps a copy.
 */
export async function adminOrderDetail(db: Db, order: Parameters<typeof presentOrder>[0], context: AdminOrderContext) {
  const nextStatuses = statusesByHand(orderStates.transitions[order.status], order.fulfillmentStatus);
  const [shown, market] = await Promise.all([detail(db, order), context.markets.byId(order.marketId)]);
  return { ...shown, next_statuses: nextStatuses, market: presentOrderMarket(order, market, context) };
}

export function orderRoutes(deps: { db: Db; tokens: TokenService }): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['orders'];

    app.get(
      '/order/storefront/api/orders/',
      {
        onRequest: requireUser,
        schema: {
          tags,
          security: bearerAuth,
          summary: "The caller's orders, newest first",
          querystring: PageQuery,
          response: { 200: OrderPage, ...problems(401, 422) },
        },
      },
      async (request) => {
        const { limit, cursor } = request.query;
        const page = await listOrders(deps.db, { userId: principalOf(request).userId, limit, before: cursor });
        return {
          items: page.items.map(presentOrderSummary),
          next_cursor: nextCursor(page.next),
        };
      },
    );

    app.get(
      '/order/storefront/api/orders/:order_alias/',
      {
        schema: {
          tags,
          security: optionalBearerAuth,
          summary: 'One order: for its owner, an admin, or the holder of its X-Order-Token',
          params: AliasParams,
          headers: Type.Object({ 'x-order-token': OrderTokenHeader }),
          response: { 200: OrderDetail, ...problems(401, 404, 410, 422) },
        },
      },
      async (request) => {
        const caller = await orderCallerOf(deps.tokens, request);
        return detail(deps.db, await findVisibleOrder(deps.db, request.params.order_alias, caller));
      },
    );
  };
}

/** Refunds what an order's payments kept, then cancels it (payments/ does it; app.ts hands it in). */
export type CancelWithRefund = (
  alias: string,
  options: { requestKey?: string; adminId?: number | null },
) => Promise<OrderRow>;

export function orderAdminRoutes(deps: {
  db: Db;
  outbox: Outbox;
  /** STORE_CURRENCY: an order of another market shows its total in it too. */
  storeCurrency: string;
  /** The store's markets: an order's is shown by the id it stores. */
  markets: MarketDirectory;
  /** `{"status": "cancelled", "refund": true}`: cancels, then refunds through the plugins (payments.admin.ts). */
  cancelWithRefund: CancelWithRefund;
}): FastifyPluginAsyncTypebox {
  return async (app) => {
    const common = { tags: ['orders (admin)'], security: bearerAuth };
    const base = '/order/dashboard/api/orders/';
    app.addHook('onRequest', requireAdmin);

    app.get(
      base,
      {
        schema: {
          ...common,
          summary: 'All orders, newest first, filtered',
          querystring: Type.Object({
            ...PageQuery.properties,
            status: Type.Optional(OrderStatusSchema),
            payment_status: Type.Optional(PaymentStatusSchema),
            customer_id: Type.Optional(Id),
            email: Type.Optional(Type.String({ maxLength: 254 })),
            created_from: Type.Optional(Type.String({ format: 'date-time' })),
            created_to: Type.Optional(Type.String({ format: 'date-time' })),
          }),
          response: { 200: OrderPage, ...problems(401, 403, 422) },
        },
      },
      async (request) => {
        const q = request.query;
        const filter: OrderFilter = {
          limit: q.limit,
          before: q.cursor,
          status: q.status,
          paymentStatus: q.payment_status,
          userId: q.customer_id,
          email: q.email?.trim().toLowerCase(),
          createdFrom: q.created_from ? new Date(q.created_from) : undefined,
          createdTo: q.created_to ? new Date(q.created_to) : undefined,
        };
        const page = await listOrders(deps.db, filter);
        return {
          items: page.items.map(presentOrderSummary),
          next_cursor: nextCursor(page.next),
        };
      },
    );

    app.get(
      `${base}:order_alias/`,
      {
        schema: {
          ...common,
          summary: 'One order, with the statuses it may move to next',
          params: AliasParams,
          response: { 200: AdminOrderDetail, ...problems(401, 403, 404, 422) },
        },
      },
      async (request) =>
        adminOrderDetail(
          deps.db,
          await findVisibleOrder(deps.db, request.params.order_alias, { principal: request.principal }),
          deps,
        ),
    );

    app.patch(
      `${base}:order_alias/`,
      {
        schema: {
          ...common,
          summary:
            "Change an order's status (pending → approved → processing → shipped → delivered; "
            + 'cancelled from pending or approved)',
          params: AliasParams,
          headers: Type.Object({
            'idempotency-key': Type.Optional(
              Type.String({
                description:
                  'With refund: true, sending the same request again with the same key resumes the same refunds',
              }),
            ),
          }),
          body: Type.Object(
            {
              status: OrderStatusSchema,
              refund: Type.Optional(
                Type.Boolean({
                  description:
                    'with status cancelled: one action that cancels the order, refunds all its payments took and '
                    + 'voids what they hold (an Idempotency-Key makes a retry resume the same refunds)',
                }),
              ),
            },
            { additionalProperties: false, examples: [{ status: 'approved' }, { status: 'cancelled', refund: true }] },
          ),
          response: { 200: AdminOrderDetail, ...problems(401, 403, 404, 409, 422, 502) },
        },
      },
      async (request) => {
        const { status, refund } = request.body;
        const requestKey = idempotencyKeyFrom(request.headers['idempotency-key']);
        const alias = request.params.order_alias;
        if (refund === true && status !== 'cancelled')
          throw new DomainError('validation_error', {
            detail: 'refund applies to cancelling only',
            errors: [{ field: 'refund', message: 'only with status cancelled' }],
          });
        const changed =
          refund === true
            ? await deps.cancelWithRefund(alias, { requestKey, adminId: request.principal?.userId ?? null })
            : await changeOrderStatus(deps, alias, status);
        return adminOrderDetail(deps.db, changed, deps);
      },
    );
  };
}
