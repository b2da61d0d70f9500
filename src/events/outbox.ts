import type { Statement, StatementCall, Tx } from '../db/client.js';
import type { eventTypes } from '../db/schema.js';
import { runStatement } from '../db/statement-sql.js';
import { type JobQueue, type JobRequest, jobRow } from '../jobs/job-queue.js';
import { EventIds } from './event-ids.js';
import { recordEventsStatement, recordNumberedEventsStatement, type SqlFanOut } from './events.repository.js';

export type EventType = (typeof eventTypes)[number];

/** What a subscriber is told of an event: enough to enqueue work that reads the rest (`findEvent`) when it runs. */
export interface EventRef {
  /** The event's id (a UUID v7), stable: deliveries and logs name it. */
  id: string;
  type: EventType;
  /** The order the event is about (order.* and payment.* events). */
  orderAlias: string | null;
  /** The payment, for payment.* events. */
  paymentId: number | null;
  /**
   * The order (or payment) as the event carries it, to choose the work by (which email an order.status_changed
   * calls for, say). At placement the database fills in a few fields as it writes (the order's id, timestamps).
   */
  data: Readonly<Record<string, unknown>>;
}

/**
 * Per-event work: the jobs to enqueue for an event, in the event's own transaction, so the work exists exactly when
 * the event does. Pure (no I/O): the statements recording events enqueue these jobs with them (`recordEvents`, and
 * `newOrderEventStatements` for a placement's). Work that needs the database belongs in the job, which reads it when
 * it runs. (Jobs that depend on data the subscriber keeps, such as
 * the webhook endpoints subscribed, are enqueued by the statement recording the events itself: `Outbox.fanOutInSql`.)
 */
export type EventSubscriber = (event: EventRef) => JobRequest | readonly JobRequest[] | undefined;

/**
 * Told of an event in the process that recorded it, once its transaction has committed: for what follows an event
 * and needs neither the database nor a retry (a log line). Not called for an event whose change rolled back, nor in
 * other processes. It must not throw (the change has committed; what it throws is reported as a warning and dropped).
 */
export type CommittedListener = (event: EventRef) => void;

/**
 * The event subscribers of this service, and the job queue their jobs go to. Built once per app (src/app.ts) next to
 * the JobQueue; modules subscribe while the app is built (`outbox.onEvent('order.placed', (e) => ({...}))`).
 */
export class Outbox {
  readonly #subscribers: { type: EventType | '*'; subscriber: EventSubscriber }[] = [];
  readonly #listeners: { type: EventType | '*'; listener: CommittedListener }[] = [];
  readonly #ids = new EventIds();
  readonly #fanOuts: SqlFanOut[] = [];
  #recordStatement: Statement | undefined;
  #recordNumberedStatement: Statement | undefined;

  constructor(readonly jobs: JobQueue) {}

  /** A new event id: a UUID v7, increasing within this process. */
  newEventId(): string {
    return this.#ids.next();
  }

  /** Subscribes to one type of event, or to every type with '*'. */
  onEvent(type: EventType | '*', subscriber: EventSubscriber): void {
    this.#subscribers.push({ type, subscriber });
  }

  /** Listens to one type of event, or to every type with '*', once each has committed (`CommittedListener`). */
  onCommitted(type: EventType | '*', listener: CommittedListener): void {
    this.#listeners.push({ type, listener });
  }

