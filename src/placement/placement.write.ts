import { type Database, DeadlineExceeded, type Transaction } from '../db/client.js';
import { pgError } from '../db/errors.js';
import { type NewOrderEvents, newOrderEventStatements } from '../events/new-order-events.js';
import type { Outbox } from '../events/outbox.js';
import type { StoredResponse } from '../orders/idempotency.js';
import { Batcher, eachAloneOnFailure, NotWritten, type NotWrittenReason } from '../shared/batcher.js';
import { withInsertedFields } from './placement-events.js';
import { type Decision, decideBatch, type LockedState } from './placement.decide.js';
import {
  type BuyerRow,
  buyerArguments,
  buyersRead,
  claimArguments,
  keyStates,
  type LockedRow,
  lockArguments,
  type PlacementWrite,
  readLocked,
  type StoredRow,
  wantedKeys,
  type WrittenRow,
  writeArguments,
} from './placement.repository.js';
import { buyerCounts, claimKeys, lockAndRead, storedAnswers, writeDecided } from './placement.statements.js';

export type { PlacementWrite } from './placement.repository.js';

export type PlacementOutcome =
  | { outcome: 'placed'; orderId: number; status: string }
  | { outcome: 'replayed'; stored: StoredResponse }
  | Extract<Decision, { outcome: 'refused' }>;

export interface PlacementWriter {
  /**
   * Writes a priced placement with the others that arrived meanwhile, in one transaction, by `deadline` (epoch ms):
   * placed, replayed (the key's stored answer), or refused (then nothing of it was written). Throws `DatabaseBusy`
   * when the database could not take it in time; then nothing of it was written either.
   */
  write(placement: PlacementWrite, deadline: number): Promise<PlacementOutcome>;
}

/**
 * The database could not take the placement in time: too many were waiting, or its deadline passed (queued,
 * waiting for a connection, or waiting on a lock). Nothing of it was written.
 */
export class DatabaseBusy extends Error {
  constructor(readonly reason: NotWrittenReason) {
    super(
      reason === 'queue_full'
        ? 'too many placements waiting for the database'
        : 'the database did not take the placement in time',
    );
    this.name = 'DatabaseBusy';
  }
}

/** What the writer reports to the service's metrics. */
export interface PlacementMetrics {
  /** A batch of this many placements went to the database. */
  batchSent(size: number): void;
  /** This many orders were placed (committed; replays of an idempotency key not counted). */
  ordersPlaced(count: number): void;
  /** A placement was refused with `DatabaseBusy`. */
  refused(reason: NotWrittenReason): void;
}

/** Whether a transaction was cut short by the lock_timeout its deadline set (55P03): it was rolled back. */
function lockWaitTimedOut(err: unknown): boolean {
  return pgError(err)?.code === '55P03';
}

/**
 * Whether PostgreSQL aborted the statement for a deadlock or a serialization failure (two batches taking the same
 * variants can meet head-on); nothing of it was written.
 */
export function isConflict(err: unknown): boolean {
  const code = pgError(err)?.code;
  return code === '40P01' || code === '40001';
}

/**
 * Orders per batch at most: a batch holds its rows' locks until it commits, so a larger one makes the next wait
 * longer.
 */
const MAX_BATCH = 32;

type Decided = { ok: true; outcome: PlacementOutcome } | { ok: false; failure: unknown };

/**
 * The first message of a batch: claims its keys and reads the answers of all of them (a statement of its own: it must
 * see what the claim's wait let commit; the claimed ones are told apart by the claim's rows), locks and reads, and
 * counts the buyers' uses of their codes. The claim and answers go only with idempotency keys, the counts only with
 * promotions. Answers what the decision needs, and the carts and claims the write needs.
 */
async function readUnderLock(tx: Transaction, batch: readonly PlacementWrite[], now: Date) {
  const wanted = wantedKeys(batch);
  const claims = claimArguments([...wanted.values()]);
  const keyed = wanted.size > 0;
  const buyers = buyerArguments(batch);
  const [claimedRows, storedRows, lockedRows, buyerRows] = await tx.runTogether<
    [{ scope: string; key: string }, StoredRow, LockedRow, BuyerRow]
  >([
    keyed ? { statement: claimKeys, values: claims.claim } : undefined,
    keyed ? { statement: storedAnswers, values: claims.stored } : undefined,
    { statement: lockAndRead, values: lockArguments(batch) },
    buyers.length > 0 ? { statement: buyerCounts, values: [JSON.stringify(buyers)] } : undefined,
  ]);
  const { keys, claimed } = keyStates(wanted, claimedRows, storedRows);
  const locked = readLocked(lockedRows);
  const state: LockedState = { ...locked.state, keys, buyers: buyersRead(buyerRows), now };
  return { state, claimed, carts: locked.carts };
}

