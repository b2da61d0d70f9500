import { pgError } from './errors.js';

/**
 * PostgreSQL could not be opened for a reason the operator fixes (server down, database missing,
 * credentials refused); the message is one line naming it and DATABASE_URL without its password.
 */
export class DatabaseOpenError extends Error {
  override name = 'DatabaseOpenError';
}

/** DATABASE_URL fit to print: a password, in the user part or as a `password` parameter, is masked. */
export function redactedDatabaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '(not a valid URL)';
  }
  if (parsed.password !== '') parsed.password = '****';
  if (parsed.searchParams.has('password')) parsed.searchParams.set('password', '****');
  return parsed.toString();
}

function serverAddress(url: string): string {
  try {
    const parsed = new URL(url);
    const host = parsed.hostname || parsed.searchParams.get('host') || 'localhost';
    return `${host}:${parsed.port || '5432'}`;
  } catch {
    return 'the server';
  }
}

/** Node's code for a failed connection; with several addresses to try, Node reports them together. */
function networkCode(err: unknown): string | undefined {
  const { code, errors } = (err ?? {}) as { code?: unknown; errors?: Array<{ code?: unknown }> };
  const found = typeof code === 'string' ? code : errors?.[0]?.code;
  return typeof found === 'string' ? found : undefined;
}

/**
 * SQLSTATE classes an operator causes and fixes, when met while opening: connection exceptions,
 * refused authorisation, an unknown database, too many connections, a server shutting down or
 * starting, and missing privileges (the migrations need to create tables).
 */
const OPERATOR_SQLSTATE = /^(08|28|3D|53|57)|^42501$/;

/** Why a connection failed, by Node's code for it. */
const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused (is the server running there?)',
  ENOTFOUND: 'unknown host',
  EAI_AGAIN: 'unknown host',
  EAI_NONAME: 'unknown host',
  ETIMEDOUT: 'no answer (ETIMEDOUT)',
  EHOSTUNREACH: 'no route to the server (EHOSTUNREACH)',
  ENETUNREACH: 'no route to the server (ENETUNREACH)',
  ECONNRESET: 'the server closed the connection (SSL settings?)',
};

/** The problem in one line, if `err` (met while opening `url`) is one an operator fixes; else undefined. */
export function describeOpenFailure(err: unknown, url: string): string | undefined {
  const at = serverAddress(url);
  const problem = (() => {
    const pg = pgError(err);
    if (pg?.code === '3D000') return `PostgreSQL at ${at}: ${oneLine(err, pg)}; create it first`;
    if (pg?.code !== undefined && OPERATOR_SQLSTATE.test(pg.code)) {
      return `PostgreSQL at ${at} refused: ${oneLine(err, pg)}`;
    }
    const code = networkCode(err);
    // node-postgres's own time-outs carry no code, only a message saying so.
    const reason =
      code !== undefined
        ? NETWORK_REASONS[code]
        : err instanceof Error && /timeout/i.test(err.message)
          ? 'no answer in time'
          : undefined;
    return reason === undefined ? undefined : `cannot connect to PostgreSQL at ${at}: ${reason}`;
  })();
  return problem === undefined ? undefined : `${problem}; DATABASE_URL=${redactedDatabaseUrl(url)}`;
}

function oneLine(err: unknown, pg: { code?: string }): string {
  const message = (pg as { message?: unknown }).message ?? (err as { message?: unknown }).message;
  return `${typeof message === 'string' ? message.replace(/\s+/g, ' ') : 'error'} (SQLSTATE ${pg.code})`;
}

/** `err` as a DatabaseOpenError when an operator fixes it, else unchanged (a bug keeps its stack). */
export function asOpenError(err: unknown, url: string): unknown {
  const line = describeOpenFailure(err, url);
  return line === undefined ? err : new DatabaseOpenError(line, { cause: err });
}
