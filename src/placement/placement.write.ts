import { type Database, DeadlineExceeded } from '../db/client.js';
import { byColumnName, columnList, fromColumnNames } from '../db/columns.js';
import { pgError } from '../db/errors.js';
import { orderLines, orders, promotions } from '../db/schema.js';
import { promotionFromRow } from '../promotions/promotions.mapper.js';
import { Batcher, NotWritten, type NotWrittenReason } from '../shared/batcher.js';
import type { EventRef, Outbox } from '../events/outbox.js';
import type { JobRequest } from '../jobs/job-queue.js';
import { jobRow } from '../jobs/job-queue.js';
import { insertJobsFromJson } from '../jobs/jobs.repository.js';
import { deliveriesJobSql } from '../webhooks/delivery-schedule.js';
import { IDEMPOTENCY_TTL_HOURS, type StoredResponse } from '../orders/idempotency.js';
import type { PlacementEvents } from './placement-events.js';
import {
  buyerKey,
  type Decision,
  decideBatch,
  type IdempotencyClaim,
  keyId,
  type KeyState,
  type LockedState,
  type LockedVariant,
  type PlacementToDecide,
} from './placement.decide.js';

/** The order row a placement inserts (the database fills in id, status and timestamps). */
export type OrderInsert = Omit<typeof orders.$inferInsert, 'id' | 'status' | 'createdAt' | 'updatedAt'>;
/** An order line as priced; whether it takes stock (`stockReserved`) is decided under lock. */
export type OrderLineInsert = Omit<typeof orderLines.$inferInsert, 'id' | 'orderId' | 'stockReserved'>;

/** Everything one placement writes, with what its decision needs. */
export interface PlacementWrite {
  decide: PlacementToDecide;
  /** Variants whose stock the quote found counted: locked (the others are only read, their versions compared). */
  countedVariantIds: readonly number[];
  order: OrderInsert;
  lines: OrderLineInsert[];
  cart: { userId: number } | { tokenHash: string } | undefined;
  /** The answer's body without order_id and status: what a retry with the idempotency key gets. */
  response: Record<string, unknown>;
  /** The events the placement records with the order (`order.eventSeq` is their number). */
  events: PlacementEvents;
}

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
  write(write: PlacementWrite, deadline: number): Promise<PlacementOutcome>;
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
 * Orders per batch at most: a batch holds its rows' locks until it commits, so a larger one makes the next wait
 * longer.
 */
const MAX_BATCH = 32;

/** The ledger's totals of a new order are its columns' defaults (nothing moved yet): not sent with each row. */
const LEDGER_TOTALS = new Set([
  'amountAuthorized',
  'amountCaptured',
  'amountRefunded',
  'amountCredited',
  'amountCapturable',
]);
const ORDER_COLUMNS = columnList(orders).filter(([key]) => !LEDGER_TOTALS.has(key));
const LINE_COLUMNS = columnList(orderLines);
const PROMOTION_COLUMNS = columnList(promotions);

// The statements of a batch, each set-wise and of fixed text (prepared once per connection on PostgreSQL).

/**
 * Claims the batch's keys in key order; a key past its lifetime is taken over. A key a concurrent batch holds makes
 * this wait for it; answered keys are left as they are (and not returned).
 */
const claimKeys = {
  name: 'placement_claim_keys',
  text: `insert into idempotency_keys as ik (scope, key, request_hash, response_status, response_body)
    select c.scope, c.key, c.request_hash, 0, '{}'::jsonb
    from jsonb_to_recordset($1::jsonb) as c(scope text, key text, request_hash text) order by c.scope, c.key
    on conflict (scope, key) do update set request_hash = excluded.request_hash, response_status = 0,
      response_body = '{}'::jsonb, created_at = now()
    where ik.created_at < now() - make_interval(hours => $2::integer)
    returning ik.scope, ik.key`,
};

/**
 * The answers of the batch's keys (a statement of its own, after the claim: it must see what the claim's wait let
 * commit); the claimed ones are the claim's own rows, told apart by what the claim returned.
 */
