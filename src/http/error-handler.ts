import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, type ErrorCode, errorCodes, type FieldError } from '../shared/errors.js';
import { MoneyOverflowError } from '../shared/money.js';

export interface ValidationIssue {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** `/variants/0/quantity` → `variants[0].quantity` */
function fieldPath(pointer: string, child?: unknown): string {
  const parts = pointer.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (typeof child === 'string') parts.push(child);
  return parts.reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
}

function toFieldError(issue: ValidationIssue, context: string): FieldError {
  const prefix = context === 'body' ? '' : `${context}.`;
  switch (issue.keyword) {
    case 'required':
      return { field: prefix + fieldPath(issue.instancePath, issue.params.missingProperty), message: 'is required' };
    case 'additionalProperties':
      return { field: prefix + fieldPath(issue.instancePath, issue.params.additionalProperty), message: 'is not an allowed field' };
    default:
      return { field: prefix + fieldPath(issue.instancePath) || context, message: issue.message ?? 'is invalid' };
  }
}

/** A 422 listing every schema violation Ajv found, fields named the way the client sent them. */
export function validationProblem(issues: readonly ValidationIssue[], context: string): DomainError {
  // A value-or-null field that fails reports its value branch only, not "must be null" and
  // "must match a schema in anyOf" besides.
  const anyOfPaths = new Set(issues.filter((i) => i.keyword === 'anyOf').map((i) => i.instancePath));
  const relevant = issues.filter((i) => !anyOfPaths.has(i.instancePath)
    || (i.keyword !== 'anyOf' && !(i.keyword === 'type' && i.params.type === 'null')));
  const errors = (relevant.length > 0 ? relevant : issues).map((i) => toFieldError(i, context));
  // Collapse the duplicates Ajv reports for anyOf branches on the same field.
  const unique = [...new Map(errors.map((e) => [`${e.field}\u0000${e.message}`, e])).values()];
  return new DomainError('validation_error', {
    detail: unique.map((e) => `${e.field} ${e.message}`).join('; '),
    errors: unique,
  });
}

function problemFromFastifyError(error: FastifyError): DomainError | undefined {
  if (error.validation) {
    return validationProblem(error.validation as unknown as ValidationIssue[], error.validationContext ?? 'body');
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new DomainError('malformed_json', { detail: 'the request body is not valid JSON' });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new DomainError('malformed_json', { detail: 'the request body is empty but the content type says JSON' });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new DomainError('payload_too_large', { detail: 'the request body is larger than 1 MiB' });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new DomainError('unsupported_media_type', { detail: 'send the body as application/json' });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new DomainError('bad_request', { detail: 'the Content-Length header does not match the body' });
  }
  if (error instanceof SyntaxError && error.statusCode === 400) {
    return new DomainError('malformed_json', { detail: 'the request body is not valid JSON' });
  }
  return undefined;
}

const CONNECTION_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EPIPE', '57P01', '57P03']);

function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    const message = (current as { message?: unknown }).message;
    if (typeof code === 'string' && (CONNECTION_ERRORS.has(code) || code.startsWith('08'))) return true;
    if (typeof message === 'string' && /timeout exceeded when trying to connect|Connection terminated|PGlite is closed/i.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

export function sendProblem(reply: FastifyReply, error: DomainError): FastifyReply {
  const { title, status } = errorCodes[error.code];
  const body: Record<string, unknown> = {
    type: `urn:storefront:problem:${error.code}`,
    title,
    status,
    detail: error.detail ?? title,
    code: error.code,
    ...(error.errors ? { errors: error.errors } : {}),
    ...error.extra,
    request_id: reply.request.id,
  };
  if (error.headers) reply.headers(error.headers);
  return reply.code(status).type('application/problem+json; charset=utf-8').send(JSON.stringify(body));
}

function problemForStatus(status: number): ErrorCode {
  const match = Object.entries(errorCodes).find(([, v]) => v.status === status);
  return (match?.[0] as ErrorCode | undefined) ?? 'bad_request';
}

/** Every error leaves as problem+json; nothing of a stack trace or an internal message does. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof DomainError) return sendProblem(reply, error);
    if (error instanceof MoneyOverflowError) {
      return sendProblem(reply, new DomainError('amount_too_large', { detail: 'the amounts of this request are larger than the service can represent exactly' }));
    }
    const known = problemFromFastifyError(error);
    if (known) return sendProblem(reply, known);
    if (isDatabaseUnavailable(error)) {
      request.log.error({ err: error }, 'database unavailable');
      return sendProblem(reply, new DomainError('database_unavailable', {
        detail: 'the database is not reachable; try again shortly',
        headers: { 'retry-after': '5' },
      }));
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      return sendProblem(reply, new DomainError(problemForStatus(status), { detail: error.message }));
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(reply, new DomainError('internal_error', {
      detail: `an unexpected error occurred; quote request id ${request.id} when reporting it`,
    }));
  });

  app.setNotFoundHandler((request, reply) =>
    sendProblem(reply, new DomainError('route_not_found', { detail: `no route ${request.method} ${request.url.split('?')[0]}` })),
  );
}
