import { type Database, DeadlineExceeded } from '../db/client.js';
import { pgError } from '../db/errors.js';
import type { AddressSnapshot } from '../db/schema.js';
import type { PromoCodeRule } from '../pricing/promo-code.eligibility.js';
import { Batcher, NotWritten, type NotWrittenReason } from '../shared/batcher.js';
import type { StoredResponse } from './idempotency.js';
import type { OrderableVariant } from './order-quote.repository.js';

/** The order row, keyed by column name (amounts in minor units). */
export interface OrderRow {
  alias: string;
  user_id: number | null;
  /** null for a signed-in customer: the function fills in the user's email. */
  email: string | null;
  order_token_hash: string | null;
  placed_by: number | null;
  payment_status: 'unpaid' | 'paid';
  currency: string;
  prices_include_tax: boolean;
  subtotal: number;
  discount: number;
  discount_name: string | null;
  promo_code_id: number | null;
  promo_code: string | null;
  shipping_method_id: number | null;
  shipping_name: string | null;
  shipping_fee: number;
  shipping_tax_rate: string | null;
  shipping_tax: number;
  estimated_tax: number;
  total_without_tax: number;
  total: number;
  total_items: number;
  shipping_address: AddressSnapshot | null;
  billing_address: AddressSnapshot | null;
  note: string;
}

/** An order line row, keyed by column name. */
export interface OrderLineRow {
  variant_id: number;
  product_id: number;
  alias: string;
  name: string;
  sku: string | null;
  quantity: number;
  unit_price: number;
  subtotal: number;
  discount: number;
  tax_class_name: string | null;
  tax_rate: string;
  tax: number;
  total: number;
  stock_reserved: boolean;
}

/** Everything one placement writes: one element of the batch `sf_place_orders` takes (migration 0010). */
export interface PlacementWrite {
  idempotency: { scope: string; key: string; requestHash: string } | undefined;
  /** The catalog rows the lines were priced from; the placement fails with `PricesChanged` if any differs now. */
  pricedAs: OrderableVariant[];
  promoCodeId: number | null;
  order: OrderRow;
  lines: OrderLineRow[];
  cart: { userId: number } | { tokenHash: string } | undefined;
  /** Quantities to take off tracked, non-backorder variants' stock. */
  stock: { variantId: number; quantity: number }[];
  /** The answer's body without order_id and status: what a retry with the idempotency key gets. */
  response: Record<string, unknown>;
}

export type PlacementOutcome =
  | { replayed: false; orderId: number; status: string }
  | { replayed: true; stored: StoredResponse };

/** The catalog changed between pricing and placing (a price, a weight, a tax class, an archive). */
export class PricesChanged extends Error {}
/** The promo code's switch or usage limits refused it under its row lock. */
export class PromoCodeRefused extends Error {
  constructor(readonly rule: PromoCodeRule) {
    super(`promo code refused: ${rule}`);
  }
}
/** The idempotency key was used with another request. */
export class IdempotencyKeyReused extends Error {}
/** The key's first request was being answered and its claim vanished (a purge raced it): retry. */
export class IdempotencyKeyInFlux extends Error {}
/**
 * The database could not take the placement in time: too many were waiting, or its deadline
 * passed (queued, waiting for a connection, or waiting on a lock). Nothing of it was written.
 */
export class DatabaseBusy extends Error {
  constructor(readonly reason: NotWrittenReason) {
    super(reason === 'queue_full'
      ? 'too many placements waiting for the database'
      : 'the database did not take the placement in time');
    this.name = 'DatabaseBusy';
  }
}
/** Variants whose stock could not cover the order: id to units available. */
export class StockShort extends Error {
  constructor(readonly available: Map<number, number>) {
    super('insufficient stock');
  }
}

/**
 * The batch's lock waits are bounded by the time its placements have left ($2, milliseconds):
 * set_config(..., true) lasts until the statement's own transaction ends, and OFFSET 0 keeps the
 * subquery (so the setting) ahead of the function. A wait cut short aborts the whole statement
 * (55P03), so nothing of the batch is written.
 */
