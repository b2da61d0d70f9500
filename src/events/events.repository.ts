import { and, desc, eq, inArray, lt, type SQL } from 'drizzle-orm';
import type { Db, Statement } from '../db/client.js';
import { events, orders } from '../db/schema.js';
import { pageOf } from '../http/paging.js';
import { insertJobsFromJson } from '../jobs/jobs.repository.js';

export type EventRow = typeof events.$inferSelect;

/**
 * Jobs that the statement recording events enqueues itself, in SQL, because whether they are wanted is data their
 * subscriber keeps (which webhook endpoints take which types of event). The subscriber registers it with the outbox
 * while the app is built (`Outbox.fanOutInSql`; webhooks/ does, for the job scheduling deliveries): events/ knows
 * no subscriber.
 */
export interface SqlFanOut {
  /** The common table expression's name: it returns a row per job it enqueued. */
  name: string;
  /**
   * The CTE, `<name> as (...)`, over the relation `events` of the recording statement (columns `id` uuid, `type`,
   * `created_at` timestamptz, `data` jsonb).
   */
  sql(events: string): string;
}

/**
 * The fan-outs for a statement that records events as relation `events`: their CTEs, each after a comma (put the
 * text after another CTE), and an SQL expression counting the jobs they enqueued.
 */
export function fanOutSql(fanOuts: readonly SqlFanOut[], events: string): { ctes: string; jobs: string } {
  return {
    ctes: fanOuts.map((f) => `, ${f.sql(events)}`).join(''),
    jobs: fanOuts.length === 0 ? '0' : fanOuts.map((f) => `(select count(*)::integer from ${f.name})`).join(' + '),
  };
}

/**
 * An order or payment event's data with `market_code`, the code of the market its order was placed in (`m`, joined by
 * the order's `market_id` outside the default market), as the event is recorded; as it was for an order of the default
 * market or from before markets, as the order's admin answer names no market for them (decision 0031).
 */
const WITH_MARKET_CODE = (data: string) =>
  `case when m.code is null then ${data} else ${data} || jsonb_build_object('market_code', m.code) end`;

/**
 * Records events ($1: JSON rows with their position `n` in the call) and enqueues jobs ($2, see
 * `insertJobsFromJson`), in one statement: the events are of one order at most ($3, its id, or null) besides events of
 * no order. That order's `event_seq` goes up by its number of events ($4), and its events take the numbers in between,
 * in the call's order. The order is updated by its key: a join with the list of events was planned as a scan of
 * `orders` while the table was small, which a prepared statement keeps as it grows (decision 0041). The fan-outs
 * enqueue their jobs with them (`SqlFanOut`); every row answered says how many (`fan_out_jobs`).
 */
export function recordEventsStatement(fanOuts: readonly SqlFanOut[]): Statement {
  const fanOut = fanOutSql(fanOuts, 'recorded');
  return {
    name: ['events_record', ...fanOuts.map((f) => f.name)].join('+'),
    text: `with input as (
      select * from jsonb_to_recordset($1::jsonb)
        as e(n integer, id uuid, type text, order_id integer, payment_id integer, data jsonb)
    ), bumped as (
      update orders o set event_seq = o.event_seq + $4::integer where o.id = $3::integer
      returning o.id, o.event_seq - $4::integer as base, o.market_id
    ), recorded as (
      insert into events (id, type, order_id, payment_id, seq, data)
        select i.id, i.type, i.order_id, i.payment_id,
          b.base + row_number() over (partition by i.order_id order by i.n), ${WITH_MARKET_CODE('i.data')}
        from input i left join bumped b on b.id = i.order_id
        left join markets m on m.id = b.market_id and not m.is_default
        order by i.n
        returning id, type, seq, created_at, data
    ), queued as (
      ${insertJobsFromJson('$2')}
    )${fanOut.ctes}
    select id::text as id, seq, created_at, ${fanOut.jobs} as fan_out_jobs
    from recorded`,
  };
}

/**
 * Records events numbered by the caller, of orders whose change has just inserted them or holds their rows locked ($1:
 * JSON rows `{order_id, market_id, events: [{id, type, seq}], data}`, `market_id` the order's), and the fan-outs' jobs
 * (`SqlFanOut`); answers one row saying how many jobs these enqueued (`fan_out_jobs`). It reads no order: a lookup of
 * one planned while `orders` was small is a scan of it, which a prepared statement keeps as the table grows.
 */
export function recordNumberedEventsStatement(fanOuts: readonly SqlFanOut[]): Statement {
  const fanOut = fanOutSql(fanOuts, 'recorded');
  return {
    name: ['events_record_numbered', ...fanOuts.map((f) => f.name)].join('+'),
    text: `with recorded as (
      insert into events (id, type, order_id, seq, data)
        select e.id, e.type, n.order_id, e.seq, ${WITH_MARKET_CODE('n.data')}
        from jsonb_to_recordset($1::jsonb) as n(order_id integer, market_id integer, events jsonb, data jsonb)
        cross join lateral jsonb_to_recordset(n.events) as e(id uuid, type text, seq integer)
        left join markets m on m.id = n.market_id and not m.is_default
        returning id, type, created_at
    )${fanOut.ctes}
    select ${fanOut.jobs} as fan_out_jobs`,
  };
}

export interface EventFilter {
  type?: EventRow['type'];
  orderAlias?: string;
  /** Id of the last event of the previous page; events come newest first (ids are UUID v7: time first). */
  before?: string;
  limit: number;
}

/** A page of events, newest first, keyset-paginated on id. */
export async function listEvents(db: Db, filter: EventFilter) {
  const conditions: SQL[] = [];
  if (filter.type) conditions.push(eq(events.type, filter.type));
  if (filter.orderAlias !== undefined) {
    conditions.push(
      inArray(events.orderId, db.select({ id: orders.id }).from(orders).where(eq(orders.alias, filter.orderAlias))),
    );
  }
  if (filter.before !== undefined) conditions.push(lt(events.id, filter.before));
  const rows = await db
    .select()
    .from(events)
    .where(and(...conditions))
    .orderBy(desc(events.id))
    .limit(filter.limit + 1);
  return pageOf(rows, filter.limit, (event) => event.id);
}

export async function findEvent(db: Db, id: string): Promise<EventRow | undefined> {
  const [row] = await db.select().from(events).where(eq(events.id, id));
  return row;
}
