import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Db } from '../db/client.js';
import { eventTypes } from '../db/schema.js';
import { requireAdmin } from '../http/auth.js';
import { Page, PageLimit } from '../http/paging.js';
import { bearerAuth, problems } from '../http/schemas.js';
import { DomainError } from '../shared/errors.js';
import { presentEvent } from './events.presenter.js';
import type { EventType } from './outbox.js';
import { findEvent, listEvents } from './events.repository.js';

const EventTypeSchema = Type.Unsafe<EventType>(Type.Union(eventTypes.map((t) => Type.Literal(t))));

export const EventSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  type: EventTypeSchema,
  created_at: Type.String(),
  sequence: Type.Union([Type.Integer(), Type.Null()], {
    description: "The event's number among its order's events: 1, 2, 3… in the order they happened",
  }),
  data: Type.Object(
    {},
    { additionalProperties: true, description: 'The order (or payment) as the admin API shows it' },
  ),
});

const EventPage = Page(EventSchema);

export function eventAdminRoutes(deps: { db: Db }): FastifyPluginAsyncTypebox {
  return async (app) => {
    const common = { tags: ['events (admin)'], security: bearerAuth };
    const base = '/event/dashboard/api/events/';
    app.addHook('onRequest', requireAdmin);

    app.get(
      base,
      {
        schema: {
          ...common,
          summary: 'Events (order placed, paid, status changed…), newest first, filtered',
          querystring: Type.Object({
            limit: PageLimit,
            // Events are keyed by a UUID (v7: time first), not a row number.
            cursor: Type.Optional(Type.String({ format: 'uuid', description: 'next_cursor of the previous page' })),
            type: Type.Optional(EventTypeSchema),
            order_alias: Type.Optional(Type.String({ pattern: '^[0-9a-fA-F-]{36}$' })),
          }),
          response: { 200: EventPage, ...problems(401, 403, 422) },
        },
      },
      async (request) => {
        const q = request.query;
        const page = await listEvents(deps.db, {
          limit: q.limit,
          before: q.cursor?.toLowerCase(),
          type: q.type,
          orderAlias: q.order_alias?.toLowerCase(),
        });
        return {
          items: page.items.map(presentEvent),
          next_cursor: page.next,
        };
      },
    );

    app.get(
      `${base}:id/`,
      {
        schema: {
          ...common,
          summary: 'One event',
          params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
          response: { 200: EventSchema, ...problems(401, 403, 404, 422) },
        },
      },
      async (request) => {
        const event = await findEvent(deps.db, request.params.id.toLowerCase());
        if (!event) throw new DomainError('event_not_found', { detail: `event ${request.params.id} not found` });
        return presentEvent(event);
      },
    );
  };
}
