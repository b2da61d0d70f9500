import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Database } from '../db/client.js';
import { problems } from '../http/schemas.js';
import { DomainError } from '../shared/errors.js';

const Status = Type.Object({ status: Type.String() });

export function healthRoutes(deps: { database: Database }): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/healthz',
      {
        schema: { tags: ['operations'], summary: 'The process is up', response: { 200: Status } },
      },
      async () => ({ status: 'ok' }),
    );

    app.get(
      '/readyz',
      {
        schema: { tags: ['operations'], summary: 'The database answers', response: { 200: Status, ...problems(503) } },
      },
      async (request) => {
        try {
          await deps.database.ping();
        } catch (err) {
          request.log.warn({ err }, 'readiness check failed');
          throw new DomainError('database_unavailable', {
            detail: 'the database does not answer',
            headers: { 'retry-after': '5' },
          });
        }
        return { status: 'ok' };
      },
    );
  };
}