const storedAnswers = {
  name: 'placement_stored_answers',
  text: `select ik.scope, ik.key, ik.request_hash, ik.response_status, ik.response_body from idempotency_keys ik
    join jsonb_to_recordset($1::jsonb) as c(scope text, key text) on ik.scope = c.scope and ik.key = c.key`,
};

/**
 * Locks in the fixed order placements and cancellations share (promotions, then variants whose stock is counted,
 * each by id, then carts), and reads what the decision needs; the other variants are read without a lock. The
 * arms of a UNION ALL run one after the other, so one round trip keeps the order.
 */
const lockAndRead = {
  name: 'placement_lock_and_read',
  text: `select 'promo' as kind, to_jsonb(c) as row
      from (select * from promotions where id = any($1::integer[]) order by id for update) c
    union all
    select 'variant', to_jsonb(v) from (
      select v.id, v.stock, v.track_inventory, v.allow_backorder, v.archived_at, v.pricing_version,
        p.archived_at as product_archived_at, p.pricing_version as product_pricing_version
      from product_variants v join products p on p.id = v.product_id
      where v.id = any($2::integer[]) order by v.id for no key update of v) v
    union all
    select 'variant', to_jsonb(v) from (
      select v.id, v.stock, v.track_inventory, v.allow_backorder, v.archived_at, v.pricing_version,
        p.archived_at as product_archived_at, p.pricing_version as product_pricing_version
      from product_variants v join products p on p.id = v.product_id
      where v.id = any($3::integer[]) and v.id <> all($2::integer[])) v
    union all
    select 'cart', to_jsonb(c) from (
      select id, user_id, token_hash from carts
      where user_id = any($4::integer[]) or (token_hash = any($5::text[]) and closed_at is null)
      order by id for update) c`,
};

/**
 * For each promotion of each placement, what the promotion's row says to count (read after the row is locked, so the
 * counts are the ones its limits hold on): the buyer's unreleased redemptions of it (by user id, or by email for a
 * guest) when it limits uses per customer, and whether the buyer has an order that is not cancelled when it is for a
 * first order. Promotions without such limits cost no count.
 */
const buyerCounts = {
  name: 'placement_buyer_counts',
  text: `select b.n, b.promotion_id,
      (case when c.usage_limit_per_customer is not null then
        (select count(*) from promotion_redemptions r
          where r.promotion_id = c.id and r.released_at is null and r.user_id = b.user_id)
        + (select count(*) from promotion_redemptions r
          where b.user_id is null and r.promotion_id = c.id and r.released_at is null and r.email = b.email)
      else 0 end)::integer as redemptions,
      (case when c.new_customers_only then
        exists (select 1 from orders o where o.user_id = b.user_id and o.status <> 'cancelled')
        or exists (select 1 from orders o where o.email = b.email and o.status <> 'cancelled')
      else false end) as has_previous_orders
    from jsonb_to_recordset($1::jsonb) as b(n integer, promotion_id integer, user_id integer, email text)
    join promotions c on c.id = b.promotion_id
    where c.usage_limit_per_customer is not null or c.new_customers_only`,
};

/**
 * Everything decided, in one statement: the placed orders (a user's email filled in from the account), their lines,
 * redemptions, events (with the jobs the events' subscribers asked for, and the job that will schedule their webhook
 * deliveries when an endpoint wants them) and keys' answers; claims of refused orders
 * given back; stock and promotion uses taken; carts emptied of what was ordered. Every row it updates is locked
 * already, so it waits on nothing. An event's data is the order as built in TypeScript (`placementEvents`) with what
 * only the insert knows added: id, status, email, and the timestamps in the presenter's format (Date#toISOString).
 */
