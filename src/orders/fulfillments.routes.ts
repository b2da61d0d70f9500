import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireAdmin } from '../http/auth.js';
import { refuseBody } from '../http/no-body.js';
import { bearerAuth, problems } from '../http/schemas.js';
import {
  AdminFulfillment,
  CreateFulfillmentBody,
  FulfillmentParams,
  ShipFulfillmentBody,
  ShippedFulfillment,
} from './fulfillment.schema.js';
import { presentAdminFulfillment } from './fulfillment.presenter.js';
import { fulfillmentsOf } from './fulfillments.repository.js';
import {
  type CaptureShipped,
  createFulfillment,
  type FulfillmentChange,
  type FulfillmentDeps,
  moveFulfillment,
  type TrackingInput,
} from './fulfillments.service.js';
import { IdempotencyHeader, idempotencyKeyFrom } from './idempotency.js';
import { AliasParams } from './order.schema.js';
import { findVisibleOrder } from './orders.service.js';

const present = (change: FulfillmentChange) => presentAdminFulfillment(change.fulfillment, change.order);

const trackingOf = (body: { carrier?: string; tracking_number?: string; tracking_url?: string }): TrackingInput => ({
  carrier: body.carrier,
  trackingNumber: body.tracking_number,
  trackingUrl: body.tracking_url,
});

/**
 * An order's shipments (decision 0027), for admins: under the order's own dashboard path. Every write locks the order
 * and answers the fulfillment with where its order stands now.
 */
export function fulfillmentAdminRoutes(
  deps: FulfillmentDeps & {
    /**
     * After a fulfillment shipped (committed): captures what it shipped, when the store says so (decision 0027;
     * payments/ does it, app.ts hands it in).
     */
    captureShipped?: CaptureShipped;
  },
): FastifyPluginAsyncTypebox {
  return async (app) => {
    const common = { tags: ['orders (admin)'], security: bearerAuth };
    const base = '/order/dashboard/api/orders/:order_alias/fulfillments/';
    const one = `${base}:fulfillment_id/`;
    const Answer = { 200: AdminFulfillment, ...problems(401, 403, 404, 409, 422) };
    app.addHook('onRequest', requireAdmin);

    app.get(
      base,
      {
        schema: {
          ...common,
          summary: "An order's fulfillments (shipments), oldest first",
          params: AliasParams,
          response: { 200: Type.Object({ items: Type.Array(AdminFulfillment) }), ...problems(401, 403, 404, 422) },
        },
      },
      async (request) => {
        const order = await findVisibleOrder(deps.database.db, request.params.order_alias, {
          principal: request.principal,
        });
        const items = await fulfillmentsOf(deps.database.db, order.id);
        return { items: items.map((f) => presentAdminFulfillment(f, order)) };
      },
    );

    app.post(
      base,
      {
        schema: {
          ...common,
          summary: 'Fulfil units of an approved or processing order: a new pending shipment',
          description:
            'Quantities per order line (by its alias), never more than ordered less those in other fulfillments '
            + '(409 fulfillment_exceeds_fulfillable naming the figures); no lines: every unit still fulfillable. '
            + 'The tracking URL is the one given, or the carrier template (CARRIER_TRACKING_URLS) with the number.',
          params: AliasParams,
          headers: IdempotencyHeader('the fulfillment it made instead of a new one'),
          body: CreateFulfillmentBody,
          response: { ...Answer, 201: AdminFulfillment },
        },
      },
      async (request, reply) => {
        const { lines, ...tracking } = request.body ?? {};
        const change = await createFulfillment(deps, {
          alias: request.params.order_alias,
          lines,
          tracking: trackingOf(tracking),
          adminId: request.principal?.userId ?? null,
          requestKey: idempotencyKeyFrom(request.headers['idempotency-key']),
        });
        return reply.code(201).send(present(change));
      },
    );

    app.post(
      `${one}ship/`,
      {
        schema: {
          ...common,
          summary: 'Mark a pending fulfillment shipped, with its tracking (the customer is emailed the link)',
          params: FulfillmentParams,
          headers: IdempotencyHeader('the fulfillment as it is, shipping (and capturing) nothing again'),
          body: ShipFulfillmentBody,
          response: { ...Answer, 200: ShippedFulfillment },
        },
      },
      async (request) => {
        const { order_alias: alias, fulfillment_id: fulfillmentId } = request.params;
        const change = await moveFulfillment(deps, {
          alias,
          fulfillmentId,
          to: 'shipped',
          tracking: trackingOf(request.body ?? {}),
          requestKey: idempotencyKeyFrom(request.headers['idempotency-key']),
        });
        const captures = (await deps.captureShipped?.(change, { adminId: request.principal?.userId ?? null })) ?? [];
        return { ...present(change), captures };
      },
    );

    for (const [to, summary] of [
      ['delivered', 'Mark a shipped fulfillment delivered'],
      ['cancelled', 'Cancel a pending fulfillment: its units can be fulfilled again'],
    ] as const) {
      app.post(
        `${one}${to === 'delivered' ? 'deliver' : 'cancel'}/`,
        {
          preValidation: refuseBody,
          schema: {
            ...common,
            summary,
            params: FulfillmentParams,
            headers: IdempotencyHeader('the fulfillment as it is, moving nothing again'),
            response: Answer,
          },
        },
        async (request) => {
          const { order_alias: alias, fulfillment_id: fulfillmentId } = request.params;
          const requestKey = idempotencyKeyFrom(request.headers['idempotency-key']);
          return present(await moveFulfillment(deps, { alias, fulfillmentId, to, requestKey }));
        },
      );
    }
  };
}
