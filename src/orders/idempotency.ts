import { createHash } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { Db, Tx } from '../db/client.js';
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

/**
 * For operations whose work can't sit inside one transaction (a gateway call): the answer stored
 * for this key, if any. The same key with another request is a 422.
 */
export async function storedResponse(
  db: Db | Tx,
  claim: { scope: string; key: string; requestHash: string },
): Promise<StoredResponse | undefined> {
  const [stored] = await db
    .select()
    .from(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.scope, claim.scope),
        eq(idempotencyKeys.key, claim.key),
        sql`${idempotencyKeys.createdAt} > now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`,
      ),
    );
  if (!stored) return undefined;
  if (stored.requestHash !== claim.requestHash) {
    throw new DomainError('idempotency_key_reused', {
      detail: 'this Idempotency-Key was used with a different request; use a new key',
    });
  }
  return { status: stored.responseStatus, body: stored.responseBody };
}

/** Keeps the first successful answer for a key (a concurrent twin's answer is the same attempt). */
export async function rememberResponse(
  db: Db | Tx,
  claim: { scope: string; key: string; requestHash: string },
  response: StoredResponse,
): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.scope, claim.scope),
        eq(idempotencyKeys.key, claim.key),
        lt(idempotencyKeys.createdAt, sql`now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`),
      ),
    );
  await db
    .insert(idempotencyKeys)
    .values({ ...claim, responseStatus: response.status, responseBody: response.body })
    .onConflictDoNothing();
}
