import { Webhook } from 'standardwebhooks';
import type { WebhookSettings } from '../config.js';
import type { Database, Db, Statement, Tx } from '../db/client.js';
import { runStatement } from '../db/statement-sql.js';
import { scheduleDeliveriesSql } from './delivery-schedule.js';
import { type Resolver, systemResolver } from './outbound-address.js';
import { nextRetryAt } from './retry-policy.js';
import { type ClaimedDelivery, deliveryStore } from './delivery-store.js';
import {
  type DeliveryRow,
  type DeliverySettlement,
  deliveryById,
  failWithoutAttempt,
} from './webhook-deliveries.repository.js';
import type { OutboundEvent } from './webhook-events.js';
import type { WebhookConnections } from './webhook-connections.js';
import { postWebhook } from './webhook-post.js';

/** A delivery made due by scheduleDeliveries (or a redelivery): the attempt to queue. */
export interface DueDelivery {
  id: number;
  dueAt: Date;
}

/**
 * The deliveries of one event, alone (recorded events get theirs from the `webhook.schedule` job their statement
 * enqueued: `scheduleEventDeliveries`): one pending delivery, due at once, for each active endpoint subscribed to
 * the event's type. Returns the deliveries made (none twice for an event and an endpoint, however often it is
 * called); a dispatcher attempts them once they are committed (`startDeliveryDispatcher`).
 */
export async function scheduleDeliveries(tx: Db | Tx, event: OutboundEvent): Promise<DueDelivery[]> {
  const rows = await runStatement<{ id: number; next_attempt_at: Date | string }>(tx, scheduleOne, [
    JSON.stringify([event]),
  ]);
  return rows.map((r) => ({ id: Number(r.id), dueAt: new Date(r.next_attempt_at) }));
}

/**
 * What the `webhook.schedule` job does: the deliveries of recorded events (`eventIds`), due at once, in one
 * statement, for the endpoints subscribed now. Running it again for the same events adds nothing (one delivery per
 * event and endpoint), so a job that ran before its worker died is safe to run again. Answers how many deliveries were
 * made; they are the dispatcher's work from then on (`startDeliveryDispatcher`).
 */
export async function scheduleEventDeliveries(
  database: Pick<Database, 'run'>,
  eventIds: readonly string[],
): Promise<number> {
  const [row] = await database.run<{ deliveries: number }>(scheduleRecorded, [eventIds]);
  return Number(row?.deliveries ?? 0);
}

const scheduleRecorded: Statement = {
  name: 'webhook_schedule_recorded',
  text: `with recorded as (
      select id, type, created_at, data from events where id = any($1::uuid[])
    ), ${scheduleDeliveriesSql('recorded')}
    select count(*)::integer as deliveries from webhook_scheduled`,
};

const scheduleOne: Statement = {
  name: 'webhook_schedule_deliveries',
  text: `with input as (
      select * from jsonb_to_recordset($1::jsonb) as e(id text, type text, created_at timestamptz, data jsonb)
    ), ${scheduleDeliveriesSql('input')}
    select id, next_attempt_at from webhook_scheduled`,
};

export interface DeliveryDeps {
  database: Database;
  settings: WebhookSettings;
  /** The clock (tests move it). */
  now?: () => Date;
  /** A number in [0, 1), the jitter of retry delays. */
  random?: () => number;
  /** DNS (tests resolve names their own way). */
  resolve?: Resolver;
  /** Kept-alive connections per endpoint; without, each attempt opens a connection of its own. */
  connections?: WebhookConnections;
}

/** What comes after an attempt: nothing (delivered), another attempt at `retryAt`, or nothing (given up). */
export type DeliveryNext = { kind: 'done' } | { kind: 'retry'; retryAt: Date } | { kind: 'failed' };

/** Time an attempt may take besides the endpoint's timeout (the database writes before and after). */
const LEASE_MARGIN_MS = 60_000;

function nextOf(row: Pick<DeliveryRow, 'status' | 'nextAttemptAt'>): DeliveryNext {
  if (row.status === 'succeeded') return { kind: 'done' };
  if (row.status === 'failed' || row.nextAttemptAt === null) return { kind: 'failed' };
  return { kind: 'retry', retryAt: row.nextAttemptAt };
}

/**
 * ONE attempt of delivery `deliveryId`, if it is due (tests and tools; the dispatcher claims due deliveries itself,
 * `claimDueDeliveries`, and attempts them with `attemptClaimed`). A delivery that is not due (settled, leased by a
 * concurrent attempt, or waiting) is left alone and reported as it stands.
 */
