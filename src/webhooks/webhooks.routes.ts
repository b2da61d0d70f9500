import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { refuseBody } from '../http/no-body.js';
import { Type } from 'typebox';
import type { WebhookSettings } from '../config.js';
import type { Db } from '../db/client.js';
import { requireAdmin } from '../http/auth.js';
import { nextCursor } from '../http/paging.js';
import { bearerAuth, IdParams, problems } from '../http/schemas.js';
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
import { endpointValues, newEndpointValues } from './webhooks.values.js';

/**
 * Webhook endpoints and their deliveries: /webhook/dashboard/api/ (admins only). A redelivery makes the delivery due
 * again and, once that is committed, wakes this process's dispatcher (`wakeDeliveries`).
 */
export function webhookAdminRoutes(deps: {
  db: Db;
  settings: WebhookSettings;
  wakeDeliveries: () => void;
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
        preValidation: refuseBody,
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
          next_cursor: nextCursor(page.next),
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
        preValidation: refuseBody,
        schema: {
          ...common,
          summary: 'Send a delivery again: pending and due now, with a new 24-hour retry window',
          params: IdParams,
          response: { 200: DeliveryDetail, ...problems(401, 403, 404, 409) },
        },
      },
      async (request) => {
        const now = new Date();
        const row = await deps.db.transaction((tx) => resetForRedelivery(tx, { id: request.params.id, now }));
        deps.wakeDeliveries();
        return presentDeliveryDetail(row, await attemptsOf(deps.db, row.id));
      },
    );
  };
}
