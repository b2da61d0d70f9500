import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { TokenService } from '../auth/tokens.js';
import { Type } from 'typebox';
import { requireAdmin } from '../http/auth.js';
import { refuseBody } from '../http/no-body.js';
import { nextCursor, Page, PageQuery } from '../http/paging.js';
import { bearerAuth, optionalBearerAuth, problems } from '../http/schemas.js';
import { fulfillmentsOf } from '../orders/fulfillments.repository.js';
import { unitsOfFulfillments } from '../orders/fulfillments.service.js';
import { IdempotencyHeader, idempotencyKeyFrom } from '../orders/idempotency.js';
import { AliasParams, OrderTokenHeader } from '../orders/order.schema.js';
import { linesOf, type OrderRow } from '../orders/orders.repository.js';
import { findVisibleOrder } from '../orders/orders.service.js';
import { orderCallerOf } from '../orders/order-caller.js';
import { DomainError, invalidField } from '../shared/errors.js';
import { currencyFormat } from '../shared/money.js';
import { presentOrderReturns, presentReason, presentReturn } from './return.presenter.js';
import {
  CreateReturnReasonBody,
  OrderReturns,
  ReceiveReturnBody,
  RefundReturnBody,
  RejectReturnBody,
  RequestReturnBody,
  Return,
  ReturnParams,
  ReturnReason,
  ReturnReasonParams,
  ReturnStateField,
  ReturnSummary,
  UpdateReturnReasonBody,
} from './return.schema.js';
import {
  insertReturnReason,
  listReturns,
  type ReturnListRow,
  returnReasonsList,
  returnsOf,
  updateReturnReason,
} from './returns.repository.js';
import { type ReturnChange, type ReturnDeps, moveReturn, requestReturn } from './returns.service.js';

/** Refunds a received return through the payment plugins (payments/ does it; app.ts hands it in). */
export type RefundReturn = (input: {
  alias: string;
  returnId: number;
  shipping: boolean;
  requestKey?: string;
  adminId: number | null;
}) => Promise<{
  change: ReturnChange;
  refunds: { payment_id: number; amount: string; status: 'succeeded' | 'failed' | 'pending'; detail: string | null }[];
}>;

const IdempotencyKey = IdempotencyHeader('what the first made instead of doing it again');

const present = (change: ReturnChange) => presentReturn(change.ret, change);

/** A move a request asks of the return its path names (its Idempotency-Key with it), answered as the return is then. */
async function moveAsked(
  deps: ReturnDeps,
  input: Pick<Parameters<typeof moveReturn>[1], 'to' | 'restock' | 'rejectReason'> & {
    request: { params: { order_alias: string; return_id: number }; headers: { 'idempotency-key'?: string } };
  },
) {
  const { request, ...move } = input;
  return present(
    await moveReturn(deps, {
      ...move,
      alias: request.params.order_alias,
      returnId: request.params.return_id,
      requestKey: idempotencyKeyFrom(request.headers['idempotency-key']),
    }),
  );
}

/** What the routes of returns need: the service's, and how the store has returns sent back (RETURN_INSTRUCTIONS). */
type ReturnRouteDeps = ReturnDeps & { returnInstructions: string | null };

/** An order's returns, what it may still return, and the reasons offered (an order the caller may see). */
async function orderReturns(deps: ReturnRouteDeps, order: OrderRow) {
  const [lines, fulfillments, returns, reasons] = await Promise.all([
    linesOf(deps.database.db, order.id),
    fulfillmentsOf(deps.database.db, order.id),
    returnsOf(deps.database.db, order.id),
    returnReasonsList(deps.database.db, { activeOnly: true }),
  ]);
  return presentOrderReturns({
    order,
    lines,
    fulfillments: unitsOfFulfillments(fulfillments),
    returns,
    reasons,
    instructions: deps.returnInstructions,
  });
}

/** The customers' routes also check the order links guests send (decision 0030). */
type StorefrontReturnDeps = ReturnRouteDeps & { tokens: TokenService };

/**
 * The order the request may see: its owner's, an admin's, or that of the holder of its X-Order-Token (an order token
 * or an order link's token); 404 otherwise, 410 for an expired link.
 */
async function visibleOrder(deps: StorefrontReturnDeps, request: FastifyRequest, alias: string): Promise<OrderRow> {
  return findVisibleOrder(deps.database.db, alias, await orderCallerOf(deps.tokens, request));
}

/**
 * Returns for customers (decision 0029): the order's owner, or whoever holds its order token (a guest, from the
 * email's link), lists the order's returns, asks for one of shipped units, and cancels one not yet received.
 */
