import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { webhookEndpoints } from '../db/schema.js';
import { DomainError } from '../shared/errors.js';
import { newWebhookSecret } from './webhook-secret.js';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type EndpointValues = Pick<typeof webhookEndpoints.$inferInsert, 'url' | 'events' | 'description' | 'isActive'>;

export const endpointNotFound = (id: number) =>
  new DomainError('webhook_endpoint_not_found', { detail: `webhook endpoint ${id} not found` });

export function listEndpoints(db: Db): Promise<EndpointRow[]> {
  return db.select().from(webhookEndpoints).orderBy(asc(webhookEndpoints.id));
}

export async function endpointById(db: Db, id: number): Promise<EndpointRow | undefined> {
  const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  return row;
}

export async function findEndpoint(db: Db, id: number): Promise<EndpointRow> {
  const row = await endpointById(db, id);
  if (!row) throw endpointNotFound(id);
  return row;
}

/** A new endpoint with a new signing secret. */
export async function createEndpoint(db: Db, values: EndpointValues): Promise<EndpointRow> {
  const [row] = await db
    .insert(webhookEndpoints)
    .values({ ...values, secret: newWebhookSecret() })
    .returning();
  if (!row) throw new Error('insert returned no webhook endpoint');
  return row;
}

/** Switching an endpoint on again forgets why it was off and how long it had been failing. */
export async function updateEndpoint(db: Db, id: number, values: Partial<EndpointValues>): Promise<EndpointRow> {
  const reactivated = values.isActive === true ? { disabledReason: null, failingSince: null } : {};
  const [row] = await db
    .update(webhookEndpoints)
    .set({ ...values, ...reactivated, updatedAt: new Date() })
    .where(eq(webhookEndpoints.id, id))
    .returning();
  if (!row) throw endpointNotFound(id);
  return row;
}

/** A new secret signs every delivery from now on; the old one stops at once. */
export async function rotateEndpointSecret(db: Db, id: number): Promise<EndpointRow> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ secret: newWebhookSecret(), updatedAt: new Date() })
    .where(eq(webhookEndpoints.id, id))
    .returning();
  if (!row) throw endpointNotFound(id);
  return row;
}

/** Deletes the endpoint with its deliveries and their log. */
export async function deleteEndpoint(db: Db, id: number): Promise<void> {
  const [row] = await db
    .delete(webhookEndpoints)
    .where(eq(webhookEndpoints.id, id))
    .returning({ id: webhookEndpoints.id });
  if (!row) throw endpointNotFound(id);
}
