import { randomUUID } from 'node:crypto';
import { type IncomingMessage, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
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
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (typeof child === 'string') parts.push(child);
  return parts.reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
}

function toFieldError(issue: ValidationIssue, context: string): FieldError {
  const prefix = context === 'body' ? '' : `${context}.`;
  switch (issue.keyword) {
    case 'required':
      return { field: prefix + fieldPath(issue.instancePath, issue.params.missingProperty), message: 'is required' };
    case 'additionalProperties':
      return {
        field: prefix + fieldPath(issue.instancePath, issue.params.additionalProperty),
        message: 'is not an allowed field',
      };
    case 'enum': {
      const allowed = (issue.params.allowedValues as unknown[]).map((v) => JSON.stringify(v));
      return {
        field: prefix + fieldPath(issue.instancePath) || context,
        message: `must be one of: ${allowed.join(', ')}`,
      };
    }
    default:
      return { field: prefix + fieldPath(issue.instancePath) || context, message: issue.message ?? 'is invalid' };
  }
}

/** A 422 listing every schema violation Ajv found, fields named the way the client sent them. */
export function validationProblem(issues: readonly ValidationIssue[], context: string): DomainError {
  // A value-or-null field that fails reports its value branch only, not "must be null" and
  // "must match a schema in anyOf" besides.
  const anyOfPaths = new Set(issues.filter((i) => i.keyword === 'anyOf').map((i) => i.instancePath));
  // A tagged union (http/schemas.ts TaggedUnion) reports a missing or unknown tag on the tag itself (`required`,
  // `enum`); Ajv's own `discriminator` error says it again, less clearly.
  const relevant = issues.filter(
    (i) =>
      i.keyword !== 'discriminator'
      && (!anyOfPaths.has(i.instancePath)
        || (i.keyword !== 'anyOf' && !(i.keyword === 'type' && i.params.type === 'null'))),
  );
  // A union of literals (an order status in a query) fails with one "must be equal to constant" per literal: said
  // once, with the values, as an enum's failure is.
  const literals = new Map<string, unknown[]>();
  for (const i of relevant) {
    if (i.keyword === 'const')
      literals.set(i.instancePath, [...(literals.get(i.instancePath) ?? []), i.params.allowedValue]);
  }
  const errors = (relevant.length > 0 ? relevant : issues).map((i) =>
    toFieldError(
      i.keyword === 'const' ? { ...i, keyword: 'enum', params: { allowedValues: literals.get(i.instancePath) } } : i,
      context,
    ),
  );
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
      return new DomainError('unsupported_media_type', {
        detail:
          "this endpoint does not take a body of that content type (the API's JSON endpoints take application/json)",
      });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new DomainError('invalid_content_length', { detail: 'the Content-Length header does not match the body' });
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
    if (
      typeof message === 'string'
      && /timeout exceeded when trying to connect|Connection terminated|PGlite is closed/i.test(message)
    )
      return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

function problemDocument(error: DomainError, requestId: string): Record<string, unknown> {
  const { title, status } = errorCodes[error.code];
  return {
    type: `urn:storefront:problem:${error.code}`,
    title,
    status,
    detail: error.detail ?? title,
    code: error.code,
    ...(error.errors ? { errors: error.errors } : {}),
    ...error.extra,
    request_id: requestId,
  };
}

/**
 * Whether body bytes are still to come: answered now, they would be read as the next request on
 * this connection. inject()'s requests have no `complete`; and a request without a body is only
 * marked complete after the router ran.
 */
function bodyLeftUnread(raw: IncomingMessage): boolean {
  if (raw.complete !== false) return false;
  const length = raw.headers['content-length'];
  return raw.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

export function sendProblem(reply: FastifyReply, error: DomainError): FastifyReply {
  if (error.headers) reply.headers(error.headers);
  if (bodyLeftUnread(reply.request.raw)) reply.header('connection', 'close');
  return reply
    .code(error.status)
    .type('application/problem+json; charset=utf-8')
    .send(JSON.stringify(problemDocument(error, reply.request.id)));
}

function problemForStatus(status: number): ErrorCode {
  const match = Object.entries(errorCodes).find(([, v]) => v.status === status);
  return (match?.[0] as ErrorCode | undefined) ?? 'bad_request';
}

/** Every error leaves as problem+json; nothing of a stack trace or an internal message does. */
export function registerErrorHandling(
  app: FastifyInstance,
  options: {
    /** Answers a request no route matched before the 404 does (the web apps' client-side routes); undefined: 404. */
    notFoundFallback?: ((request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined) | undefined;
  } = {},
): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof DomainError) return sendProblem(reply, error);
    if (error instanceof MoneyOverflowError) {
      return sendProblem(
        reply,
        new DomainError('amount_too_large', {
          detail: 'the amounts of this request are larger than the service can represent exactly',
        }),
      );
    }
    const known = problemFromFastifyError(error);
    if (known) return sendProblem(reply, known);
    if (isDatabaseUnavailable(error)) {
      request.log.error({ err: error }, 'database unavailable');
      return sendProblem(
        reply,
        new DomainError('database_unavailable', {
          detail: 'the database is not reachable; try again shortly',
          headers: { 'retry-after': '5' },
        }),
      );
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      return sendProblem(reply, new DomainError(problemForStatus(status), { detail: error.message }));
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(
      reply,
      new DomainError('internal_error', {
        detail: `an unexpected error occurred; quote request id ${request.id} when reporting it`,
      }),
    );
  });

  app.setNotFoundHandler(
    (request, reply) =>
      options.notFoundFallback?.(request, reply)
      ?? sendProblem(
        reply,
        new DomainError('route_not_found', { detail: `no route ${request.method} ${request.url.split('?')[0]}` }),
      ),
  );
}

