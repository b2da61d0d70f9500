import type { Database, Statement } from '../db/client.js';
import { columnList, fromColumnNames } from '../db/columns.js';
import { webhookDeliveries, webhookEndpoints } from '../db/schema.js';
import { Batcher } from '../shared/batcher.js';
import { endpointFailedTooLong } from './retry-policy.js';
import type { AttemptRecord, DeliveryRow, DeliverySettlement } from './webhook-deliveries.repository.js';
import type { EndpointRow } from './webhook-endpoints.repository.js';

/** A delivery taken for one attempt, with its endpoint as it is now (undefined if deleted meanwhile). */
export interface ClaimedDelivery {
  delivery: DeliveryRow;
  endpoint: EndpointRow | undefined;
}

/**
 * What one attempt came to: its log entry, where the delivery goes next, and how its endpoint fared. `lease` is the
 * `next_attempt_at` its claim set: the settlement applies only while the delivery still holds it (a redelivery or
 * another claim since then decides where the delivery goes; the attempt is still logged and counted).
 */
export interface AttemptOutcome {
  attempt: AttemptRecord;
  settlement: DeliverySettlement;
  lease: Date | null;
  endpoint: { id: number; ok: boolean; at: Date };
}

/**
 * The database side of delivery attempts by id (`runDelivery`). The attempts that run at once are claimed together in
 * one statement, and recorded together in one transaction, so a delivery costs a fraction of a
 * round trip and of a commit rather than several of each (docs/decisions/0015-webhook-deliveries-in-batches.md).
 */
export interface DeliveryStore {
  /** Takes a due pending delivery until `leaseUntil` (see `claimDue`); undefined when it is not due or not pending. */
  claim(input: { id: number; now: Date; leaseUntil: Date }): Promise<ClaimedDelivery | undefined>;
  /**
   * Logs the attempt and moves the delivery on, unless it was settled meanwhile (by a concurrent attempt), and notes
   * the endpoint's success or failure: an endpoint that has failed every attempt for 24 hours is switched off. The
   * delivery as it now is; undefined when it is gone (its endpoint was deleted).
   */
  record(outcome: AttemptOutcome): Promise<DeliveryRow | undefined>;
}

const DELIVERY_COLUMNS = columnList(webhookDeliveries);
const ENDPOINT_COLUMNS = columnList(webhookEndpoints);

/** Attempts claimed or recorded together at most; more wait for the next statement. */
const MAX_BATCH = 64;

// Each statement names its rows' ids in an array as well as in its JSON: the ids as an array give an index scan
// whatever plan a prepared statement settles on while the tables are small (a join with the JSON alone was planned
// as a scan of the whole table).

/**
 * Takes due pending deliveries for one attempt each: a delivery's next attempt moves to the end of its lease, so no
 * one else attempts it meanwhile, and if this process dies it is due again then. Answers the claimed ones with their
 * endpoints.
 */
const claimDue: Statement = {
  name: 'webhook_claim_due',
  text: `with wanted as (
      select * from jsonb_to_recordset($1::jsonb) as w(id integer, now timestamptz, lease_until timestamptz)
    ), claimed as (
      update webhook_deliveries d set next_attempt_at = w.lease_until, updated_at = w.now
      from wanted w
      where d.id = any($2::integer[]) and d.id = w.id and d.status = 'pending' and d.next_attempt_at <= w.now
      returning d.*
    )
    select to_jsonb(c) as delivery, to_jsonb(e) as endpoint
    from claimed c left join webhook_endpoints e on e.id = c.endpoint_id`,
};

/**
 * Takes up to $3 due pending deliveries, the longest waiting first, until $2 (their lease: `next_attempt_at` moves to
 * it, so no one else attempts them meanwhile, and if this process dies they are due again then). Rows another
 * dispatcher is claiming are skipped, not waited for. Read in the order of `webhook_deliveries_due_idx` and only as
 * far as the limit, so a claim costs the same with ten deliveries waiting or ten thousand. Answers the claimed ones
 * with their endpoints.
 */
const claimNextDue: Statement = {
  name: 'webhook_claim_next_due',
  text: `with due as (
      select d.id from webhook_deliveries d
      where d.status = 'pending' and d.next_attempt_at <= $1::timestamptz
      order by d.next_attempt_at, d.id
      limit $3
      for update skip locked
    ), claimed as (
      update webhook_deliveries d set next_attempt_at = $2::timestamptz, updated_at = $1::timestamptz
      from due where d.id = due.id
      returning d.*
    )
    select to_jsonb(c) as delivery, to_jsonb(e) as endpoint
    from claimed c left join webhook_endpoints e on e.id = c.endpoint_id
    order by c.next_attempt_at, c.id`,
};

