import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { parse as secureParse } from 'secure-json-parse';
import { DomainError } from '../shared/errors.js';

const LIMIT = 1024 * 1024;

/**
 * Reads a JSON body Fastify did not parse (a GET's): undefined when there is none. Applies the
 * same rules as parsed bodies: JSON content type (415), at most 1 MiB (413), valid JSON (400).
 */
export async function readJsonBody(raw: IncomingMessage): Promise<unknown> {
  const length = raw.headers['content-length'];
  if (raw.headers['transfer-encoding'] === undefined && (length === undefined || length === '0')) return undefined;
  if (length !== undefined && Number(length) > LIMIT)
    throw new DomainError('payload_too_large', { detail: 'the request body is larger than 1 MiB' });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of raw) {
    size += (chunk as Buffer).length;
    if (size > LIMIT) throw new DomainError('payload_too_large', { detail: 'the request body is larger than 1 MiB' });
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return undefined;
  const type = raw.headers['content-type'] ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type))
    throw new DomainError('unsupported_media_type', { detail: 'send the body as application/json' });
  return parseJson(Buffer.concat(chunks).toString('utf8'), 'the request body');
}

export function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new DomainError('malformed_json', { detail: `${what} is not valid JSON` });
  }
}

/** Only UTF-8 is read (RFC 8259 8.1); a charset parameter naming anything else is refused, not misread. */
const UTF8_OR_NONE = /^application\/json\s*(;\s*charset\s*=\s*"?utf-?8"?\s*)?$/i;

/**
 * The JSON body parser of every route that takes one (the webhook's scope keeps its raw body): Fastify's own, made
 * precise about what it refuses. An empty body or broken JSON is 400 `malformed_json`; a key that would reach an
 * object's prototype (`__proto__`, `constructor.prototype`) is named as a refused field (422), since the JSON itself
 * is valid; a charset other than UTF-8 is 415.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const type = request.headers['content-type'] ?? '';
    if (!UTF8_OR_NONE.test(type.trim())) {
      done(new DomainError('unsupported_media_type', { detail: 'send the body as application/json in UTF-8' }));
      return;
    }
    const text = String(body);
    if (text.trim() === '') {
      done(new DomainError('malformed_json', { detail: 'the request body is empty but the content type says JSON' }));
      return;
    }
    try {
      done(null, secureParse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch (err) {
      const prototypeKey = err instanceof SyntaxError && /forbidden prototype property/.test(err.message);
      done(
        prototypeKey
          ? new DomainError('validation_error', {
              detail: 'the body uses __proto__ or constructor.prototype as a field name, which is never accepted',
              errors: [{ field: '__proto__', message: 'is not an allowed field name' }],
            })
          : new DomainError('malformed_json', { detail: 'the request body is not valid JSON' }),
      );
    }
  });
}
