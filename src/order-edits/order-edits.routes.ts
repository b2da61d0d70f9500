import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireAdmin } from '../http/auth.js';
import { bearerAuth, problems } from '../http/schemas.js';
import { AdminOrderDetail, AliasParams } from '../orders/order.schema.js';
import { findOrderByAlias } from '../orders/orders.repository.js';
import { type AdminOrderContext, adminOrderDetail } from '../orders/orders.routes.js';
import { DomainError } from '../shared/errors.js';
import { currencyFormat } from '../shared/money.js';
import { editsOf } from './order-edits.repository.js';
import { presentEdit } from './order-edit.presenter.js';
import { editOrder, editOrderOnce, type OrderEditDeps } from './order-edits.service.js';
import { IdempotencyHeader, idempotencyKeyFrom } from '../orders/idempotency.js';

const Money = Type.String();

const EditBody = Type.Object(
  {
    lines: Type.Array(
      Type.Object(
        {
          alias: Type.String({ minLength: 1, maxLength: 200, description: "The variant's alias" }),
          quantity: Type.Integer({
            minimum: 0,
            description:
              'The quantity the order should have of it: 0 removes its line; a variant not in the order is added',
          }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 100, description: 'The lines that change; the others stay as they are' },
    ),
    note: Type.Optional(Type.String({ maxLength: 1000, description: 'Why: kept in the order history' })),
    expected_total: Type.Optional(
      Type.String({
        description: 'The edited total the preview showed: if it differs, 409 total_changed, nothing written',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ lines: [{ alias: 'espresso-cup-white', quantity: 3 }], note: 'Phone call: one more cup' }],
  },
);

const EditLine = Type.Object({
  alias: Type.String(),
  name: Type.String(),
  unit_price: Money,
  before: Type.Integer({ description: 'Units before the edit (0: the line is new)' }),
  after: Type.Integer({ description: 'Units after it (0: the line is removed)' }),
});

const EditPreview = Type.Object({
  currency: Type.String({ description: "The order's currency (ISO 4217): every amount of the edit is in it" }),
  total_before: Money,
  total_after: Money,
  difference: Type.String({ description: 'total_after − total_before: positive, the customer owes it' }),
  subtotal: Money,
  discount: Money,
  estimated_tax: Money,
  lines: Type.Array(EditLine, { description: 'The lines whose quantity changes' }),
  dropped_promotions: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() }), {
    description: 'Promotions the order had whose conditions no longer hold: their use is given back',
  }),
  balance_due: Type.String({ description: "The ledger's balance due after the edit (negative: owed back)" }),
  refund_due: Money,
});

const EditResult = Type.Object({ ...EditPreview.properties, id: Type.Integer(), order: AdminOrderDetail });

const EditHistory = Type.Object({
  currency: Type.String({ description: "The order's currency: every amount of its edits is in it" }),
  items: Type.Array(
    Type.Object({
      id: Type.Integer(),
      edited_by: Type.Union([Type.Integer(), Type.Null()]),
      note: Type.String(),
      lines: Type.Array(EditLine),
      total_before: Money,
      total_after: Money,
      created_at: Type.String({ format: 'date-time' }),
    }),
  ),
});

/** Admin routes of order edits (issue #27 item 3): preview, edit, history. */
export function orderEditRoutes(deps: OrderEditDeps & AdminOrderContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    const common = { tags: ['orders (admin)'], security: bearerAuth };
    const base = '/order/dashboard/api/orders/:order_alias/edits/';
    app.addHook('onRequest', requireAdmin);

    app.post(
      `${base}preview/`,
      {
        schema: {
          ...common,
          summary: "What an edit of an order's lines would do (figures, difference, stock checked); nothing written",
          params: AliasParams,
          body: EditBody,
          response: { 200: EditPreview, ...problems(401, 403, 404, 409, 422) },
        },
      },
      async (request) => {
        const outcome = await editOrder(deps, {
          alias: request.params.order_alias,
          changes: request.body.lines,
          note: request.body.note ?? '',
          expectedTotal: request.body.expected_total,
          preview: true,
          editedBy: request.principal?.userId ?? null,
        });
        return presentEdit(outcome);
      },
    );

    app.post(
      base,
      {
        schema: {
          ...common,
          summary:
            "Edit an order's lines before anything ships: priced again as placed, stock moved, the difference in the "
            + 'ledger (balance due or refund due)',
          params: AliasParams,
          headers: IdempotencyHeader('the edit it made, editing nothing again'),
          body: EditBody,
          response: { 201: EditResult, ...problems(401, 403, 404, 409, 422) },
        },
      },
      async (request, reply) => {
        const { answer, after } = await editOrderOnce(deps, {
          alias: request.params.order_alias,
          changes: request.body.lines,
          note: request.body.note?.trim() ?? '',
          expectedTotal: request.body.expected_total,
          editedBy: request.principal?.userId ?? null,
          requestKey: idempotencyKeyFrom(request.headers['idempotency-key']),
        });
        return reply.code(201).send({ ...answer, order: await adminOrderDetail(deps.db, after, deps) });
      },
    );

    app.get(
      base,
      {
        schema: {
          ...common,
          summary: "An order's edits, newest first: who, when, why, the lines and the totals",
          params: AliasParams,
          response: { 200: EditHistory, ...problems(401, 403, 404, 422) },
        },
      },
      async (request) => {
        const order = await findOrderByAlias(deps.db, request.params.order_alias);
        if (!order)
          throw new DomainError('order_not_found', { detail: `order ${request.params.order_alias} not found` });
        const edits = await editsOf(deps.db, order.id);
        const money = currencyFormat(order.currency);
        return {
          currency: order.currency,
          items: edits.map((e) => ({
            id: e.id,
            edited_by: e.editedBy,
            note: e.note,
            lines: e.lines.map((l) => ({ ...l, unit_price: money.format(l.unit_price) })),
            total_before: money.format(e.totalBefore),
            total_after: money.format(e.totalAfter),
            created_at: e.createdAt.toISOString(),
          })),
        };
      },
    );
  };
}