/** A claimed row as the claim statements answer it. */
type ClaimedJson = { delivery: Record<string, unknown>; endpoint: Record<string, unknown> | null };

function claimedOf(row: ClaimedJson): ClaimedDelivery {
  const delivery = fromColumnNames<DeliveryRow>(DELIVERY_COLUMNS, row.delivery);
  const endpoint = row.endpoint ? fromColumnNames<EndpointRow>(ENDPOINT_COLUMNS, row.endpoint) : undefined;
  return { delivery, endpoint };
}

/**
 * Claims up to `limit` deliveries due at `now` for one attempt each, leased until `leaseUntil` (see `claimNextDue`):
 * the dispatcher's one statement per look for work.
 */
export async function claimDueDeliveries(
  database: Pick<Database, 'run'>,
  input: { now: Date; leaseUntil: Date; limit: number },
): Promise<ClaimedDelivery[]> {
  const rows = await database.run<ClaimedJson>(claimNextDue, [
    input.now.toISOString(),
    input.leaseUntil.toISOString(),
    input.limit,
  ]);
  return rows.map(claimedOf);
}

/**
 * Logs attempts and moves their deliveries on, each only while it holds the lease its attempt's claim set (a
 * delivery settled, redelivered or claimed again meanwhile keeps its state; a deleted one gets no log entry). The
 * deliveries are locked in id order first, as the endpoints are in `noteEndpoints`.
 */
const recordAttempts: Statement = {
  name: 'webhook_record_attempts',
  text: `with a as (
      select * from jsonb_to_recordset($1::jsonb) as a(delivery_id integer, attempted_at timestamptz,
        response_code integer, duration_ms integer, error text, response_snippet text, status text,
        next_attempt_at timestamptz, lease timestamptz)
    ), locked as (
      select d.id from webhook_deliveries d where d.id = any($2::integer[]) order by d.id for update
    ), logged as (
      insert into webhook_attempts (delivery_id, attempted_at, response_code, duration_ms, error, response_snippet)
        select a.delivery_id, a.attempted_at, a.response_code, a.duration_ms, a.error, a.response_snippet
        from a join locked l on l.id = a.delivery_id
        order by a.attempted_at
    ), moved as (
      update webhook_deliveries d
        set status = case when d.next_attempt_at = a.lease then a.status else d.status end,
          next_attempt_at = case when d.next_attempt_at = a.lease then a.next_attempt_at else d.next_attempt_at end,
          first_attempt_at = case when d.next_attempt_at = a.lease
            then coalesce(d.first_attempt_at, a.attempted_at) else d.first_attempt_at end,
          attempts = d.attempts + 1,
          last_response_code = a.response_code, last_duration_ms = a.duration_ms, last_error = a.error,
          updated_at = now()
        from a join locked l on l.id = a.delivery_id
        where d.id = any($2::integer[]) and d.id = a.delivery_id and d.status = 'pending'
        returning d.id
    )
    select count(*)::integer as moved from moved`,
};

/** The deliveries as they now are (after `recordAttempts`, in the same transaction). */
const deliveriesNow: Statement = {
  name: 'webhook_deliveries_now',
  text: `select to_jsonb(d) as delivery from webhook_deliveries d where d.id = any($1::integer[])`,
};

/**
 * Notes how each endpoint fared: `since` is the endpoint's earliest failure after its last success of the batch
 * (null: it ended with a success), `reset` whether it had a success in the batch. Answers the failing ones' earliest
 * failure not followed by a success.
 */
const noteEndpoints: Statement = {
  name: 'webhook_note_endpoints',
  text: `with o as (
      select * from jsonb_to_recordset($1::jsonb) as o(id integer, reset boolean, since timestamptz)
    ), locked as (
      select e.id from webhook_endpoints e where e.id = any($2::integer[]) order by e.id for no key update
    )
    update webhook_endpoints e
      set failing_since = case when o.reset then o.since else coalesce(e.failing_since, o.since) end
      from o join locked l on l.id = o.id
      where e.id = any($2::integer[]) and e.id = o.id and (o.since is not null or e.failing_since is not null)
      returning e.id, e.failing_since`,
};

/** Switches endpoints off, each with its reason (an endpoint switched off meanwhile keeps its own). */
const switchOff: Statement = {
  name: 'webhook_switch_off',
  text: `update webhook_endpoints e set is_active = false, disabled_reason = o.reason, updated_at = now()
    from jsonb_to_recordset($1::jsonb) as o(id integer, reason text)
    where e.id = o.id and e.is_active`,
};

