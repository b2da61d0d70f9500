import { byColumnName, columnList, fromColumnNames } from '../db/columns.js';
import { promotions } from '../db/schema.js';
import { IDEMPOTENCY_TTL_HOURS } from '../orders/idempotency.js';
import { marketPricingVersion } from '../markets/market-directory.js';
import { promotionFromRow } from '../promotions/promotions.mapper.js';
import type { PlacementEvents } from './placement-events.js';
import {
  LINE_WRITTEN_COLUMNS,
  ORDER_WRITTEN_COLUMNS,
  type OrderLineValues,
  type OrderValues,
} from './placement.columns.js';
import {
  buyerKey,
  type Decision,
  type IdempotencyClaim,
  keyId,
  type KeyState,
  type LockedState,
  type LockedVariant,
  type PlacementToDecide,
} from './placement.decide.js';

/**
 * What placement's statements (placement.statements.ts) take, built from a batch and its decisions, and what they
 * answer, read back into the decision's terms. No I/O: placement.write.ts sends them.
 */

/** Everything one placement writes, with what its decision needs. */
export interface PlacementWrite {
  decide: PlacementToDecide;
  /** Variants whose stock the quote found counted: locked (the others are only read, their versions compared). */
  countedVariantIds: readonly number[];
  order: OrderValues;
  /** The lines as priced; whether each takes stock (`stock_reserved`) is decided under lock. */
  lines: OrderLineValues[];
  cart: { userId: number } | { tokenHash: string } | undefined;
  /** The answer's body without order_id and status: what a retry with the idempotency key gets. */
  response: Record<string, unknown>;
  /** The events the placement records with the order (`order.eventSeq` is their number), handed to src/events. */
  events: PlacementEvents;
}

/** A placed order as the write statement answers it: its place in the batch, and what the insert filled in. */
export interface WrittenRow {
  n: number;
  id: number;
  status: string;
  email: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface LockedRow {
  kind: 'promo' | 'variant' | 'cart' | 'market';
  row: Record<string, unknown>;
}

export interface StoredRow {
  scope: string;
  key: string;
  request_hash: string;
  response_status: number;
  response_body: unknown;
}

export interface BuyerRow {
  n: number;
  promotion_id: number;
  redemptions: number;
  has_previous_orders: boolean;
}

/** The carts the batch's placements empty, locked. */
export type LockedCart = { id: number; userId: number | null; tokenHash: string | null };

type Locked = { state: Omit<LockedState, 'buyers' | 'keys' | 'now'>; carts: LockedCart[] };

const PROMOTION_COLUMNS = columnList(promotions);

/** The batch's keys, each once (with its first request's hash). */
export function wantedKeys(batch: readonly PlacementWrite[]): Map<string, IdempotencyClaim> {
  const wanted = new Map<string, IdempotencyClaim>();
  for (const { decide } of batch) {
    const claim = decide.idempotency;
    if (claim && !wanted.has(keyId(claim))) wanted.set(keyId(claim), claim);
  }
  return wanted;
}

/** What claimKeys takes (the claims, the keys' lifetime) and what storedAnswers takes. */
export function claimArguments(claims: readonly IdempotencyClaim[]) {
  return {
    claim: [
      JSON.stringify(claims.map((c) => ({ scope: c.scope, key: c.key, request_hash: c.requestHash }))),
      IDEMPOTENCY_TTL_HOURS,
    ],
    stored: [JSON.stringify(claims.map((c) => ({ scope: c.scope, key: c.key })))],
  };
}

/** Each key's state: claimed by this batch (the claim returned it), or answered before (its stored answer, if any). */
export function keyStates(
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
export function lockArguments(batch: readonly PlacementWrite[]): unknown[] {
  const sorted = (ids: Iterable<number>) => [...new Set(ids)].sort((a, b) => a - b);
  return [
    sorted(batch.flatMap((w) => w.decide.promotions.map((p) => p.id))),
    sorted(batch.flatMap((w) => w.countedVariantIds)),
    sorted(batch.flatMap((w) => w.decide.lines.map((l) => l.variantId))),
    sorted(batch.flatMap((w) => (w.cart && 'userId' in w.cart ? [w.cart.userId] : []))),
    [...new Set(batch.flatMap((w) => (w.cart && 'tokenHash' in w.cart ? [w.cart.tokenHash] : [])))],
    sorted(batch.flatMap((w) => (w.decide.market ? [w.decide.market.id] : []))),
  ];
}

/** What lockAndRead answered: the promotions and variants as the decision takes them, and the carts. */
export function readLocked(rows: LockedRow[]): Locked {
  const variants = new Map<number, LockedVariant>();
  const promos: LockedState['promotions'] extends ReadonlyMap<number, infer V> ? Map<number, V> : never = new Map();
  const carts: LockedCart[] = [];
  const markets = new Map<number, string>();
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
    } else if (kind === 'market') {
      markets.set(
        Number(row.id),
        marketPricingVersion({
          currency: (row.currency as string | null) ?? null,
          pricesIncludeTax: (row.prices_include_tax as boolean | null) ?? null,
          exchangeRate: (row.exchange_rate as string | null) ?? null,
          roundingStep: (row.rounding_step as string | null) ?? null,
          priceEnding: String(row.price_ending),
          roundingDirection: String(row.rounding_direction),
        }),
      );
    } else {
      carts.push({
        id: Number(row.id),
        userId: row.user_id as number | null,
        tokenHash: row.token_hash as string | null,
      });
    }
  }
  return { state: { variants, promotions: promos, markets }, carts };
}