/** The router's refusals (Fastify `frameworkErrors`), which come before any hook or handler. */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', request.id);
  let problem: DomainError;
  if (error.code === 'FST_ERR_BAD_URL') {
    problem = new DomainError('invalid_url_encoding', { detail: 'the URL has a % that does not start a valid escape' });
  } else if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    problem = new DomainError('uri_too_long', { detail: 'a path parameter is longer than 100 characters' });
  } else {
    request.log.error({ err: error }, 'unhandled error');
    problem = new DomainError('internal_error', {
      detail: `an unexpected error occurred; quote request id ${request.id} when reporting it`,
    });
  }
  request.log.info({ method: request.method, status: problem.status, code: problem.code }, 'refused by the router');
  sendProblem(reply, problem);
}

/** Errors of Node's HTTP parser (llhttp), by what the client did wrong; any other is malformed_request. */
const PARSER_ERRORS: Record<string, { code: ErrorCode; detail: string }> = {
  HPE_HEADER_OVERFLOW: { code: 'headers_too_large', detail: 'the request line and headers are larger than allowed' },
  HPE_INVALID_CONTENT_LENGTH: { code: 'invalid_content_length', detail: 'Content-Length must be a whole number' },
  HPE_UNEXPECTED_CONTENT_LENGTH: { code: 'invalid_content_length', detail: 'Content-Length must be sent once' },
  HPE_INVALID_TRANSFER_ENCODING: {
    code: 'invalid_transfer_encoding',
    detail: 'Transfer-Encoding must end in chunked and cannot come with Content-Length',
  },
  HPE_INVALID_CHUNK_SIZE: { code: 'invalid_chunked_encoding', detail: 'a chunk size of the body is not hexadecimal' },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { code: 'invalid_chunked_encoding', detail: 'the chunk extensions are too large' },
  HPE_INVALID_EOF_STATE: {
    code: 'incomplete_request',
    detail: 'the connection ended before the request was complete (a body shorter than its Content-Length?)',
  },
  HPE_INVALID_HEADER_TOKEN: { code: 'invalid_header', detail: 'a header holds a character HTTP does not allow there' },
  ERR_HTTP_REQUEST_TIMEOUT: { code: 'request_timeout', detail: 'the request was not received in time' },
};
const MALFORMED = { code: 'malformed_request', detail: 'the request is not valid HTTP/1.1' } as const;

/**
 * The server's `clientError`: the HTTP parser refused the bytes before Fastify saw a request, so
 * there is no reply object. A complete response goes on the socket, then the socket is closed:
 * nothing after the bad bytes can be trusted to start a request.
 */
export function answerClientError(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { code, detail } = PARSER_ERRORS[error.code ?? ''] ?? MALFORMED;
  const problem = new DomainError(code, { detail });
  const requestId = randomUUID();
  this.log.info(
    { reqId: requestId, status: problem.status, code, parser_error: error.code },
    'refused by the HTTP parser',
  );
  // A response already started on this connection can't be followed by another.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(problemDocument(problem, requestId));
  const head = [
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? ''}`,
    'Content-Type: application/problem+json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
}

/**
 * HTTP/1.1 requires a Host header (RFC 9112 3.2). Node would refuse its absence itself, with a bare 400 and no
 * problem document, before any hook runs; the server is built without that check (`requireHostHeader: false`) and
 * this hook answers in its place.
 */
export function requireHostHeader(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      throw new DomainError('missing_host_header', { detail: 'an HTTP/1.1 request needs a Host header' });
    }
    done();
  });
}
