import type { Database, StatementCall } from '../db/client.js';
import { retryingDeadlocks } from '../db/errors.js';
import { Batcher, eachAloneOnFailure } from '../shared/batcher.js';
import { eventEffect } from './gateway-event-fold.js';
import {
  dropEvents,
  type EventMark,
  foundOf,
  markCall,
  matchValues,
  type PendingRow,
  pendingMoneyOf,
  pendingOfEventPayment,
  type RecordedRow,
  recordEventAndLock,
  recordValues,
  unmatchedMark,
} from './gateway-events.statements.js';
import type { GatewayEvent } from './payment-plugin.js';

/** A gateway's event to decide, of the plugin that parsed it. */
export interface EventToDecide {
  pluginId: string;
  event: GatewayEvent;
}

/**
 * What the first transaction did with an event: committed as a repeat, an event to ignore or one for no payment, or
 * marked with the payment it changes nothing on (`ignored`); `changes`: it changes its payment, nothing of it was kept,
 * and it is to be applied in full (gateway-events.ts).
 */
export type FirstOutcome = 'duplicate' | 'unmatched' | 'ignored' | 'changes';

export interface GatewayEventDecider {
  decide(item: EventToDecide): Promise<FirstOutcome>;
}

/** Events per batch at most: a batch holds its payments' locks until it commits. */
const MAX_BATCH = 32;
/** Attempts of a batch the database aborted for a deadlock (batches of two processes locking orders in turn). */
const DEADLOCK_ATTEMPTS = 3;

type Decided = { ok: true; outcome: FirstOutcome } | { ok: false; failure: unknown };

/**
 * The first transaction of a batch of events, two messages. The first stores each event, locks the payment it names
 * with its order and reads the payment's pending money (two statements per event, in arrival order). TypeScript folds
 * each into its payment as locked (`eventEffect`); an event that changes its payment, and every later one of that
 * payment in the batch, is left to the second transaction. The second message marks the others and removes the rows
 * of those left, with the COMMIT.
 */
async function decideBatch(database: Database, batch: readonly EventToDecide[]): Promise<FirstOutcome[]> {
  return database.transaction(async (tx) => {
    const calls: StatementCall[] = batch.flatMap(({ pluginId, event }) => [
      { statement: recordEventAndLock, values: recordValues(pluginId, event) },
      event.kind === 'ignored'
        ? undefined
        : { statement: pendingOfEventPayment, values: matchValues(pluginId, event.match) },
    ]);
    const rows = await tx.runTogether<unknown[]>(calls);
    const marks: EventMark[] = [];
    const dropped: number[] = [];
    const leftToApply = new Set<number>();
    const outcomes = batch.map(({ event }, i): FirstOutcome => {
      const found = foundOf(rows[2 * i]?.[0] as RecordedRow | undefined, event);
      if (found.is === 'unmatched') {
        const mark = unmatchedMark(found.eventRow, event);
        if (mark) marks.push(mark);
        return 'unmatched';
      }
      if (found.is !== 'matched') return found.is;
      const { payment } = found;
      // The pending read names the payment again: one that learnt an id of the event between the two statements
      // would answer for it. Then the second transaction decides, with the payment it locks.
      const pending = rows[2 * i + 1]?.[0] as PendingRow | undefined;
      const quiet =
        !leftToApply.has(payment.id)
        && pending?.id === payment.id
        && eventEffect(payment, pendingMoneyOf(pending), event).marksOnly;
      if (quiet) {
        marks.push({ id: found.eventRow, payment_id: payment.id, applied: false, pending_gateway_payment_ref: null });
        return 'ignored';
      }
      leftToApply.add(payment.id);
      dropped.push(found.eventRow);
      return 'changes';
    });
    await tx.commitWith([
      ...marks.map(markCall),
      dropped.length > 0 ? { statement: dropEvents, values: [dropped] } : undefined,
    ]);
    return outcomes;
  });
}

/**
 * The first transaction of a gateway's events, in batches as cart writes are (decision 0024): the events that arrive
 * while a batch is being decided go together in the next, one batch in flight per process. A batch that fails for
 * anything but a deadlock (retried) is decided again one event at a time, so one event's failure fails it alone.
 */
export function gatewayEventDecider(database: Database): GatewayEventDecider {
  const attempt = (batch: EventToDecide[]): Promise<FirstOutcome[]> =>
    retryingDeadlocks(() => decideBatch(database, batch), DEADLOCK_ATTEMPTS);
  const batcher = new Batcher<EventToDecide, Decided>(
    eachAloneOnFailure(async (batch) => (await attempt(batch)).map((outcome): Decided => ({ ok: true, outcome })), {
      failed: (failure) => ({ ok: false, failure }),
      passThrough: () => false,
    }),
    { maxBatch: MAX_BATCH, maxInFlight: 1 },
  );
  return {
    async decide(item) {
      const decided = await batcher.submit(item);
      if (!decided.ok) throw decided.failure;
      return decided.outcome;
    },
  };
}
