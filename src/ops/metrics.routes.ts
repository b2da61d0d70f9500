import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Registry } from 'prom-client';
import { Type } from 'typebox';
import { requireAdmin } from '../http/auth.js';
import { problems } from '../http/schemas.js';
import { DomainError } from '../shared/errors.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** GET /metrics: Prometheus text format, for admins or whoever sends `Authorization: Bearer <METRICS_TOKEN>`. */
export function metricsRoutes(deps: { registry: Registry; token: string | undefined }): FastifyPluginAsyncTypebox {
  // Compared as digests, in constant time: equal lengths whatever was sent.
  const expected = deps.token === undefined ? undefined : digest(deps.token);
  return async (app) => {
    app.get(
      '/metrics',
      {
        // The auth hook leaves a Bearer token it can't verify to this route: it may be the metrics token.
        config: { ownBearerTokens: true },
        onRequest: async (request) => {
          const header = request.headers.authorization;
          const sent = header === undefined ? undefined : /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
          if (expected !== undefined && sent !== undefined && timingSafeEqual(digest(sent), expected)) return;
          if (header !== undefined && !request.principal) {
            throw new DomainError('invalid_token', {
              detail: "send an admin's access token or the metrics token as a Bearer token",
            });
          }
          await requireAdmin(request);
        },
        schema: {
          tags: ['operations'],
          summary: 'Metrics in Prometheus text format (admins, or Bearer METRICS_TOKEN)',
          security: [{ bearerAuth: [] }],
          response: {
            200: {
              description: 'Prometheus text exposition format 0.0.4',
              content: { 'text/plain': { schema: Type.String() } },
            },
            ...problems(401, 403),
          },
        },
      },
      async (_request, reply) => reply.type(deps.registry.contentType).send(await deps.registry.metrics()),
    );
  };
}