const writeDecided = {
  name: 'placement_write',
  text: `with placed as (
      select * from jsonb_to_recordset($1::jsonb)
        as p(n integer, order_row jsonb, lines jsonb, promotion_ids jsonb, scope text, key text, request_hash text,
          response jsonb, events jsonb, event_data jsonb)
    ), inserted as (
      insert into orders (alias, user_id, email, order_token_hash, placed_by, payment_status, currency,
          prices_include_tax, subtotal, discount, discount_name, promo_code, promotions, shipping_discount,
          shipping_method_id, shipping_name, shipping_fee, shipping_tax_rate, shipping_tax, estimated_tax,
          total_without_tax, total, total_items, shipping_address, billing_address, note, event_seq)
        select o.alias, o.user_id, coalesce(o.email, (select u.email from users u where u.id = o.user_id)),
          o.order_token_hash, o.placed_by, o.payment_status, o.currency, o.prices_include_tax, o.subtotal, o.discount,
          o.discount_name, o.promo_code, o.promotions, o.shipping_discount, o.shipping_method_id, o.shipping_name,
          o.shipping_fee,
          o.shipping_tax_rate, o.shipping_tax, o.estimated_tax, o.total_without_tax, o.total, o.total_items,
          o.shipping_address, o.billing_address, coalesce(o.note, ''), o.event_seq
        from placed cross join lateral jsonb_populate_record(null::orders, placed.order_row) as o
        order by placed.n
        returning id, alias, status, user_id, email, created_at, updated_at
    ), written as (
      select placed.*, inserted.id, inserted.status, inserted.user_id, inserted.email, inserted.created_at,
        inserted.updated_at
      from placed join inserted on inserted.alias = placed.order_row->>'alias'
    ), recorded as (
      insert into events (id, type, order_id, seq, data)
        select e.id, e.type, w.id, e.seq, w.event_data || jsonb_build_object('order_id', w.id, 'status', w.status,
            'email', w.email,
            'created_at', to_char(w.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
            'updated_at', to_char(w.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
        from written w cross join lateral jsonb_to_recordset(w.events) as e(id uuid, type text, seq integer)
        order by w.n, e.seq
        returning id, type, created_at, data
    ), queued as (
      ${insertJobsFromJson('$6')}
    ), ${deliveriesJobSql('recorded')}, lines as (
      insert into order_lines (order_id, variant_id, product_id, alias, product_name, name, sku, options, quantity,
          unit_price, subtotal, discount, adjustments, tax_class_name, tax_rate, tax, total, stock_reserved)
        select w.id, l.variant_id, l.product_id, l.alias, l.product_name, l.name, l.sku, l.options, l.quantity,
          l.unit_price, l.subtotal, l.discount, l.adjustments, l.tax_class_name, l.tax_rate, l.tax, l.total,
          l.stock_reserved
        from written w cross join lateral jsonb_populate_recordset(null::order_lines, w.lines) as l
    ), redemptions as (
      insert into promotion_redemptions (promotion_id, order_id, user_id, email)
        select pid::integer, w.id, w.user_id, w.email
        from written w cross join lateral jsonb_array_elements_text(w.promotion_ids) as pid
    ), answers as (
      update idempotency_keys ik set request_hash = w.request_hash, response_status = 201,
          response_body = w.response || jsonb_build_object('order_id', w.id, 'status', w.status)
        from written w where w.key is not null and ik.scope = w.scope and ik.key = w.key
    ), released as (
      delete from idempotency_keys ik using jsonb_to_recordset($2::jsonb) as r(scope text, key text)
        where ik.scope = r.scope and ik.key = r.key
    ), stock as (
      update product_variants v set stock = v.stock - t.quantity, updated_at = now()
        from jsonb_to_recordset($3::jsonb) as t(id integer, quantity integer) where v.id = t.id
    ), uses as (
      update promotions c set times_used = c.times_used + u.uses
        from jsonb_to_recordset($4::jsonb) as u(id integer, uses integer) where c.id = u.id
    ), ordered as (
      select * from jsonb_to_recordset($5::jsonb) as o(cart_id integer, variant_id integer, quantity integer)
    ), emptied as (
      delete from cart_items i using ordered o
        where i.cart_id = o.cart_id and i.variant_id = o.variant_id and i.quantity <= o.quantity
    ), reduced as (
      update cart_items i set quantity = i.quantity - o.quantity, updated_at = now() from ordered o
        where i.cart_id = o.cart_id and i.variant_id = o.variant_id and i.quantity > o.quantity
    )
    select n, id, status, email, (select count(*)::integer from webhook_schedule_job) as schedule_jobs from written`,
};

/** A placed order as the write statement answers it. */
interface WrittenRow {
  n: number;
  id: number;
  status: string;
  email: string | null;
  /** Jobs that will schedule the batch's webhook deliveries (0 or 1). */
  schedule_jobs: number;
}