export async function runDelivery(deps: DeliveryDeps, deliveryId: number): Promise<DeliveryNext> {
  const attemptedAt = (deps.now ?? (() => new Date()))();
  const leaseUntil = attemptLeaseEnd(deps.settings, attemptedAt);
  const claimed = await deliveryStore(deps.database).claim({ id: deliveryId, now: attemptedAt, leaseUntil });
  if (!claimed) {
    // Not due or settled: reported as it stands. Gone (deleted with its endpoint): nothing is left to do.
    const current = await deliveryById(deps.database.db, deliveryId);
    return current ? nextOf(current) : { kind: 'failed' };
  }
  return attemptClaimed(deps, claimed, attemptedAt);
}

/** Until when a claim made at `attemptedAt` holds its delivery: the endpoint's timeout and a margin for the writes. */
export function attemptLeaseEnd(settings: Pick<WebhookSettings, 'timeoutMs'>, attemptedAt: Date): Date {
  return new Date(attemptedAt.getTime() + settings.timeoutMs + LEASE_MARGIN_MS);
}

/**
 * ONE attempt of a delivery claimed at `attemptedAt` (leased to this caller): signs the event envelope (Standard
 * Webhooks), POSTs it with the configured timeout, logs the attempt and decides what comes next: `done` (2xx),
 * `retry` at `retryAt` (with backoff, for 24 hours from the first attempt), or `failed` (given up, or the endpoint is
 * off). Holds no database connection while the endpoint is called, so a slow endpoint delays no other.
 */
export async function attemptClaimed(
  deps: DeliveryDeps,
  claimed: ClaimedDelivery,
  attemptedAt: Date,
): Promise<DeliveryNext> {
  const clock = deps.now ?? (() => new Date());
  const { delivery, endpoint } = claimed;
  const deliveryId = delivery.id;
  if (!endpoint?.isActive) {
    const reason = endpoint?.disabledReason ?? 'the endpoint is switched off';
    await failWithoutAttempt(deps.database.db, { id: deliveryId, reason: `not sent: ${reason}` });
    return { kind: 'failed' };
  }

  // jsonb keeps keys in an order of its own; the envelope's own fields go out in the documented order.
  const { id, type, created_at, data } = delivery.payload as OutboundEvent;
  const body = JSON.stringify({ id, type, created_at, data });
  const outcome = await postWebhook({
    url: endpoint.url,
    headers: {
      'webhook-id': delivery.messageId,
      'webhook-timestamp': String(Math.floor(attemptedAt.getTime() / 1000)),
      'webhook-signature': new Webhook(endpoint.secret).sign(delivery.messageId, attemptedAt, body),
    },
    body,
    timeoutMs: deps.settings.timeoutMs,
    policy: deps.settings,
    resolve: deps.resolve ?? systemResolver,
    agent: deps.connections?.for(endpoint.id, endpoint.url),
  });

  const finishedAt = clock();
  const settlement: DeliverySettlement = outcome.ok
    ? { status: 'succeeded', nextAttemptAt: null }
    : afterFailure(deps, { delivery, attemptedAt, failedAt: finishedAt });
  const { responseCode, durationMs, error, responseSnippet } = outcome;
  const recorded = await deliveryStore(deps.database).record({
    attempt: { deliveryId, attemptedAt, responseCode, durationMs, error, responseSnippet },
    settlement,
    lease: delivery.nextAttemptAt,
    endpoint: { id: endpoint.id, ok: outcome.ok, at: finishedAt },
  });
  return recorded ? nextOf(recorded) : { kind: 'failed' };
}

/** A failed attempt: pending until the next retry, or failed when the 24 hours are over. */
function afterFailure(
  deps: DeliveryDeps,
  input: { delivery: DeliveryRow; attemptedAt: Date; failedAt: Date },
): DeliverySettlement {
  const retryAt = nextRetryAt({
    schedule: { baseMs: deps.settings.retryBaseMs, maxDelayMs: deps.settings.retryMaxDelayMs },
    firstAttemptAt: input.delivery.firstAttemptAt ?? input.attemptedAt,
    failedAt: input.failedAt,
    attempts: input.delivery.attempts + 1,
    random: deps.random ?? Math.random,
  });
  return retryAt ? { status: 'pending', nextAttemptAt: retryAt } : { status: 'failed', nextAttemptAt: null };
}