/** Each placement's answer once its batch has committed; one whose answer is missing fails alone. */
function outcomesOf(batch: readonly PlacementWrite[], decisions: readonly Decision[], rows: WrittenRow[]): Decided[] {
  const written = new Map(rows.map((r) => [r.n, r]));
  const failed = (message: string): Decided => ({ ok: false, failure: new Error(message) });
  const decided = (n: number): Decided => {
    const decision = decisions[n];
    switch (decision?.outcome) {
      case undefined:
        return failed(`no decision for placement ${n} of the batch`);
      case 'placed': {
        const row = written.get(n);
        if (!row) return failed(`placement ${n} of the batch was decided but not written`);
        return { ok: true, outcome: { outcome: 'placed', orderId: Number(row.id), status: row.status } };
      }
      case 'replayed':
        return { ok: true, outcome: { outcome: 'replayed', stored: decision.stored } };
      case 'same_as': {
        // Not placed again: it is answered as the earlier placement of the batch with its key.
        const first = decided(decision.index);
        if (!first.ok || first.outcome.outcome !== 'placed') {
          return failed('a placement answered as another that was not placed');
        }
        const body = {
          ...batch[decision.index]?.response,
          order_id: first.outcome.orderId,
          status: first.outcome.status,
        };
        return { ok: true, outcome: { outcome: 'replayed', stored: { status: 201, body } } };
      }
      case 'refused':
        return { ok: true, outcome: decision };
    }
  };
  return batch.map((_, n) => decided(n));
}

/** The placed orders' events, with what the insert filled in, as the outbox records them. */
function placedOrderEvents(batch: readonly PlacementWrite[], rows: readonly WrittenRow[]): NewOrderEvents[] {
  return rows.flatMap((row) => {
    const w = batch[row.n];
    if (!w) return [];
    const { events, data } = withInsertedFields(w.events, row);
    return [{ order: { id: Number(row.id), alias: w.order.alias, marketId: w.order.marketId }, events, data }];
  });
}

/**
 * One batch in one transaction, whatever the batch's size. The first message claims, locks and reads
 * (`readUnderLock`). Then TypeScript decides, and the second writes what was decided. When orders were placed, a third
 * records their events, which carry what the insert filled in (their statements are the outbox's, src/events), and
 * commits; else the second commits. The write goes only when something changes.
 */
async function placeBatch(
  database: Database,
  batch: PlacementWrite[],
  { now, deadline, outbox }: { now: () => Date; deadline: number; outbox: Outbox },
): Promise<Decided[]> {
  let afterCommit = () => {};
  const outcomes = await database.transaction(
    async (tx) => {
      const read = await readUnderLock(tx, batch, now());
      const decisions = decideBatch(
        batch.map((w) => w.decide),
        read.state,
      );
      const args = writeArguments({ batch, decisions, claimed: read.claimed, carts: read.carts });
      const write = args.anything ? { statement: writeDecided, values: args.values } : undefined;
      if (args.placed === 0) {
        await tx.commitWith([write]);
        return outcomesOf(batch, decisions, []);
      }
      const [rows] = await tx.runTogether<[WrittenRow]>([write]);
      const events = newOrderEventStatements(outbox, placedOrderEvents(batch, rows));
      const answers = await tx.commitWith<unknown[]>(events.calls);
      afterCommit = () => events.committed(answers);
      return outcomesOf(batch, decisions, rows);
    },
    { deadline },
  );
  // Committed: this process's worker looks for the jobs the events asked for, and the outbox's listeners are told.
  afterCommit();
  return outcomes;
}

/**
 * Placements are written in batches: the ones that arrive while a batch is being written go together in the next,
 * in one transaction with one commit. One batch is in flight at a time, so a variant's row is locked by one batch
 * of this process at once and the batches' commits don't queue on each other.
 * Back-pressure: at most `maxQueued` placements wait for a batch, and each waits until its deadline at most: in the
 * queue, for a connection, and on each row lock the batch takes (the batch's budget is its earliest deadline). Past
 * it the placement is refused with `DatabaseBusy` and nothing of it is written; a batch the database has begun is
 * answered by the database alone (committed, or rolled back by its lock timeout), so no placement is refused after
 * it committed.
 */
export function placementWriter(
  database: Database,
  options: { now?: () => Date; maxQueued: number; metrics?: PlacementMetrics; outbox: Outbox },
): PlacementWriter {
  const { metrics } = options;
  const settings = { now: options.now ?? (() => new Date()), outbox: options.outbox };
  const place = async (batch: PlacementWrite[], deadline: number) => {
    metrics?.batchSent(batch.length);
    let decided: Decided[];
    try {
      decided = await placeBatch(database, batch, { ...settings, deadline });
    } catch (err) {
      if (err instanceof DeadlineExceeded || lockWaitTimedOut(err)) throw new DatabaseBusy('deadline');
      throw err;
    }
    metrics?.ordersPlaced(decided.filter((d) => d.ok && d.outcome.outcome === 'placed').length);
    return decided;
  };
  const batcher = new Batcher<PlacementWrite, Decided>(
    // An unexpected error in one order must not fail the others: each is placed alone.
    eachAloneOnFailure(place, {
      failed: (failure) => ({ ok: false, failure }),
      passThrough: (err) => isConflict(err) || err instanceof DatabaseBusy,
    }),
    { maxBatch: MAX_BATCH, maxInFlight: 1, maxQueued: options.maxQueued },
  );
  return {
    async write(placement, deadline) {
      let decided: Decided;
      try {
        decided = await batcher.submit(placement, deadline);
        if (!decided.ok) throw decided.failure;
      } catch (err) {
        const busy = err instanceof NotWritten ? new DatabaseBusy(err.reason) : err;
        if (busy instanceof DatabaseBusy) metrics?.refused(busy.reason);
        throw busy;
      }
      return decided.outcome;
    },
  };
}
