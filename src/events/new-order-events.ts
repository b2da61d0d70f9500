import type { StatementCall } from '../db/client.js';
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

/**
 * The statements that record the events of new orders and their work, in the orders' transaction: the events with
 * the jobs the outbox's fan-outs enqueue in SQL (`Outbox.fanOutInSql`), and the jobs its subscribers ask for, if any.
 * Each event gets its id here, in the orders' order, so ids follow the order of writing. No I/O: the caller sends them.
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
  const calls: StatementCall[] = [
    refs.length > 0 ? { statement: outbox.recordNumberedStatement(), values: [JSON.stringify(rows)] } : undefined,
    jobs.length > 0 ? { statement: enqueueJobs, values: [JSON.stringify(jobs.map(jobRow))] } : undefined,
  ];
  return {
    calls,
    committed(answers) {
      const fannedOut = (answers[0] as { fan_out_jobs: number }[] | undefined)?.some((row) => row.fan_out_jobs > 0);
      if (jobs.length > 0 || fannedOut) outbox.jobs.wake();
      outbox.committed(refs);
    },
  };
}