/** Per endpoint of a batch: whether it had a success, and its earliest failure after the last success. */
export function endpointNotes(outcomes: readonly AttemptOutcome['endpoint'][]) {
  const notes = new Map<number, { reset: boolean; since: Date | null }>();
  for (const o of [...outcomes].sort((a, b) => a.at.getTime() - b.at.getTime())) {
    const note = notes.get(o.id) ?? { reset: false, since: null };
    if (o.ok) notes.set(o.id, { reset: true, since: null });
    else notes.set(o.id, { reset: note.reset, since: note.since ?? o.at });
  }
  return notes;
}

async function claimBatch(database: Database, items: { id: number; now: Date; leaseUntil: Date }[]) {
  // A delivery asked for twice at once is claimed for the first asker only.
  const first = new Map<number, number>();
  items.forEach((item, n) => {
    if (!first.has(item.id)) first.set(item.id, n);
  });
  const wanted = [...first.values()].map((n) => {
    const item = items[n] as (typeof items)[number];
    return { id: item.id, now: item.now.toISOString(), lease_until: item.leaseUntil.toISOString() };
  });
  const rows = await database.run<ClaimedJson>(claimDue, [JSON.stringify(wanted), wanted.map((w) => w.id)]);
  const claimed = new Map<number, ClaimedDelivery>();
  for (const row of rows) {
    const one = claimedOf(row);
    claimed.set(one.delivery.id, one);
  }
  return items.map((item, n) => (first.get(item.id) === n ? claimed.get(item.id) : undefined));
}

async function recordBatch(database: Database, outcomes: AttemptOutcome[]) {
  const attempts = outcomes.map(({ attempt, settlement, lease }) => ({
    delivery_id: attempt.deliveryId,
    attempted_at: attempt.attemptedAt.toISOString(),
    response_code: attempt.responseCode,
    duration_ms: attempt.durationMs,
    error: attempt.error,
    response_snippet: attempt.responseSnippet,
    status: settlement.status,
    next_attempt_at: settlement.nextAttemptAt?.toISOString() ?? null,
    lease: lease?.toISOString() ?? null,
  }));
  const notes = [...endpointNotes(outcomes.map((o) => o.endpoint))].map(([id, note]) => ({
    id,
    reset: note.reset,
    since: note.since?.toISOString() ?? null,
  }));
  const ids = [...new Set(outcomes.map((o) => o.attempt.deliveryId))];
  const rows = await database.transaction(async (tx) => {
    const [, now, failing] = await tx.runTogether<
      [{ moved: number }, { delivery: Record<string, unknown> }, { id: number; failing_since: Date | string | null }]
    >([
      { statement: recordAttempts, values: [JSON.stringify(attempts), ids] },
      { statement: deliveriesNow, values: [ids] },
      { statement: noteEndpoints, values: [JSON.stringify(notes), notes.map((n) => n.id)] },
    ]);
    const lastFailure = new Map<number, Date>();
    for (const o of outcomes) {
      if (!o.endpoint.ok) lastFailure.set(o.endpoint.id, o.endpoint.at);
    }
    const off = failing.flatMap((row) => {
      const failedAt = lastFailure.get(Number(row.id));
      if (row.failing_since === null || !failedAt) return [];
      const since = new Date(row.failing_since);
      if (!endpointFailedTooLong(since, failedAt)) return [];
      const reason = `every delivery failed from ${since.toISOString()} to ${failedAt.toISOString()}`;
      return [{ id: Number(row.id), reason: `switched off: ${reason}` }];
    });
    await tx.commitWith([off.length > 0 ? { statement: switchOff, values: [JSON.stringify(off)] } : undefined]);
    return now;
  });
  const byId = new Map(
    rows.map((r) => {
      const delivery = fromColumnNames<DeliveryRow>(DELIVERY_COLUMNS, r.delivery);
      return [delivery.id, delivery];
    }),
  );
  return outcomes.map((o) => byId.get(o.attempt.deliveryId));
}

/** The store of `database`: one per database, so every attempt of the process joins the same batches. */
const stores = new WeakMap<Database, DeliveryStore>();

export function deliveryStore(database: Database): DeliveryStore {
  const known = stores.get(database);
  if (known) return known;
  const claims = new Batcher((items: { id: number; now: Date; leaseUntil: Date }[]) => claimBatch(database, items), {
    maxBatch: MAX_BATCH,
    maxInFlight: 1,
  });
  const records = new Batcher((outcomes: AttemptOutcome[]) => recordBatch(database, outcomes), {
    maxBatch: MAX_BATCH,
    maxInFlight: 1,
  });
  const store: DeliveryStore = {
    claim: (input) => claims.submit(input),
    record: (outcome) => records.submit(outcome),
  };
  stores.set(database, store);
  return store;
}
