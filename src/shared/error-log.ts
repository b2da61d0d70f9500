import type { FastifyServerOptions } from 'fastify';

/** What of an error goes into the log: where it came from and what kind it is, never the data it was about. */
export type LoggedError = {
  type: string;
  message: string;
  stack: string;
  /** Node's, Fastify's, ours, or the SQLSTATE of a database error. */
  code?: string;
  statusCode?: number;
  severity?: string;
  schema?: string;
  table?: string;
  column?: string;
  constraint?: string;
  routine?: string;
  syscall?: string;
  address?: string;
  port?: number;
  cause?: LoggedError;
  errors?: LoggedError[];
};

const STRING_FIELDS = [
  'code',
  'severity',
  'schema',
  'table',
  'column',
  'constraint',
  'routine',
  'syscall',
  'address',
] as const;
const MAX_DEPTH = 5;
const SQLSTATE = /^[0-9A-Z]{5}$/;
/**
 * PostgreSQL quotes both names and values in its messages (`constraint "users_email_unique"`,
 * `invalid input syntax for type integer: "abc"`): a quoted text is kept only after a word that
 * says it is a name.
 */
const NAME_WORDS = [
  'relation',
  'table',
  'column',
  'constraint',
  'index',
  'type',
  'schema',
  'sequence',
  'view',
  'trigger',
  'function',
  'domain',
  'database',
  'role',
  'extension',
  'parameter',
  'cursor',
  'portal',
  'savepoint',
  'statement',
  'channel',
  'publication',
  'subscription',
  'collation',
  'operator',
  'tablespace',
];
const QUOTED = new RegExp(`(\\b(?:${NAME_WORDS.join('|')}) )?"(?:[^"]|"")*"`, 'gi');

/**
 * The message without the values it may carry: Drizzle appends a query's bound parameters
 * (`\nparams: ada@example.com,$argon2id$…`), and PostgreSQL quotes offending values.
 */
function safeMessage(message: string, fromPostgres: boolean): string {
  const withoutParams = message.replace(/\nparams: [\s\S]*$/, '');
  if (!fromPostgres) return withoutParams;
  return withoutParams.replace(QUOTED, (whole, name: string | undefined) => (name ? whole : '"[redacted]"'));
}

function loggedError(err: unknown, depth: number): LoggedError {
  if (typeof err !== 'object' || err === null) return { type: typeof err, message: '[not an Error]', stack: '' };
  const source = err as Record<string, unknown>;
  const type = (err as { constructor?: { name?: unknown } }).constructor?.name;
  const code = source.code;
  const rawMessage = typeof source.message === 'string' ? source.message : '';
  const message = safeMessage(rawMessage, typeof code === 'string' && SQLSTATE.test(code));
  const name = typeof type === 'string' && type !== '' ? type : 'Object';
  // The stack starts with the raw message; keep its frames only, under the safe message.
  const stack = typeof source.stack === 'string' ? source.stack : '';
  const frames = stack.split('\n').filter((line) => /^\s+at /.test(line));
  const out: LoggedError = { type: name, message, stack: [`${name}: ${message}`, ...frames].join('\n') };
  for (const field of STRING_FIELDS) {
    const value = source[field];
    if (typeof value === 'string') out[field] = value;
  }
  if (typeof source.statusCode === 'number') out.statusCode = source.statusCode;
  if (typeof source.port === 'number') out.port = source.port;
  if (depth < MAX_DEPTH) {
    if (source.cause !== undefined) out.cause = loggedError(source.cause, depth + 1);
    if (Array.isArray(source.errors) && err instanceof AggregateError) {
      out.errors = source.errors.slice(0, 5).map((e: unknown) => loggedError(e, depth + 1));
    }
  }
  return out;
}

/**
 * Serializer of every `err` the service logs. Fields are taken by name, never copied wholesale:
 * database errors carry the statement's bound parameters (`params`, the failing row in `detail`,
 * `where`), which hold emails, addresses and password hashes.
 */
export function errorForLog(err: unknown): LoggedError {
  return loggedError(err, 0);
}

type LoggerOption = FastifyServerOptions['logger'];

/** The app's logger options, with `err` always written by errorForLog. */
export function withSafeErrorLogging(logger: LoggerOption): LoggerOption {
  if (logger === false || logger === undefined) return false;
  const options = logger === true ? {} : logger;
  return { ...options, serializers: { ...options.serializers, err: errorForLog } };
}
