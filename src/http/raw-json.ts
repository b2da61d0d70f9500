import type { IncomingMessage } from 'node:http';
import { DomainError } from '../shared/errors.js';

const LIMIT = 1024 * 1024;

/**
 * Reads a JSON body Fastify did not parse (a GET's): undefined when there is none. Applies the
 * same rules as parsed bodies: JSON content type (415), at most 1 MiB (413), valid JSON (400).
 */
export async function readJsonBody(raw: IncomingMessage): Promise<unknown> {
  const length = raw.headers['content-length'];
  if (raw.headers['transfer-encoding'] === undefined && (length === undefined || length === '0')) return undefined;
  if (length !== undefined && Number(length) > LIMIT) throw new DomainError('payload_too_large', { detail: 'the request body is larger than 1 MiB' });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of raw) {
    size += (chunk as Buffer).length;
    if (size > LIMIT) throw new DomainError('payload_too_large', { detail: 'the request body is larger than 1 MiB' });
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return undefined;
  const type = raw.headers['content-type'] ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) throw new DomainError('unsupported_media_type', { detail: 'send the body as application/json' });
  return parseJson(Buffer.concat(chunks).toString('utf8'), 'the request body');
}

export function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new DomainError('malformed_json', { detail: `${what} is not valid JSON` });
  }
}
