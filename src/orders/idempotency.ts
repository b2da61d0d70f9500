import { createHash } from 'node:crypto';
import { lt, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { Db, Statement, StatementCall, Tx } from '../db/client.js';
import { runStatement } from '../db/statement-sql.js';
import { idempotencyKeys } from '../db/schema.js';
import { DomainError } from '../shared/errors.js';

export const IDEMPOTENCY_TTL_HOURS = 24;

export interface StoredResponse {
  status: number;
  body: unknown;
}

/** A stable digest of what was asked: the operation and its payload with keys in a fixed order. */
export function requestHash(operation: string, payload: unknown): string {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(
        Object.keys(value)
          .sort()
          .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
      );
    }
    return value;
  };
  return createHash('sha256')
    .update(JSON.stringify([operation, canonical(payload)]))
    .digest('hex');
}

/** A request's Idempotency-Key as kept: scoped (to an order, a return…) and tied to what was asked. */
export interface IdempotencyClaim {
  scope: string;
  key: string;
  requestHash: string;
}

/** The claim of a request's Idempotency-Key, or undefined when it was sent without one. */
export function claimFor(input: {
  scope: string;
  requestKey: string | undefined;
  operation: string;
  payload: unknown;
}): IdempotencyClaim | undefined {
  const { scope, requestKey } = input;
  return requestKey === undefined
    ? undefined
    : { scope, key: requestKey, requestHash: requestHash(input.operation, input.payload) };
}

/** The Idempotency-Key header of a write, in its schema: the same request again with the key answers `what`. */
export const IdempotencyHeader = (what: string) =>
  Type.Object({
    'idempotency-key': Type.Optional(
      Type.String({
        description:
          `The same request again with the same key (within ${IDEMPOTENCY_TTL_HOURS} h) answers ${what}; with `
          + 'another body, 422 idempotency_key_reused',
      }),
    ),
  });

/** Checks the Idempotency-Key header: 1 to 255 visible ASCII characters. */
export function idempotencyKeyFrom(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !/^[\x21-\x7e]{1,255}$/.test(header)) {
    throw new DomainError('validation_error', {
      detail: 'Idempotency-Key must be 1 to 255 visible ASCII characters',
      errors: [{ field: 'headers.idempotency-key', message: 'is malformed' }],
    });
  }
  return header;
}

/** Deletes keys past their 24 hours; returns how many. */
export async function purgeExpiredIdempotencyKeys(db: Db): Promise<number> {
  const rows = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, sql`now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`))
    .returning({ key: idempotencyKeys.key });
  return rows.length;
}

const LIVE = `created_at > now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`;

/** The answer kept for key `$2` of scope `$1`, if it is younger than the keys live. */
export const findStoredResponse: Statement = {
  name: 'idempotency_find',
  text: `select request_hash, response_status, response_body from idempotency_keys
    where scope = $1 and key = $2 and ${LIVE}`,
};

/** Forgets key `$2` of scope `$1` if it has expired (so it can be kept again). */
const forgetExpiredKey: Statement = {
  name: 'idempotency_forget_expired',
  text: `delete from idempotency_keys where scope = $1 and key = $2 and not (${LIVE})`,
};

/** Keeps an answer (`$4` status, `$5` JSON body) for key `$2` of scope `$1` asked as `$3`, unless one is kept. */
const keepResponse: Statement = {
  name: 'idempotency_keep',
  text: `insert into idempotency_keys (scope, key, request_hash, response_status, response_body)
    values ($1, $2, $3, $4, $5::jsonb) on conflict do nothing`,
};

type StoredRow = { request_hash: string; response_status: number; response_body: unknown };

/** The statement that looks up a claim's answer (`storedResponseOf` reads its rows), or none without a claim. */
export const storedResponseCall = (claim: IdempotencyClaim | undefined): StatementCall =>
  claim && { statement: findStoredResponse, values: [claim.scope, claim.key] };

/** The answer kept for a claim, from `findStoredResponse`'s rows. The same key with another request is a 422. */
export function storedResponseOf(rows: readonly unknown[], claim: IdempotencyClaim): StoredResponse | undefined {
  const [stored] = rows as StoredRow[];
  if (!stored) return undefined;
  if (stored.request_hash !== claim.requestHash) {
    throw new DomainError('idempotency_key_reused', {
      detail: 'this Idempotency-Key was used with a different request; use a new key',
    });
  }
  return { status: stored.response_status, body: stored.response_body };
}

/** The statements that keep the first successful answer for a claim (a concurrent twin's is the same attempt). */
export const rememberResponseCalls = (claim: IdempotencyClaim, response: StoredResponse): StatementCall[] => [
  { statement: forgetExpiredKey, values: [claim.scope, claim.key] },
  {
    statement: keepResponse,
    values: [claim.scope, claim.key, claim.requestHash, response.status, JSON.stringify(response.body)],
  },
];

/**
 * The answer stored for this key, if any (for operations whose work can't sit inside one transaction, such as a
 * gateway call, too). The same key with another request is a 422.
 */
export async function storedResponse(db: Db | Tx, claim: IdempotencyClaim): Promise<StoredResponse | undefined> {
  const call = storedResponseCall(claim);
  return call && storedResponseOf(await runStatement(db, call.statement, call.values), claim);
}

/** Keeps the first successful answer for a key (a concurrent twin's answer is the same attempt). */
export async function rememberResponse(db: Db | Tx, claim: IdempotencyClaim, response: StoredResponse): Promise<void> {
  for (const call of rememberResponseCalls(claim, response)) {
    if (call) await runStatement(db, call.statement, call.values);
  }
}
