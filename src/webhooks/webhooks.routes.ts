import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { WebhookSettings } from '../config.js';
import type { Db, Tx } from '../db/client.js';
import { requireAdmin } from '../http/auth.js';
import { bearerAuth, IdParams, problems } from '../http/schemas.js';
import type { DueDelivery } from './webhook-delivery.js';
import { attemptsOf, findDelivery, listDeliveries, resetForRedelivery } from './webhook-deliveries.repository.js';
import {
  createEndpoint,
  deleteEndpoint,
  findEndpoint,
  listEndpoints,
  rotateEndpointSecret,
  updateEndpoint,
} from './webhook-endpoints.repository.js';
import {
  endpointValues,
  newEndpointValues,
  presentDelivery,
  presentDeliveryDetail,
  presentEndpoint,
  presentEndpointWithSecret,
} from './webhooks.presenter.js';
import {
  DeliveryDetail,
  DeliveryPage,
  DeliveryQuery,
  Endpoint,
  EndpointInput,
  EndpointPatch,
  EndpointWithSecret,
} from './webhooks.schema.js';

/** Called in the transaction that makes a delivery due again by hand, so its attempt is queued with it. */
export type DeliveryDueHook = (tx: Tx, delivery: DueDelivery) => Promise<void>;

/** Webhook endpoints and their deliveries: /webhook/dashboard/api/ (admins only) */
export function webhookAdminRoutes(deps: {
  db: Db;
  settings: WebhookSettings;
  deliveryDue?: DeliveryDueHook;
}): FastifyPluginAsyncTypebox {
  return async (app) => {
    const common = { tags: ['webhooks (admin)'], security: bearerAuth };
    const base = '/webhook/dashboard/api';
    app.addHook('onRequest', requireAdmin);

    app.get(
      `${base}/endpoints/`,
      {
        schema: {
          ...common,
          summary: 'Every webhook endpoint (secrets are never shown here)',
          response: { 200: Type.Array(Endpoint), ...problems(401, 403) },
        },
      },
      async () => (await listEndpoints(deps.db)).map(presentEndpoint),
    );

    app.post(
      `${base}/endpoints/`,
      {
        schema: {
          ...common,
          summary: 'Create an endpoint; the answer shows its signing secret, this once',
          body: EndpointInput,
          response: { 201: EndpointWithSecret, ...problems(401, 403, 422) },
        },
      },
      async (request, reply) => {
        const row = await createEndpoint(deps.db, newEndpointValues(request.body, deps.settings));
        return reply.code(201).send(presentEndpointWithSecret(row));
      },
    );

    app.get(
      `${base}/endpoints/:id/`,
      {
        schema: {
          ...common,
          summary: 'One endpoint (without its secret)',
          params: IdParams,
          response: { 200: Endpoint, ...problems(401, 403, 404) },
        },
      },
      async (request) => presentEndpoint(await findEndpoint(deps.db, request.params.id)),
    );

    app.patch(
      `${base}/endpoints/:id/`,
      {
        schema: {
          ...common,
          summary: 'Change an endpoint; is_active true switches a disabled one on again',
          params: IdParams,
          body: EndpointPatch,
          response: { 200: Endpoint, ...problems(401, 403, 404, 422) },
        },
      },
      async (request) =>
        presentEndpoint(await updateEndpoint(deps.db, request.params.id, endpointValues(request.body, deps.settings))),
    );

    app.delete(
      `${base}/endpoints/:id/`,
      {
        schema: {
          ...common,
          summary: 'Delete an endpoint with its deliveries and their log',
          params: IdParams,
          response: { 204: Type.Null(), ...problems(401, 403, 404) },
        },
      },
      async (request, reply) => {
        await deleteEndpoint(deps.db, request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.post(
      `${base}/endpoints/:id/rotate-secret/`,
      {
        schema: {
          ...common,
          summary: 'Replace the signing secret; the answer shows the new one, this once. The old one stops at once',
          params: IdParams,
          response: { 200: EndpointWithSecret, ...problems(401, 403, 404) },
        },
      },
      async (request) => presentEndpointWithSecret(await rotateEndpointSecret(deps.db, request.params.id)),
    );

    app.get(
      `${base}/endpoints/:id/deliveries/`,
      {
        schema: {
          ...common,
          summary:
            "An endpoint's deliveries, newest first: status, attempts, last response code and duration, next try",
          params: IdParams,
          querystring: DeliveryQuery,
          response: { 200: DeliveryPage, ...problems(401, 403, 404, 422) },
        },
      },
      async (request) => {
        const { status, limit, cursor } = request.query;
        const page = await listDeliveries(deps.db, { endpointId: request.params.id, status, limit, before: cursor });
        return {
          items: page.items.map(presentDelivery),
          next_cursor: page.nextBefore === null ? null : String(page.nextBefore),
        };
      },
    );

    app.get(
      `${base}/deliveries/:id/`,
      {
        schema: {
          ...common,
          summary: 'One delivery with the payload sent and every attempt',
          params: IdParams,
          response: { 200: DeliveryDetail, ...problems(401, 403, 404) },
        },
      },
      async (request) => {
        const delivery = await findDelivery(deps.db, request.params.id);
        return presentDeliveryDetail(delivery, await attemptsOf(deps.db, delivery.id));
      },
    );

    app.post(
      `${base}/deliveries/:id/redeliver/`,
      {
        schema: {
          ...common,
          summary: 'Send a delivery again: pending and due now, with a new 24-hour retry window',
          params: IdParams,
          response: { 200: DeliveryDetail, ...problems(401, 403, 404, 409) },
        },
      },
      async (request) => {
        const now = new Date();
        const row = await deps.db.transaction(async (tx) => {
          const reset = await resetForRedelivery(tx, { id: request.params.id, now });
          await deps.deliveryDue?.(tx, { id: reset.id, dueAt: now });
          return reset;
        });
        return presentDeliveryDetail(row, await attemptsOf(deps.db, row.id));
      },
    );
  };
}
