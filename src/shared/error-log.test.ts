import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { errorForLog } from './error-log.js';

/** The fields node-postgres and PGlite give a failed statement. */
function postgresError(fields: Record<string, unknown>): Error {
  return Object.assign(new Error(String(fields.message)), { severity: 'ERROR', schema: 'public', ...fields });
}

describe('errorForLog', () => {
  it('keeps the SQLSTATE, table and constraint of a query error, not its parameters, failing row or context', () => {
    const cause = postgresError({
      message: 'new row for relation "users" violates check constraint "users_email_check"',
      code: '23514',
      table: 'users',
      constraint: 'users_email_check',
      detail: 'Failing row contains (7, ada@example.com, $argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA).',
      where: 'SQL statement "insert into users values (\'ada@example.com\')"',
      params: ['ada@example.com', '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA'],
    });
    const err = new DrizzleQueryError(
      'insert into "users" ("email", "password_hash") values ($1, $2)',
      ['ada@example.com', '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA'],
      cause,
    );

    const logged = errorForLog(err);
    const text = JSON.stringify(logged);
    expect(text).not.toContain('ada@example.com');
    expect(text).not.toContain('$argon2id');
    expect(logged).toMatchObject({
      type: 'DrizzleQueryError',
      message: 'Failed query: insert into "users" ("email", "password_hash") values ($1, $2)',
      cause: { code: '23514', table: 'users', constraint: 'users_email_check', severity: 'ERROR' },
    });
    expect(logged.stack).toMatch(/^DrizzleQueryError: Failed query: insert[^\n]*\n\s+at /);
  });

  it('hides the values PostgreSQL quotes in a message and keeps the names it quotes', () => {
    const logged = errorForLog(
      postgresError({
        message: 'invalid input syntax for type integer: "Ada Lovelace"; column "email" of relation "users"',
        code: '22P02',
      }),
    );
    expect(logged.message).toBe(
      'invalid input syntax for type integer: "[redacted]"; column "email" of relation "users"',
    );
    expect(logged.stack).not.toContain('Ada Lovelace');
  });

  it('keeps what locates an unreachable database', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
      syscall: 'connect',
      address: '127.0.0.1',
      port: 5432,
    });
    expect(errorForLog(new AggregateError([refused], ''))).toMatchObject({
      type: 'AggregateError',
      errors: [{ code: 'ECONNREFUSED', syscall: 'connect', address: '127.0.0.1', port: 5432 }],
    });
  });

  it('logs something readable for a thrown non-error', () => {
    expect(errorForLog('ada@example.com')).toEqual({ type: 'string', message: '[not an Error]', stack: '' });
  });
});