interface LockedRow {
  kind: 'promo' | 'variant' | 'cart';
  row: Record<string, unknown>;
}

type Locked = {
  state: Omit<LockedState, 'buyers' | 'keys' | 'now'>;
  carts: { id: number; userId: number | null; tokenHash: string | null }[];
};

interface StoredRow {
  scope: string;
  key: string;
  request_hash: string;
  response_status: number;
  response_body: unknown;
}

interface BuyerRow {
  n: number;
  promotion_id: number;
  redemptions: number;
  has_previous_orders: boolean;
}

/** The batch's keys, each once (with its first request's hash). */
function wantedKeys(batch: PlacementWrite[]): Map<string, IdempotencyClaim> {
  const wanted = new Map<string, IdempotencyClaim>();
  for (const { decide } of batch) {
    const claim = decide.idempotency;
    if (claim && !wanted.has(keyId(claim))) wanted.set(keyId(claim), claim);
  }
  return wanted;
}

/** Each key's state: claimed by this batch (the claim returned it), or answered before (its stored answer, if any). */
function keyStates(
  wanted: Map<string, IdempotencyClaim>,
  claimedRows: { scope: string; key: string }[],
  stored: StoredRow[],
) {
  const claimed = new Set(claimedRows.map(keyId));
  const answers = new Map(
    stored.map((r) => [keyId(r), { requestHash: r.request_hash, status: r.response_status, body: r.response_body }]),
  );
  const keys = new Map<string, KeyState>();
  for (const id of wanted.keys()) {
    keys.set(id, claimed.has(id) ? { claimed: true } : { claimed: false, stored: answers.get(id) });
  }
  return { keys, claimed };
}

/** What lockAndRead takes: promotions, counted variants, the other variants, users' and guests' carts. */
function lockArguments(batch: PlacementWrite[]): unknown[] {
  const sorted = (ids: Iterable<number>) => [...new Set(ids)].sort((a, b) => a - b);
  return [
    sorted(batch.flatMap((w) => w.decide.promotions.map((p) => p.id))),
    sorted(batch.flatMap((w) => w.countedVariantIds)),
    sorted(batch.flatMap((w) => w.decide.lines.map((l) => l.variantId))),
    sorted(batch.flatMap((w) => (w.cart && 'userId' in w.cart ? [w.cart.userId] : []))),
    [...new Set(batch.flatMap((w) => (w.cart && 'tokenHash' in w.cart ? [w.cart.tokenHash] : [])))],
  ];
}

function readLocked(rows: LockedRow[]): Locked {
  const variants = new Map<number, LockedVariant>();
  const promos: LockedState['promotions'] extends ReadonlyMap<number, infer V> ? Map<number, V> : never = new Map();
  const carts: Locked['carts'] = [];
  for (const { kind, row } of rows) {
    if (kind === 'promo') {
      const promo = fromColumnNames<typeof promotions.$inferSelect>(PROMOTION_COLUMNS, row);
      promos.set(promo.id, {
        promotion: promotionFromRow(promo),
        version: promo.updatedAt.getTime(),
        timesUsed: promo.timesUsed,
      });
    } else if (kind === 'variant') {
      const id = Number(row.id);
      variants.set(id, {
        id,
        stock: Number(row.stock),
        trackInventory: row.track_inventory === true,
        allowBackorder: row.allow_backorder === true,
        archivedAt: (row.archived_at as string | null) ?? null,
        productArchivedAt: (row.product_archived_at as string | null) ?? null,
        pricingVersion: Number(row.pricing_version),
        productPricingVersion: Number(row.product_pricing_version),
      });
    } else {
      carts.push({
        id: Number(row.id),
        userId: row.user_id as number | null,
        tokenHash: row.token_hash as string | null,
      });
    }
  }
  return { state: { variants, promotions: promos }, carts };
}

/** The buyers whose counts buyerCounts reads: each promotion of each placement (its row says what to count). */
function buyerArguments(batch: PlacementWrite[]) {
  return batch.flatMap((w, n) =>
    w.decide.promotions.map((p) => ({
      n,
      promotion_id: p.id,
      user_id: w.decide.buyer.userId,
      email: w.decide.buyer.email,
    })),
  );
}

