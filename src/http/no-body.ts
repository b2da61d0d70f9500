import type { FastifyRequest } from 'fastify';
import { DomainError } from '../shared/errors.js';

/**
 * For routes that take no body (an action on what the path names): a body other than none or `{}` is a 422, as an
 * unknown field in any other body is, rather than being ignored.
 */
export async function refuseBody(request: FastifyRequest): Promise<void> {
  const { body } = request;
  if (body === undefined || body === null) return;
  if (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0) return;
  throw new DomainError('validation_error', {
    detail: 'this endpoint takes no body: send none, or {}',
    errors: [{ field: 'body', message: 'must be empty' }],
  });
}
