import type { SqlFanOut } from '../events/events.repository.js';

/**
 * The job that schedules the deliveries of recorded events (`scheduleEventDeliveries`), enqueued by the statement
 * that records them (`deliveriesJobSql`). Payload: `{ event_ids: string[] }`.
 */
export const WEBHOOK_SCHEDULE_JOB = 'webhook.schedule';

/** Whether endpoint row `endpoint` (an alias) takes events of type `type` (an SQL expression): who gets a delivery. */
const subscribed = (endpoint: string, type: string) =>
  `${endpoint}.is_active and ${type}::text = any(${endpoint}.events)`;

/** The ISO 8601 text of a timestamptz as `Date#toISOString` writes it (what the API shows). */
const isoText = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The deliveries of events, as common table expressions for a statement that schedules them (the `webhook.schedule`
 * job's, `scheduleEventDeliveries`; `scheduleDeliveries` for one event): `events` names a relation of the statement
 * with columns `id`, `type`, `created_at` (timestamptz) and `data` (jsonb). Each active endpoint subscribed to an
 * event's type gets one pending delivery, due at once, whose payload is the envelope receivers get
 * (`{id, type, created_at, data}`); an event already delivered to an endpoint gets no second one, so running it again
 * adds nothing. A delivery is due from the statement's time in whole milliseconds, the precision of the attempt's
 * clock (a JavaScript Date) that compares with it; a pending delivery due is the dispatcher's work
 * (`claimDueDeliveries`), with no job of its own (decision 0044). The endpoints read are locked FOR KEY SHARE: one
 * deleted meanwhile waits for the statement (and is then left out), so no delivery names a vanished endpoint. The
 * CTEs are `webhook_subscribed` and `webhook_scheduled` (returns `id` and `next_attempt_at`): put the text after
 * `with` or a comma.
 *
 * One home for who gets a delivery, with `subscribed`, which `deliveriesJobSql` asks too.
 */
export function scheduleDeliveriesSql(events: string): string {
  return `webhook_subscribed as (
      select s.id, s.is_active, s.events from webhook_endpoints s
      where s.is_active and s.events && array(select distinct e.type::text from ${events} e)
      for key share
    ), webhook_scheduled as (
      insert into webhook_deliveries (endpoint_id, event_id, event_type, message_id, payload, next_attempt_at)
        select s.id, e.id::text, e.type, 'msg_' || replace(gen_random_uuid()::text, '-', ''),
          jsonb_build_object('id', e.id::text, 'type', e.type, 'created_at', ${isoText('e.created_at')},
            'data', e.data),
          date_trunc('milliseconds', now())
        from ${events} e join webhook_subscribed s on ${subscribed('s', 'e.type')}
        order by e.created_at, s.id
        on conflict do nothing
        returning id, next_attempt_at
    )`;
}

/**
 * The job that will schedule the deliveries of events, as a common table expression for a statement that records
 * them (placement's, the outbox's): `events` names a relation of the statement with columns `id` (uuid), `type` and
 * `created_at`. One `webhook.schedule` job carries the ids of the events that an active endpoint is subscribed to;
 * there is none when no endpoint wants any of them. The deliveries themselves are written by that job
 * (decision 0018), so recording an event costs one small job row per statement, however many endpoints and events.
 * The CTE is `webhook_schedule_job` (returns the job's `id`): put the text after `with` or a comma.
 */
export function deliveriesJobSql(events: string): string {
  return `webhook_schedule_job as (
      insert into jobs (kind, payload)
        select '${WEBHOOK_SCHEDULE_JOB}',
          jsonb_build_object('event_ids', jsonb_agg(e.id::text order by e.created_at, e.id))
        from ${events} e
        where exists (select 1 from webhook_endpoints s where ${subscribed('s', 'e.type')})
        having count(*) > 0
        returning id
    )`;
}

/**
 * The fan-out the outbox runs with every statement that records events (`deliveriesJobSql`), registered with it by
 * `registerWebhookDeliveries` while the app is built.
 */
export const deliveriesFanOut: SqlFanOut = { name: 'webhook_schedule_job', sql: deliveriesJobSql };