/** The buyers whose counts buyerCounts reads: each promotion of each placement (its row says what to count). */
export function buyerArguments(batch: readonly PlacementWrite[]) {
  return batch.flatMap((w, n) =>
    w.decide.promotions.map((p) => ({
      n,
      promotion_id: p.id,
      user_id: w.decide.buyer.userId,
      email: w.decide.buyer.email,
    })),
  );
}

/** The buyers' counts by `buyerKey`, as the decision takes them. */
export function buyersRead(rows: BuyerRow[]): LockedState['buyers'] {
  return new Map(
    rows.map((r) => [
      buyerKey(r.n, r.promotion_id),
      { redemptions: r.redemptions, hasPreviousOrders: r.has_previous_orders },
    ]),
  );
}

/** A placed order's cart lines to take out: what it ordered of each variant, summed per cart. */
function takeFromCart(
  ordered: Map<string, { cart_id: number; variant_id: number; quantity: number }>,
  cart: LockedCart,
  lines: readonly OrderLineValues[],
): void {
  for (const l of lines) {
    if (l.variantId === null) continue;
    const k = `${cart.id}:${l.variantId}`;
    const line = ordered.get(k) ?? { cart_id: cart.id, variant_id: l.variantId, quantity: 0 };
    line.quantity += l.quantity;
    ordered.set(k, line);
  }
}

/**
 * What the write statement takes, from the decisions: the placed orders (rows keyed by column name), the claims of
 * refused ones to give back, stock and promotion uses to take, cart lines to take out.
 */
export function writeArguments(input: {
  batch: readonly PlacementWrite[];
  decisions: readonly Decision[];
  claimed: Set<string>;
  carts: readonly LockedCart[];
}) {
  const { batch, decisions, claimed, carts } = input;
  const placed: unknown[] = [];
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
    placed.push({
      n,
      order_row: byColumnName(ORDER_WRITTEN_COLUMNS, w.order),
      lines: w.lines.map((l) => {
        const line = byColumnName(LINE_WRITTEN_COLUMNS, l);
        line.stock_reserved = counted.has(l.variantId ?? -1);
        return line;
      }),
      promotion_ids: decision.promotionIds,
      scope: claim?.scope ?? null,
      key: claim?.key ?? null,
      request_hash: claim?.requestHash ?? null,
      response: claim ? w.response : null,
    });
    for (const s of decision.stock) stock.set(s.variantId, (stock.get(s.variantId) ?? 0) + s.quantity);
    for (const id of decision.promotionIds) uses.set(id, (uses.get(id) ?? 0) + 1);
    const owner = w.cart;
    const cart =
      owner && carts.find((c) => ('userId' in owner ? c.userId === owner.userId : c.tokenHash === owner.tokenHash));
    if (cart) takeFromCart(ordered, cart, w.lines);
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
  ];
  return { values, placed: placed.length, anything: placed.length > 0 || released.length > 0 };
}
