import { and, asc, desc, eq, lt, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import { webhookAttempts, webhookDeliveries, type webhookDeliveryStatuses, webhookEndpoints } from '../db/schema.js';
import { type KeysetPage, pageOf } from '../http/paging.js';
import { DomainError } from '../shared/errors.js';
import { endpointNotFound } from './webhook-endpoints.repository.js';

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;
export type DeliveryStatus = (typeof webhookDeliveryStatuses)[number];

export const deliveryNotFound = (id: number) =>
  new DomainError('webhook_delivery_not_found', { detail: `webhook delivery ${id} not found` });

export async function deliveryById(db: Db | Tx, id: number): Promise<DeliveryRow | undefined> {
  const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  return row;
}

export async function findDelivery(db: Db | Tx, id: number): Promise<DeliveryRow> {
  const row = await deliveryById(db, id);
  if (!row) throw deliveryNotFound(id);
  return row;
}

export function attemptsOf(db: Db, deliveryId: number): Promise<AttemptRow[]> {
  return db
    .select()
    .from(webhookAttempts)
    .where(eq(webhookAttempts.deliveryId, deliveryId))
    .orderBy(asc(webhookAttempts.id));
}

/** An endpoint's deliveries, newest first, optionally of one status; `before` is the last id of the previous page. */
export async function listDeliveries(
  db: Db,
  query: { endpointId: number; status?: DeliveryStatus; limit: number; before?: number },
): Promise<KeysetPage<DeliveryRow, number>> {
  const [endpoint] = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.id, query.endpointId));
  if (!endpoint) throw endpointNotFound(query.endpointId);
  const conditions: SQL[] = [eq(webhookDeliveries.endpointId, query.endpointId)];
  if (query.status !== undefined) conditions.push(eq(webhookDeliveries.status, query.status));
  if (query.before !== undefined) conditions.push(lt(webhookDeliveries.id, query.before));
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(and(...conditions))
    .orderBy(desc(webhookDeliveries.id))
    .limit(query.limit + 1);
  return pageOf(rows, query.limit, (delivery) => delivery.id);
}

export interface AttemptRecord {
  deliveryId: number;
  attemptedAt: Date;
  responseCode: number | null;
  durationMs: number;
  error: string | null;
  responseSnippet: string | null;
}

/** Where the delivery goes after an attempt: settled, or pending until `nextAttemptAt`. */
export type DeliverySettlement =
  | { status: 'succeeded' | 'failed'; nextAttemptAt: null }
  | { status: 'pending'; nextAttemptAt: Date };

/** A pending delivery whose endpoint is off fails without an attempt; a redelivery by hand can send it later. */
export async function failWithoutAttempt(db: Db, input: { id: number; reason: string }): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ status: 'failed', nextAttemptAt: null, lastError: input.reason, updatedAt: new Date() })
    .where(and(eq(webhookDeliveries.id, input.id), eq(webhookDeliveries.status, 'pending')));
}

/**
 * Makes a delivery pending and due at `now`, with a fresh retry window; its endpoint must be active. Runs in the
 * caller's transaction.
 */
export async function resetForRedelivery(tx: Tx, input: { id: number; now: Date }): Promise<DeliveryRow> {
  const [current] = await tx
    .select({ delivery: webhookDeliveries, endpointActive: webhookEndpoints.isActive })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(eq(webhookDeliveries.id, input.id))
    .for('update', { of: webhookDeliveries });
  if (!current) throw deliveryNotFound(input.id);
  if (!current.endpointActive) {
    throw new DomainError('webhook_endpoint_inactive', {
      detail: `webhook endpoint ${current.delivery.endpointId} is switched off; switch it on (is_active) first`,
    });
  }
  const [row] = await tx
    .update(webhookDeliveries)
    .set({ status: 'pending', nextAttemptAt: input.now, firstAttemptAt: null, updatedAt: input.now })
    .where(eq(webhookDeliveries.id, input.id))
    .returning();
  if (!row) throw deliveryNotFound(input.id);
  return row;
}