  /**
   * Has the statements that record events enqueue jobs themselves, in SQL (`SqlFanOut`): for a subscriber whose jobs
   * depend on data it keeps. Register while the app is built, before any event is recorded.
   */
  fanOutInSql(fanOut: SqlFanOut): void {
    if (this.#recordStatement || this.#recordNumberedStatement)
      throw new Error(`fan-out ${fanOut.name} registered after events were recorded`);
    this.#fanOuts.push(fanOut);
  }

  /** The statement that records events with this outbox's fan-outs (`recordEvents`), built once. */
  recordStatement(): Statement {
    this.#recordStatement ??= recordEventsStatement(this.#fanOuts);
    return this.#recordStatement;
  }

  /** The statement that records the numbered events of new orders with this outbox's fan-outs, built once. */
  recordNumberedStatement(): Statement {
    this.#recordNumberedStatement ??= recordNumberedEventsStatement(this.#fanOuts);
    return this.#recordNumberedStatement;
  }

  /** Whether anyone listens for committed events (if not, the recorders need not keep them). */
  hasCommittedListeners(): boolean {
    return this.#listeners.length > 0;
  }

  /** Tells the listeners of these events, which have committed (`recordEvents` does; placement, after its batch). */
  committed(events: readonly EventRef[]): void {
    for (const event of events) {
      for (const { type, listener } of this.#listeners) {
        if (type !== '*' && type !== event.type) continue;
        try {
          listener(event);
        } catch (err) {
          process.emitWarning(err instanceof Error ? err : new Error(String(err)), 'CommittedListenerWarning');
        }
      }
    }
  }

  /** The jobs the subscribers want for these events, in subscription order. */
  jobsFor(events: readonly EventRef[]): JobRequest[] {
    const out: JobRequest[] = [];
    for (const event of events) {
      for (const { type, subscriber } of this.#subscribers) {
        if (type !== '*' && type !== event.type) continue;
        const jobs = subscriber(event);
        if (jobs === undefined) continue;
        if (Array.isArray(jobs)) out.push(...(jobs as readonly JobRequest[]));
        else out.push(jobs as JobRequest);
      }
    }
    return out;
  }
}

/** An event to record: what happened, to which order (and payment), and the subject as the admin API shows it. */
export interface NewEvent {
  type: EventType;
  /** The order it is about: the event takes the order's next sequence number. Null for an event about no order. */
  order: { id: number; alias: string } | null;
  paymentId?: number | null;
  /** The order (or payment) as the admin API shows it, after the change. */
  data: Record<string, unknown>;
}

export interface RecordedEvent {
  id: string;
  type: EventType;
  /** Its number among its order's events (1, 2, 3…); null without an order. */
  seq: number | null;
  createdAt: Date;
}

/** The recording of events as one statement call (`eventRecording`), and what follows once it has committed. */
export interface EventRecording {
  /** The statement that records the events and enqueues their jobs; undefined when there are none. */
  call: StatementCall;
  /** The events as recorded, in order: their ids and types. */
  events: readonly { id: string; type: EventType }[];
  /**
   * Once the transaction has committed, with the call's rows: wakes this process's worker when jobs were enqueued,
   * and tells the outbox's committed listeners.
   */
  committed(rows: readonly unknown[]): void;
}

/**
 * The statement that records events in the transaction of the change they report, with the jobs their subscribers
 * ask for: each takes its order's next sequence number (the order's row is updated, so concurrent changes of one order
 * are numbered one after the other; the callers hold the row's lock already). The events of one change are of one
 * order at most, besides events of no order (it throws otherwise). No I/O: `recordEvents` runs it on a Drizzle
 * transaction; a change written through `Database.transaction` sends it with its own statements.
 */
export function eventRecording(outbox: Outbox, events: readonly NewEvent[]): EventRecording {
  const rows = events.map((e, n) => ({
    n,
    id: outbox.newEventId(),
    type: e.type,
    order_id: e.order?.id ?? null,
    payment_id: e.paymentId ?? null,
    data: e.data,
  }));
  const refs = rows.map((r, n) => ({
    id: r.id,
    type: r.type,
    orderAlias: events[n]?.order?.alias ?? null,
    paymentId: r.payment_id,
    data: r.data,
  }));
  const jobs = outbox.jobsFor(refs);
  const orderIds = new Set(rows.flatMap((r) => (r.order_id === null ? [] : [r.order_id])));
  if (orderIds.size > 1) throw new Error(`events of ${orderIds.size} orders recorded together: one order per change`);
  const [orderId = null] = orderIds;
  const ofOrder = rows.filter((r) => r.order_id !== null).length;
  return {
    call:
      rows.length === 0
        ? undefined
        : {
            statement: outbox.recordStatement(),
            values: [JSON.stringify(rows), JSON.stringify(jobs.map(jobRow)), orderId, ofOrder],
          },
    events: rows,
    committed(recorded) {
      if (jobs.length > 0 || (recorded as { fan_out_jobs: number }[]).some((r) => r.fan_out_jobs > 0))
        outbox.jobs.wake();
      outbox.committed(refs);
    },
  };
}

/**
 * Records events in the Drizzle transaction `tx` of the change they report (`eventRecording`, one statement). Run the
 * transaction with `outbox.jobs.transaction(db, …)` so this process's worker is woken for the jobs, and the committed
 * listeners are told, once it commits.
 */
export async function recordEvents(tx: Tx, outbox: Outbox, events: readonly NewEvent[]): Promise<RecordedEvent[]> {
  const recording = eventRecording(outbox, events);
  if (!recording.call) return [];
  const recorded = await runStatement<{
    id: string;
    seq: number | null;
    created_at: Date | string;
    fan_out_jobs: number;
  }>(tx, recording.call.statement, recording.call.values);
  outbox.jobs.afterCommit(tx, () => recording.committed(recorded));
  const byId = new Map(recorded.map((r) => [r.id, r]));
  return recording.events.map((r) => {
    const row = byId.get(r.id);
    if (!row) throw new Error(`event ${r.id} was not recorded`);
    return {
      id: r.id,
      type: r.type,
      seq: row.seq,
      createdAt: row.created_at instanceof Date ? row.created_at : new Date(row.created_at),
    };
  });
}
