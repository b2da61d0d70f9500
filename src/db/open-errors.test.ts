import { describe, expect, it } from 'vitest';
import { asOpenError, DatabaseOpenError, describeOpenFailure, redactedDatabaseUrl } from './open-errors.js';

/** An error shaped like node-postgres's DatabaseError. */
function serverError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code, severity: 'FATAL' });
}

function networkError(code: string): Error {
  return Object.assign(new Error(`connect ${code} db.internal:5432`), { code });
}

const url = 'postgres://shop:hunter2@db.internal:6432/shop';

describe('start-up database failures an operator fixes', () => {
  it('names a wrong password and shows DATABASE_URL with the password masked', () => {
    const line = describeOpenFailure(serverError('28P01', 'password authentication failed for user "shop"'), url);
    expect(line).toBe(
      'PostgreSQL at db.internal:6432 refused: '
        + 'password authentication failed for user "shop" (SQLSTATE 28P01); '
        + 'DATABASE_URL=postgres://shop:****@db.internal:6432/shop',
    );
  });

  it('names an unknown host, a refused connection, a timeout and a missing database', () => {
    expect(describeOpenFailure(networkError('ENOTFOUND'), url)).toMatch(
      /^cannot connect to PostgreSQL at db.internal:6432: unknown host;/,
    );
    expect(describeOpenFailure(networkError('ECONNREFUSED'), url)).toMatch(/connection refused/);
    expect(describeOpenFailure(new Error('timeout exceeded when trying to connect'), url)).toMatch(/no answer in time/);
    // Node reports a host with several addresses as one AggregateError.
    const several = new AggregateError([networkError('ECONNREFUSED')], 'connect failed');
    expect(describeOpenFailure(several, url)).toMatch(/connection refused/);
    expect(describeOpenFailure(serverError('3D000', 'database "shop" does not exist'), url)).toMatch(
      /^PostgreSQL at db.internal:6432: database "shop" does not exist \(SQLSTATE 3D000\); create it first;/,
    );
  });

  it('finds the server error where Drizzle wrapped it', () => {
    const denied = serverError('42501', 'permission denied for schema public');
    const wrapped = new Error('Failed query: create table …', { cause: denied });
    expect(describeOpenFailure(wrapped, url)).toMatch(
      /refused: permission denied for schema public \(SQLSTATE 42501\)/,
    );
  });

  it('leaves anything else as it is, so that a bug keeps its stack', () => {
    const bug = new TypeError('cannot read properties of undefined');
    expect(describeOpenFailure(bug, url)).toBeUndefined();
    expect(asOpenError(bug, url)).toBe(bug);
    expect(asOpenError(serverError('42P01', 'relation "x" does not exist'), url)).not.toBeInstanceOf(DatabaseOpenError);
    expect(asOpenError(networkError('ECONNREFUSED'), url)).toBeInstanceOf(DatabaseOpenError);
  });

  it('masks a password given as a parameter and keeps URLs without one as they are', () => {
    expect(redactedDatabaseUrl('postgres://shop@db/shop?password=hunter2&sslmode=require')).toBe(
      'postgres://shop@db/shop?password=****&sslmode=require',
    );
    const plain = 'postgres://postgres@127.0.0.1:5432/postgres';
    expect(redactedDatabaseUrl(plain)).toBe(plain);
    expect(redactedDatabaseUrl('not a url hunter2')).not.toContain('hunter2');
  });
});