export function returnStorefrontRoutes(deps: StorefrontReturnDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const common = { tags: ['returns'], security: optionalBearerAuth };
    const base = '/order/storefront/api/orders/:order_alias/returns/';
    const headers = Type.Object({ 'x-order-token': OrderTokenHeader });

    app.get(
      base,
      {
        schema: {
          ...common,
          summary: "An order's returns, what each line may still return, and the reasons a return may give",
          params: AliasParams,
          headers,
          response: { 200: OrderReturns, ...problems(401, 404, 410, 422) },
        },
      },
      async (request) => orderReturns(deps, await visibleOrder(deps, request, request.params.order_alias)),
    );

    app.post(
      base,
      {
        schema: {
          ...common,
          summary: 'Ask to return shipped units, each line with its reason',
          description:
            'Units per order line (its alias), never more than shipped less those in other returns (409 '
            + 'return_exceeds_returnable naming the figures); nothing shipped yet is 409 nothing_to_return; a reason '
            + 'not offered is 422 unknown_return_reason.',
          params: AliasParams,
          headers: Type.Object({ ...headers.properties, ...IdempotencyKey.properties }),
          body: RequestReturnBody,
          response: { 201: Return, ...problems(401, 404, 409, 410, 422) },
        },
      },
      async (request, reply) => {
        const order = await visibleOrder(deps, request, request.params.order_alias);
        const change = await requestReturn(deps, {
          alias: order.alias,
          lines: request.body.lines,
          note: request.body.note?.trim() ?? '',
          by:
            request.principal?.role === 'admin'
              ? { kind: 'admin', adminId: request.principal.userId }
              : { kind: 'customer' },
          requestKey: idempotencyKeyFrom(request.headers['idempotency-key']),
        });
        return reply.code(201).send(present(change));
      },
    );

    app.post(
      `${base}:return_id/cancel/`,
      {
        preValidation: refuseBody,
        schema: {
          ...common,
          summary: 'Cancel a return not yet received',
          params: ReturnParams,
          headers: Type.Object({ ...headers.properties, ...IdempotencyKey.properties }),
          response: { 200: Return, ...problems(401, 404, 409, 410, 422) },
        },
      },
      async (request) => {
        await visibleOrder(deps, request, request.params.order_alias);
        return moveAsked(deps, { request, to: 'cancelled' });
      },
    );
  };
}

function presentSummary(r: ReturnListRow) {
  return {
    id: r.id,
    order_alias: r.orderAlias,
    email: r.email,
    status: r.status,
    currency: r.currency,
    units: r.units,
    refunded: r.refund === null ? null : currencyFormat(r.currency).format(r.refund.amount),
    created_at: r.createdAt.toISOString(),
  };
}

/**
 * Returns for admins (decision 0029): the store's list of returns, an order's returns, opening one for a customer, and
 * the moves: receive (with restock per line), refund (through the payment plugins), reject, cancel. And the list of
 * reasons the store offers.
 */
