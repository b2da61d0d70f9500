import type { Statement, StatementCall } from '../db/client.js';
import { jobRow } from '../jobs/job-queue.js';
import { enqueueJobs } from '../jobs/jobs.repository.js';
import type { EventRef, EventType, Outbox } from './outbox.js';

/** The events of an order its own change has just inserted (a placement), numbered already. */
export interface NewOrderEvents {
  order: { id: number; alias: string };
  /** Numbered from 1: the order was inserted with `event_seq` the number of its events. */
  events: readonly { type: EventType; seq: number }[];
  /** The order as the admin API shows it, as inserted: what every one of its events carries. */
  data: Record<string, unknown>;
}

export interface NewOrderEventStatements {
  /** The statements, to send in the orders' transaction (with its COMMIT: `Transaction.commitWith`). */
  calls: StatementCall[];
  /**
   * Once the transaction has committed, with the calls' answers: wakes this process's worker when jobs were enqueued,
   * and tells the outbox's committed listeners.
   */
  committed(answers: readonly unknown[][]): void;
}

/** Records events numbered by the caller ($1: JSON rows `{order_id, events: [{id, type, seq}], data}`). */
const recordNumberedEvents: Statement = {
  name: 'events_record_numbered',
  text: `insert into events (id, type, order_id, seq, data)
    select e.id, e.type, n.order_id, e.seq, n.data
    from jsonb_to_recordset($1::jsonb) as n(order_id integer, events jsonb, data jsonb)
    cross join lateral jsonb_to_recordset(n.events) as e(id uuid, type text, seq integer)`,
};

/**
 * The statements that record the events of new orders and their work, in the orders' transaction: the events; the
 * jobs the outbox's subscribers ask for, if any; and each statement subscriber's (`Outbox.onEventsInDatabase`). Each
 * event gets its id here, in the orders' order, so ids follow the order of writing. No I/O: the caller sends them.
 */
export function newOrderEventStatements(outbox: Outbox, orders: readonly NewOrderEvents[]): NewOrderEventStatements {
  const refs: EventRef[] = [];
  const rows = orders.map(({ order, events, data }) => ({
    order_id: order.id,
    events: events.map(({ type, seq }) => {
      const id = outbox.newEventId();
      refs.push({ id, type, orderAlias: order.alias, paymentId: null, data });
      return { id, type, seq };
    }),
    data,
  }));
  const jobs = outbox.jobsFor(refs);
  const subscribers = refs.length > 0 ? outbox.statementSubscribers() : [];
  const recorded = subscribers.length > 0 ? JSON.stringify(refs.map(({ id, type }) => ({ id, type }))) : '';
  const calls: StatementCall[] = [
    refs.length > 0 ? { statement: recordNumberedEvents, values: [JSON.stringify(rows)] } : undefined,
    jobs.length > 0 ? { statement: enqueueJobs, values: [JSON.stringify(jobs.map(jobRow))] } : undefined,
    ...subscribers.map((statement) => ({ statement, values: [recorded] })),
  ];
  return {
    calls,
    committed(answers) {
      if (jobs.length > 0 || answers.some((rows) => rows.length > 0)) outbox.jobs.wake();
      outbox.committed(refs);
    },
  };
}