const placeOrdersStatement = {
  name: 'sf_place_orders_by',
  text: `select sf_place_orders($1::jsonb) as outcomes
    from (select set_config('lock_timeout', $2::text, true) as lock_timeout offset 0) as budget`,
};
const PROMO_RULES = new Set<PromoCodeRule>(['inactive', 'redemption_limit', 'new_customers_only', 'customer_limit']);
/**
 * Orders per statement at most: a batch holds its rows' locks until it commits, so a larger one
 * makes the next wait longer (under load batches hold far fewer: 5 on average with 10 clients).
 */
const MAX_BATCH = 32;

/** One element of the JSON argument of sf_place_orders (migration 0010): one placement. */
function placementArgument(write: PlacementWrite) {
  // One entry a variant (the function checks each entry against the stock left).
  const perVariant = new Map<number, number>();
  for (const s of write.stock) perVariant.set(s.variantId, (perVariant.get(s.variantId) ?? 0) + s.quantity);
  const sorted = [...perVariant].map(([variantId, quantity]) => ({ variantId, quantity })).sort((a, b) => a.variantId - b.variantId);
  return {
    idempotency: write.idempotency
      ? { scope: write.idempotency.scope, key: write.idempotency.key, request_hash: write.idempotency.requestHash }
      : null,
    priced_as: write.pricedAs.map((v) => ({
      id: v.id, product_id: v.productId, alias: v.alias, name: v.name, sku: v.sku, price: v.price, weight_grams: v.weightGrams,
      track_inventory: v.trackInventory, allow_backorder: v.allowBackorder, purchase_limit_per_order: v.purchaseLimitPerOrder,
      tax_class_id: v.taxClassId,
    })),
    promo: write.promoCodeId === null ? null : { id: write.promoCodeId },
    order: write.order,
    lines: write.lines,
    cart: write.cart === undefined ? null : 'userId' in write.cart ? { user_id: write.cart.userId } : { token_hash: write.cart.tokenHash },
    stock: { ids: sorted.map((s) => s.variantId), quantities: sorted.map((s) => s.quantity) },
    response: write.idempotency ? write.response : null,
  };
}

type Refusal = { code: string; detail?: string };
type RawOutcome =
  | { replayed: boolean; order_id?: number; status: string | number; body?: unknown; error?: undefined; failed?: undefined }
  | { error: Refusal; failed?: undefined }
  /** The order failed when placed alone (an unexpected database error). */
  | { failed: true; failure: unknown; error?: undefined };