/** What the write statement takes, from the decisions. */
function writeArguments(input: {
  batch: PlacementWrite[];
  decisions: Decision[];
  claimed: Set<string>;
  carts: Locked['carts'];
  outbox: Outbox;
}) {
  const { batch, decisions, claimed, carts, outbox } = input;
  const placed: unknown[] = [];
  const jobs: JobRequest[] = [];
  /** Each placed order's events (by its place in the batch), to tell the outbox's listeners once committed. */
  const recorded = new Map<number, { id: string; type: PlacementEvents['list'][number]['type'] }[]>();
  const answered = new Set<string>();
  const stock = new Map<number, number>();
  const uses = new Map<number, number>();
  const ordered = new Map<string, { cart_id: number; variant_id: number; quantity: number }>();
  batch.forEach((w, n) => {
    const decision = decisions[n];
    if (decision?.outcome !== 'placed') return;
    const counted = new Set(decision.stock.map((s) => s.variantId));
    const claim = w.decide.idempotency;
    if (claim) answered.add(keyId(claim));
    const events = w.events.list.map((e) => ({ id: outbox.newEventId(), ...e }));
    recorded.set(n, events);
    placed.push({
      n,
      order_row: byColumnName(ORDER_COLUMNS, w.order),
      lines: w.lines.map((l) => {
        const line = byColumnName(LINE_COLUMNS, l);
        line.stock_reserved = counted.has(l.variantId ?? -1);
        return line;
      }),
      promotion_ids: decision.promotionIds,
      scope: claim?.scope ?? null,
      key: claim?.key ?? null,
      request_hash: claim?.requestHash ?? null,
      response: claim ? w.response : null,
      events,
      event_data: w.events.data,
    });
    jobs.push(
      ...outbox.jobsFor(events.map((e) => ({ ...e, orderAlias: w.order.alias, paymentId: null, data: w.events.data }))),
    );
    for (const s of decision.stock) stock.set(s.variantId, (stock.get(s.variantId) ?? 0) + s.quantity);
    for (const id of decision.promotionIds) uses.set(id, (uses.get(id) ?? 0) + 1);
    const owner = w.cart;
    const cart =
      owner && carts.find((c) => ('userId' in owner ? c.userId === owner.userId : c.tokenHash === owner.tokenHash));
    if (cart) {
      for (const l of w.lines) {
        if (l.variantId === null || l.variantId === undefined) continue;
        const k = `${cart.id}:${l.variantId}`;
        const line = ordered.get(k) ?? { cart_id: cart.id, variant_id: l.variantId, quantity: 0 };
        line.quantity += l.quantity;
        ordered.set(k, line);
      }
    }
  });
  const released = [...claimed]
    .filter((id) => !answered.has(id))
    .map((id) => {
      const [scope, key] = id.split('\u0000');
      return { scope, key };
    });
  const values = [
    JSON.stringify(placed),
    JSON.stringify(released),
    JSON.stringify([...stock].map(([id, quantity]) => ({ id, quantity }))),
    JSON.stringify([...uses].map(([id, n]) => ({ id, uses: n }))),
    JSON.stringify([...ordered.values()]),
    JSON.stringify(jobs.map(jobRow)),
  ];
  return { values, recorded, enqueued: jobs.length > 0, releases: released.length > 0 };
}

/** The placed orders' events as the outbox's committed listeners get them: with what the insert filled in. */
function committedEvents(
  batch: PlacementWrite[],
  recorded: Map<number, { id: string; type: PlacementEvents['list'][number]['type'] }[]>,
  rows: WrittenRow[],
): EventRef[] {
  return rows.flatMap((row) => {
    const w = batch[row.n];
    if (!w) return [];
    const data = { ...w.events.data, order_id: Number(row.id), status: row.status, email: row.email };
    return (recorded.get(row.n) ?? []).map((e) => ({
      id: e.id,
      type: e.type,
      orderAlias: w.order.alias,
      paymentId: null,
      data,
    }));
  });
}

