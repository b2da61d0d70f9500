import type { StatementCall } from '../db/client.js';
import { jobRow } from '../jobs/job-queue.js';
import { enqueueJobs } from '../jobs/jobs.repository.js';
import type { EventRef, EventType, Outbox } from './outbox.js';

/**
 * Events of an order, numbered already: of an order its own change has just inserted (a placement), or of a change of
 * an order whose row it holds locked (`lockedOrderEventStatements`).
 */
export interface NewOrderEvents {
  /** The order, with its market (its events' `market_code` outside the default market). */
  order: { id: number; alias: string; marketId: number | null };
  /**
   * Numbered from 1 for a new order (inserted with `event_seq` the number of its events); after the locked order's
   * last, whose row the change sets to the last of these.
   */
  events: readonly { type: EventType; seq: number }[];
  /** The order as the admin API shows it, as the change left it: what every one of these events carries. */
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
    market_id: order.marketId,
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

/** The events of one change of an order whose row the change holds locked and writes (`lockedOrderEventStatements`). */
export interface LockedOrderEventStatements extends NewOrderEventStatements {
  /** The order's `event_seq` once they are recorded: what the change's own update of the order's row sets. */
  eventSeq: number;
}

/**
 * The statements that record the events of a change of an order whose row the change has locked (so `eventSeq`, its
 * last event's number as read under the lock, is the order's) and updates itself: numbered after `eventSeq`, in the
 * call's order, each with its own data. The change sets the order's `event_seq` to the answer's `eventSeq` in its own
 * update, so the row gets one new version, not a second for the numbers (`recordEvents` bumps it for callers that do
 * not write the order's row).
 */
export function lockedOrderEventStatements(
  outbox: Outbox,
  order: { id: number; alias: string; marketId: number | null; eventSeq: number },
  events: readonly { type: EventType; data: Record<string, unknown> }[],
): LockedOrderEventStatements {
  const numbered = events.map(({ type, data }, i) => ({
    order: { id: order.id, alias: order.alias, marketId: order.marketId },
    events: [{ type, seq: order.eventSeq + 1 + i }],
    data,
  }));
  return { ...newOrderEventStatements(outbox, numbered), eventSeq: order.eventSeq + events.length };
}
