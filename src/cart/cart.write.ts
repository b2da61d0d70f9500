import { type Database, DeadlineExceeded, type Transaction } from '../db/client.js';
import { pgError } from '../db/errors.js';
import { explicitPricesOf } from '../markets/variant-prices.repository.js';
import { Batcher, eachAloneOnFailure, NotWritten, type NotWrittenReason } from '../shared/batcher.js';
import {
  type CartAnswer,
  type CartBatchState,
  type CartChanges,
  type CartLimits,
  type CartOperation,
  cartVariantOf,
  decideCartBatch,
  type LockedCart,
  noCartChanges,
} from './cart.decide.js';
import { cartVariants, ensureUserCarts, lockCarts, writeCartChanges } from './cart.statements.js';

/**
 * The database could not take the cart write in time: too many were waiting, or its deadline passed (queued, waiting
 * for a connection, or waiting on a cart's lock). Nothing of it was written.
 */
export class CartWriteBusy extends Error {
  constructor(readonly reason: NotWrittenReason) {
    super(reason === 'queue_full' ? 'too many cart writes waiting for the database' : 'the cart write timed out');
    this.name = 'CartWriteBusy';
  }
}

export interface CartWriter {
  /**
   * Writes one operation with the others that arrived meanwhile, in one transaction, by `deadline` (epoch ms).
   * Throws `CartWriteBusy` when the database could not take it in time; then nothing of it was written.
   */
  write(operation: CartOperation, deadline: number): Promise<CartAnswer>;
}

/** What the writer reports to the service's metrics. */
export interface CartWriteMetrics {
  /** A batch of this many cart operations went to the database. */
  batchSent(size: number): void;
  /** A cart write was refused with `CartWriteBusy`. */
  refused(reason: NotWrittenReason): void;
}

interface LockedLineRow {
  id: number;
  user_id: number | null;
  token_hash: string | null;
  market_id: number | null;
  variant_id: number | null;
  quantity: number | null;
}

interface VariantRow {
  id: number;
  alias: string;
  name: string;
  product_name: string;
  sku: string | null;
  price: string;
  track_inventory: boolean;
  allow_backorder: boolean;
  stock: number;
  purchase_limit_per_order: number | null;
  archived_at: Date | null;
  product_archived_at: Date | null;
  explicit_prices: [string, number, number | null][] | null;
}

/**
 * Operations per batch at most: a batch holds its carts' locks until it commits, and the decision's work grows with
 * it.
 */
const MAX_BATCH = 64;
/** Attempts of a batch the database aborted for a deadlock (two writers meeting on the same carts): nothing ran. */
const DEADLOCK_ATTEMPTS = 3;

/** The users, guest tokens and variants the batch names: what it locks and reads. */
function namesOf(batch: readonly CartOperation[]) {
  const userIds = new Set<number>();
  const tokenHashes = new Set<string>();
  const variantIds = new Set<number>();
  for (const op of batch) {
    if (op.kind === 'merge') {
      userIds.add(op.userId);
      tokenHashes.add(op.guestTokenHash);
      continue;
    }
    if ('userId' in op.cart) userIds.add(op.cart.userId);
    else if (!op.cart.isNew) tokenHashes.add(op.cart.tokenHash);
    variantIds.add(op.variantId);
  }
  return { userIds: [...userIds], tokenHashes: [...tokenHashes], variantIds: [...variantIds] };
}

function lockedCarts(rows: readonly LockedLineRow[]): LockedCart[] {
  const carts = new Map<number, LockedCart>();
  for (const row of rows) {
    let cart = carts.get(row.id);
    if (!cart) {
      cart = { id: row.id, userId: row.user_id, tokenHash: row.token_hash, marketId: row.market_id, lines: [] };
      carts.set(row.id, cart);
    }
    if (row.variant_id !== null && row.quantity !== null) {
      cart.lines.push({ variantId: row.variant_id, quantity: row.quantity });
    }
  }
  return [...carts.values()];
}

function variantsRead(rows: readonly VariantRow[]): CartBatchState['variants'] {
  return new Map(
    rows.map((r) => [
      r.id,
      cartVariantOf({
        variantId: r.id,
        alias: r.alias,
        name: r.name,
        productName: r.product_name,
        sku: r.sku,
        price: Number(r.price),
        trackInventory: r.track_inventory,
        allowBackorder: r.allow_backorder,
        stock: r.stock,
        purchaseLimitPerOrder: r.purchase_limit_per_order,
        archivedAt: r.archived_at,
        productArchivedAt: r.product_archived_at,
        explicitPrices: explicitPricesOf(r.explicit_prices),
      }),
    ]),
  );
}