/**
 * One batch in one transaction of two messages on PostgreSQL, whatever the batch's size. The first begins, claims
 * the keys and reads the answers of all of them (a statement of its own: it must see what the claim's wait let
 * commit; the claimed ones are told apart by the claim's rows), locks and reads, and counts the buyers' uses of their
 * codes. Then TypeScript decides, and the second writes what was decided and commits. The claim and answers go only
 * with idempotency keys, the counts only with promo codes, the write only when something changes.
 */
async function placeBatch(
  database: Database,
  batch: PlacementWrite[],
  { now, deadline, outbox }: { now: () => Date; deadline: number; outbox: Outbox },
): Promise<Decided[]> {
  let enqueued = false;
  let committed: EventRef[] = [];
  const outcomes = await database.transaction(
    async (tx) => {
      const wanted = wantedKeys(batch);
      const claims = [...wanted.values()];
      const buyers = buyerArguments(batch);
      const [claimedRows, storedRows, lockedRows, buyerRows] = await tx.runTogether<
        [{ scope: string; key: string }, StoredRow, LockedRow, BuyerRow]
      >([
        claims.length > 0
          ? {
              statement: claimKeys,
              values: [
                JSON.stringify(claims.map((c) => ({ scope: c.scope, key: c.key, request_hash: c.requestHash }))),
                IDEMPOTENCY_TTL_HOURS,
              ],
            }
          : undefined,
        claims.length > 0
          ? { statement: storedAnswers, values: [JSON.stringify(claims.map((c) => ({ scope: c.scope, key: c.key })))] }
          : undefined,
        { statement: lockAndRead, values: lockArguments(batch) },
        buyers.length > 0 ? { statement: buyerCounts, values: [JSON.stringify(buyers)] } : undefined,
      ]);
      const { keys, claimed } = keyStates(wanted, claimedRows, storedRows);
      const locked = readLocked(lockedRows);
      const decisions = decideBatch(
        batch.map((w) => w.decide),
        {
          ...locked.state,
          keys,
          buyers: new Map(
            buyerRows.map((r) => [
              buyerKey(r.n, r.promotion_id),
              { redemptions: r.redemptions, hasPreviousOrders: r.has_previous_orders },
            ]),
          ),
          now: now(),
        },
      );
      const args = writeArguments({ batch, decisions, claimed, carts: locked.carts, outbox });
      enqueued = args.enqueued;
      const anything = decisions.some((d) => d.outcome === 'placed') || args.releases;
      const [rows] = await tx.commitWith<[WrittenRow]>([
        anything ? { statement: writeDecided, values: args.values } : undefined,
      ]);
      const written = new Map(rows.map((r) => [r.n, r]));
      if (rows.some((r) => r.schedule_jobs > 0)) enqueued = true;
      if (outbox.hasCommittedListeners()) committed = committedEvents(batch, args.recorded, rows);
      // The batch has committed: a placement whose answer is missing fails alone (it must not be placed again).
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
    },
    { deadline },
  );
  // Committed: this process's worker looks for the jobs the events asked for, and the outbox's listeners are told.
  if (enqueued) outbox.jobs.wake();
  outbox.committed(committed);
  return outcomes;
}

type Decided = { ok: true; outcome: PlacementOutcome } | { ok: false; failure: unknown };

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
    async (batch, deadline) => {
      try {
        return await place(batch, deadline);
      } catch (err) {
        if (batch.length === 1 || isConflict(err) || err instanceof DatabaseBusy) throw err;
        // An unexpected error in one order must not fail the others: each is placed alone.
        return Promise.all(
          batch.map((w) =>
            place([w], deadline).then(
              (out): Decided => out[0] ?? { ok: false, failure: new Error('a batch of one answered nothing') },
              (failure: unknown): Decided => ({ ok: false, failure }),
            ),
          ),
        );
      }
    },
    { maxBatch: MAX_BATCH, maxInFlight: 1, maxQueued: options.maxQueued },
  );
  return {
    async write(write, deadline) {
      let decided: Decided;
      try {
        decided = await batcher.submit(write, deadline);
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

/**
 * Whether PostgreSQL aborted the statement for a deadlock or a serialization failure (two batches taking the same
 * variants can meet head-on); nothing of it was written.
 */
export function isConflict(err: unknown): boolean {
  const code = pgError(err)?.code;
  return code === '40P01' || code === '40001';
}