export function returnAdminRoutes(deps: ReturnRouteDeps & { refundReturn: RefundReturn }): FastifyPluginAsyncTypebox {
  return async (app) => {
    const common = { tags: ['returns (admin)'], security: bearerAuth };
    const base = '/order/dashboard/api/orders/:order_alias/returns/';
    const one = `${base}:return_id/`;
    const headers = IdempotencyKey;
    const Answer = { 200: Return, ...problems(401, 403, 404, 409, 422) };
    app.addHook('onRequest', requireAdmin);

    app.get(
      '/order/dashboard/api/returns/',
      {
        schema: {
          ...common,
          summary: "The store's returns, newest first; `status` to see those waiting (requested, received)",
          querystring: Type.Object({ ...PageQuery.properties, status: Type.Optional(ReturnStateField) }),
          response: { 200: Page(ReturnSummary), ...problems(401, 403, 422) },
        },
      },
      async (request) => {
        const { limit, cursor, status } = request.query;
        const page = await listReturns(deps.database.db, { limit, before: cursor, status });
        return { items: page.items.map(presentSummary), next_cursor: nextCursor(page.next) };
      },
    );

    app.get(
      base,
      {
        schema: {
          ...common,
          summary: "An order's returns, what each line may still return, and the reasons offered",
          params: AliasParams,
          response: { 200: OrderReturns, ...problems(401, 403, 404, 422) },
        },
      },
      async (request) =>
        orderReturns(
          deps,
          await findVisibleOrder(deps.database.db, request.params.order_alias, { principal: request.principal }),
        ),
    );

    app.post(
      base,
      {
        schema: {
          ...common,
          summary: 'Open a return of shipped units for the customer (a phone call, a parcel that came back)',
          params: AliasParams,
          headers,
          body: RequestReturnBody,
          response: { ...Answer, 201: Return },
        },
      },
      async (request, reply) => {
        const change = await requestReturn(deps, {
          alias: request.params.order_alias,
          lines: request.body.lines,
          note: request.body.note?.trim() ?? '',
          by: { kind: 'admin', adminId: request.principal?.userId ?? null },
          requestKey: idempotencyKeyFrom(request.headers['idempotency-key']),
        });
        return reply.code(201).send(present(change));
      },
    );

    app.post(
      `${one}receive/`,
      {
        schema: {
          ...common,
          summary: 'Mark a requested return received: its units go back into stock, per line unless told not to',
          params: ReturnParams,
          headers,
          body: ReceiveReturnBody,
          response: Answer,
        },
      },
      async (request) => moveAsked(deps, { request, to: 'received', restock: request.body?.lines }),
    );

    app.post(
      `${one}refund/`,
      {
        schema: {
          ...common,
          summary:
            'Refund a received return: what its units were paid (and the shipping, if asked), through the plugins',
          description:
            'The amount is computed from the stored line figures (docs/pricing.md, "What a returned unit refunds"): '
            + 'the same as `estimated_refund`. The order charges that much less; refunds are made on the payments that '
            + 'kept money, newest first. A gateway that refuses leaves it owed back (ledger refund_due).',
          params: ReturnParams,
          headers,
          body: RefundReturnBody,
          response: {
            ...Answer,
            200: Type.Object({
              ...Return.properties,
              refunds: Type.Array(
                Type.Object({
                  payment_id: Type.Integer(),
                  amount: Type.String(),
                  status: Type.Union([Type.Literal('succeeded'), Type.Literal('failed'), Type.Literal('pending')]),
                  detail: Type.Union([Type.String(), Type.Null()]),
                }),
                { description: 'The refunds made, one per payment, and how the gateway answered' },
              ),
            }),
          },
        },
      },
      async (request) => {
        const { change, refunds } = await deps.refundReturn({
          alias: request.params.order_alias,
          returnId: request.params.return_id,
          shipping: request.body?.refund_shipping ?? false,
          requestKey: idempotencyKeyFrom(request.headers['idempotency-key']),
          adminId: request.principal?.userId ?? null,
        });
        return { ...present(change), refunds };
      },
    );

    app.post(
      `${one}reject/`,
      {
        schema: {
          ...common,
          summary: 'Reject a requested or received return (nothing refunded; stock already received stays)',
          params: ReturnParams,
          headers,
          body: RejectReturnBody,
          response: Answer,
        },
      },
      async (request) => moveAsked(deps, { request, to: 'rejected', rejectReason: request.body?.reason }),
    );

    app.post(
      `${one}cancel/`,
      {
        preValidation: refuseBody,
        schema: { ...common, summary: 'Cancel a requested return', params: ReturnParams, headers, response: Answer },
      },
      async (request) => moveAsked(deps, { request, to: 'cancelled' }),
    );

    const reasons = '/order/dashboard/api/return-reasons/';
    app.get(
      reasons,
      {
        schema: {
          ...common,
          summary: 'Every return reason, active or not, in order',
          response: { 200: Type.Object({ items: Type.Array(ReturnReason) }), ...problems(401, 403) },
        },
      },
      async () => ({ items: (await returnReasonsList(deps.database.db, { activeOnly: false })).map(presentReason) }),
    );

    app.post(
      reasons,
      {
        schema: {
          ...common,
          summary: 'Offer a new return reason',
          body: CreateReturnReasonBody,
          response: { 201: ReturnReason, ...problems(401, 403, 409, 422) },
        },
      },
      async (request, reply) => {
        const { code, label, position } = request.body;
        if (label.trim() === '') throw invalidField('label', 'must not be blank');
        const row = await insertReturnReason(deps.database.db, { code, label: label.trim(), position: position ?? 0 });
        if (!row) throw new DomainError('return_reason_taken', { detail: `a return reason "${code}" exists` });
        return reply.code(201).send(presentReason(row));
      },
    );

    app.patch(
      `${reasons}:code/`,
      {
        schema: {
          ...common,
          summary: 'Change a return reason: its label, its place, or whether it is offered (reasons are never deleted)',
          params: ReturnReasonParams,
          body: UpdateReturnReasonBody,
          response: { 200: ReturnReason, ...problems(401, 403, 404, 422) },
        },
      },
      async (request) => {
        const { label, active, position } = request.body;
        if (label !== undefined && label.trim() === '') throw invalidField('label', 'must not be blank');
        const row = await updateReturnReason(deps.database.db, request.params.code, {
          ...(label !== undefined ? { label: label.trim() } : {}),
          ...(active !== undefined ? { active } : {}),
          ...(position !== undefined ? { position } : {}),
        });
        if (!row)
          throw new DomainError('return_reason_not_found', { detail: `no return reason "${request.params.code}"` });
        return presentReason(row);
      },
    );
  };
}