/** The write statement's values: the changed rows as JSON arrays of records. */
function writeValues(changes: CartChanges): unknown[] {
  return [
    changes.newGuestCarts.map((c) => c.tokenHash),
    JSON.stringify(
      changes.inserts.map((l) => ({
        cart_id: l.cartId,
        token_hash: l.tokenHash,
        variant_id: l.variantId,
        quantity: l.quantity,
        seq: l.seq,
      })),
    ),
    JSON.stringify(
      changes.updates.map((l) => ({ cart_id: l.cartId, variant_id: l.variantId, quantity: l.quantity, seq: l.seq })),
    ),
    JSON.stringify(changes.deletes.map((l) => ({ cart_id: l.cartId, variant_id: l.variantId }))),
    changes.closeCartIds,
    changes.newGuestCarts.map((c) => c.marketId),
    changes.marketChanges.map((c) => c.cartId),
    changes.marketChanges.map((c) => c.marketId),
  ];
}

/**
 * One batch in one transaction, in two messages: the first creates the users' carts they lack, locks the batch's
 * carts and reads them with the variants; TypeScript decides (`decideCartBatch`); the second writes what changed,
 * with the COMMIT.
 */
async function writeBatch(
  database: Database,
  batch: readonly CartOperation[],
  { limits, deadline }: { limits: CartLimits; deadline: number },
): Promise<CartAnswer[]> {
  const names = namesOf(batch);
  return database.transaction(
    async (tx: Transaction) => {
      const [, lineRows, variantRows] = await tx.runTogether<[never, LockedLineRow, VariantRow]>([
        names.userIds.length > 0 ? { statement: ensureUserCarts, values: [names.userIds] } : undefined,
        { statement: lockCarts, values: [names.userIds, names.tokenHashes] },
        { statement: cartVariants, values: [names.variantIds, names.userIds, names.tokenHashes] },
      ]);
      const decided = decideCartBatch(batch, {
        carts: lockedCarts(lineRows),
        variants: variantsRead(variantRows),
        limits,
      });
      const changed = !noCartChanges(decided.changes);
      await tx.commitWith([
        changed ? { statement: writeCartChanges, values: writeValues(decided.changes) } : undefined,
      ]);
      return decided.answers;
    },
    { deadline },
  );
}

function isDeadlock(err: unknown): boolean {
  return pgError(err)?.code === '40P01';
}

/** Whether a transaction was cut short by the lock_timeout its deadline set (55P03): it was rolled back. */
function lockWaitTimedOut(err: unknown): boolean {
  return pgError(err)?.code === '55P03';
}

type Written = { ok: true; answer: CartAnswer } | { ok: false; failure: unknown };

/**
 * Cart writes (add, set, remove, merge) are written in batches, as placements are (docs/decisions/0004): the ones
 * that arrive while a batch is being written go together in the next, in one transaction with one commit; one batch
 * is in flight at a time. Back-pressure as placement's: at most `maxQueued` wait, each until its deadline at most.
 */
export function cartWriter(
  database: Database,
  options: { limits: CartLimits; maxQueued: number; metrics?: CartWriteMetrics },
): CartWriter {
  const { limits, metrics } = options;
  const attempt = async (batch: CartOperation[], deadline: number): Promise<CartAnswer[]> => {
    metrics?.batchSent(batch.length);
    for (let n = 1; ; n++) {
      try {
        return await writeBatch(database, batch, { limits, deadline });
      } catch (err) {
        if (err instanceof DeadlineExceeded || lockWaitTimedOut(err)) throw new CartWriteBusy('deadline');
        if (!isDeadlock(err) || n >= DEADLOCK_ATTEMPTS || Date.now() >= deadline) throw err;
      }
    }
  };
  const batcher = new Batcher<CartOperation, Written>(
    eachAloneOnFailure(
      async (batch, deadline) => (await attempt(batch, deadline)).map((answer): Written => ({ ok: true, answer })),
      { failed: (failure) => ({ ok: false, failure }), passThrough: (err) => err instanceof CartWriteBusy },
    ),
    { maxBatch: MAX_BATCH, maxInFlight: 1, maxQueued: options.maxQueued },
  );
  return {
    async write(operation, deadline) {
      let written: Written;
      try {
        written = await batcher.submit(operation, deadline);
      } catch (err) {
        const busy = err instanceof NotWritten ? new CartWriteBusy(err.reason) : err;
        if (busy instanceof CartWriteBusy) metrics?.refused(busy.reason);
        throw busy;
      }
      if (!written.ok) throw written.failure;
      return written.answer;
    },
  };
}
