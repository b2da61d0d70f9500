import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { withSafeErrorLogging } from '../shared/error-log.js';
import { answerClientError, answerFrameworkError } from './error-handler.js';
import { registerJsonBodyParser } from './raw-json.js';
import { Problem } from './schemas.js';
import { validatorCompiler } from './validation.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** Log levels at which the per-request line is written. */
const INFO_OR_MORE = new Set(['info', 'debug', 'trace']);

/**
 * The Fastify instance every app starts from, with the service's HTTP conventions: bodies of at most 1 MiB and JSON
 * only (a text/plain body is a 415, not a string to validate), TypeBox schemas checked by our Ajv, errors that
 * Fastify and Node answer themselves as problem+json, the error serializer that keeps data out of the logs, a
 * request id on every answer, and one log line per request.
 */
export function createServer(options: { logger: FastifyServerOptions['logger']; trustProxy: boolean }) {
  const app = Fastify({
    logger: withSafeErrorLogging(options.logger),
    bodyLimit: 1024 * 1024,
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    // Node's own check answers a bare 400; requireHostHeader() answers it as problem+json instead.
    http: { requireHostHeader: false },
    trustProxy: options.trustProxy,
    logController: new LogController({ disableRequestLogging: true }),
    routerOptions: { ignoreTrailingSlash: true },
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.removeContentTypeParser(['text/plain']);
  registerJsonBodyParser(app);
  app.addSchema(Problem);
  logEachRequest(app);
  return app;
}

/**
 * The request's id on its answer (`x-request-id`: the caller's own when it sent a sane one), and one log line per
 * request (SPEC 8); the query string is left out since it can carry payloads. Callback hooks, as every hook each
 * request runs: no promise and no extra microtask per request.
 */
function logEachRequest(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (!INFO_OR_MORE.has(request.log.level)) {
      done();
      return;
    }
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? null,
        path: request.url.split('?')[0],
        status: reply.statusCode,
        duration_ms: Math.round(reply.elapsedTime * 100) / 100,
      },
      'request',
    );
    done();
  });
}