export interface PlacementWriter {
  /**
   * Writes a priced placement by `deadline` (epoch ms): the idempotency claim, the check that
   * prices still hold, the promo code's limits under its row lock, the order with its lines and
   * redemption, the cart update and, last, the stock. Throws `StockShort`, `PromoCodeRefused`, `PricesChanged`,
   * `IdempotencyKeyReused` or `IdempotencyKeyInFlux` when the database refused it, `DatabaseBusy`
   * when it could not take it in time; then nothing of it was written.
   */
  write(write: PlacementWrite, deadline: number): Promise<PlacementOutcome>;
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

export interface PlacementWriterOptions {
  /** Placements waiting for a batch, at most; more are refused with `DatabaseBusy('queue_full')`. */
  maxQueued: number;
  metrics?: PlacementMetrics;
}

/** Whether the statement was cut short by the lock_timeout it set itself (55P03). */
function lockWaitTimedOut(err: unknown): boolean {
  return pgError(err)?.code === '55P03';
}

/**
 * Placements are written in batches (sf_place_orders, migration 0010): the ones that arrive while
 * a batch is being written go together in the next, as one statement, one transaction and one
 * commit. A refused order writes nothing, so it leaves the others of its batch be.
 * One batch is in flight at a time, so a variant's row is locked by one batch of this process at
 * once and the batches' commits don't queue on each other.
 * Back-pressure: at most `maxQueued` placements wait for a batch, and each waits until its
 * deadline at most: in the queue, for a connection, and on each row lock the batch takes (the
 * batch's budget is its earliest deadline). Past it the placement is refused with `DatabaseBusy`
 * and nothing of it is written; a batch the database has begun is answered by the database alone
 * (committed, or aborted by its lock timeout), so no placement is refused after it committed.
 */
export function placementWriter(database: Database, options: PlacementWriterOptions): PlacementWriter {
  const { metrics } = options;
  const place = async (items: string[], deadline: number) => {
    metrics?.batchSent(items.length);
    let rows: { outcomes: RawOutcome[] }[];
    try {
      rows = await database.runBefore<{ outcomes: RawOutcome[] }>(deadline, placeOrdersStatement,
        (left) => [`[${items.join(',')}]`, String(left)]);
    } catch (err) {
      if (err instanceof DeadlineExceeded || lockWaitTimedOut(err)) throw new DatabaseBusy('deadline');
      throw err;
    }
    const outcomes = rows[0]?.outcomes ?? [];
    metrics?.ordersPlaced(outcomes.reduce((n, o) => (o.error || o.failed || o.replayed ? n : n + 1), 0));
    return outcomes;
  };
  const batcher = new Batcher<string, RawOutcome>(async (items, deadline) => {
    try {
      return await place(items, deadline);
    } catch (err) {
      if (items.length === 1 || isConflict(err) || err instanceof DatabaseBusy) throw err;
      // An unexpected error in one order must not fail the others: each is placed alone.
      const alone = (item: string): Promise<RawOutcome> => place([item], deadline).then(
        (out) => out[0] ?? { failed: true, failure: new Error('sf_place_orders returned no result') },
        (failure: unknown) => ({ failed: true, failure }),
      );
      return Promise.all(items.map(alone));
    }
  }, { maxBatch: MAX_BATCH, maxInFlight: 1, maxQueued: options.maxQueued });
  return {
    async write(write, deadline) {
      let outcome: RawOutcome;
      try {
        outcome = await batcher.submit(JSON.stringify(placementArgument(write)), deadline);
        if (outcome.failed) throw outcome.failure;
      } catch (err) {
        const busy = err instanceof NotWritten ? new DatabaseBusy(err.reason) : err;
        if (busy instanceof DatabaseBusy) metrics?.refused(busy.reason);
        throw busy;
      }
      if (outcome.error) throw refusalError(outcome.error);
      if (outcome.replayed) return { replayed: true, stored: { status: Number(outcome.status), body: outcome.body } };
      return { replayed: false, orderId: Number(outcome.order_id), status: String(outcome.status) };
    },
  };
}

/**
 * Whether PostgreSQL aborted the statement for a deadlock or a serialization failure (two
 * batches taking the same variants can meet head-on); nothing of it was written.
 */
export function isConflict(err: unknown): boolean {
  const code = pgError(err)?.code;
  return code === '40P01' || code === '40001';
}

/** The refusals sf_place_orders answers with, as errors of their own. */
function refusalError(err: Refusal): Error {
  switch (err.code) {
    case 'SF409': {
      const short = JSON.parse(err.detail ?? '[]') as { id: number; available: number }[];
      return new StockShort(new Map(short.map((s) => [s.id, s.available])));
    }
    case 'SF410': {
      const rule = err.detail as PromoCodeRule;
      if (PROMO_RULES.has(rule)) return new PromoCodeRefused(rule);
      break;
    }
    case 'SF412': return new PricesChanged('the catalog changed since the order was priced');
    case 'SF422': return new IdempotencyKeyReused('idempotency key reused');
    case 'SF423': return new IdempotencyKeyInFlux('idempotency key in flux');
    default: break;
  }
  return new Error(`sf_place_orders refused the order with an unknown code: ${JSON.stringify(err)}`);
}
