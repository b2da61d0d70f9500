import { type ArchiveFacts, isBuyable, sellableUnits, type StockFacts } from '../catalog/availability.js';
import { sameBuyer, sameCustomer } from '../pricing/promotions/customer.js';
import { checkPromotion, type PromotionRule } from '../pricing/promotions/promotion.check.js';
import type { PromotionOrder } from '../pricing/promotions/promotion.modules.js';
import type { Promotion } from '../pricing/promotions/promotion.types.js';
import { currencyRefusal, promotionInCurrency } from '../pricing/promotions/promotion-currency.js';
import type { StoredResponse } from '../orders/idempotency.js';

/**
 * Decides a batch of placements: which are placed, what each takes, and why the others are refused. Pure (no I/O),
 * so every rule a placement is held to under lock lives here, in TypeScript, once: the database part
 * (placement.write.ts and its statements) claims keys, locks and reads what this needs, and writes what it decided.
 */

export interface IdempotencyClaim {
  scope: string;
  key: string;
  requestHash: string;
}

/** Who places an order: a user, or a guest known by email (a user's email too when a promo rule needs it). */
export interface Buyer {
  userId: number | null;
  email: string | null;
}

/** What the decision needs of one placement, as it was priced. */
export interface PlacementToDecide {
  idempotency: IdempotencyClaim | undefined;
  buyer: Buyer;
  /** Each line's variant, quantity, and the pricing versions of the variant and its product it was priced at. */
  lines: readonly { variantId: number; quantity: number; pricingVersion: number; productPricingVersion: number }[];
  /**
   * The promotions that applied when it was priced, each with the version priced (`updated_at` in ms) and whether it
   * came from the customer's code; `order` is what their conditions look at.
   */
  promotions: readonly { id: number; version: number; byCode: boolean }[];
  order: PromotionOrder;
  /**
   * The market it was priced in and that market's pricing then (`marketPricingVersion`: currency, rate, rounding);
   * null for the default market, whose pricing is the store's configuration.
   */
  market: { id: number; pricingVersion: string } | null;
  /** The store's currency: in an order of another, a promotion is checked with its amounts in the order's. */
  storeCurrency: string;
}

/** A variant as read under lock (variants whose stock is not counted are read without one). */
export interface LockedVariant extends StockFacts, ArchiveFacts {
  id: number;
  pricingVersion: number;
  productPricingVersion: number;
}

/** An idempotency key of the batch: claimed by this batch, or already answered (or vanished) before it. */
export type KeyState =
  | { claimed: true }
  | { claimed: false; stored: (StoredResponse & { requestHash: string }) | undefined };

/** What the database part read in the batch's transaction, under the locks. */
export interface LockedState {
  now: Date;
  /** By `keyId`. */
  keys: ReadonlyMap<string, KeyState>;
  variants: ReadonlyMap<number, LockedVariant>;
  /** The batch's promotions by id, locked, with their version (`updated_at` in ms) and uses so far. */
  promotions: ReadonlyMap<number, { promotion: Promotion; version: number; timesUsed: number }>;
  /** The batch's markets (but the default) by id, each with its pricing as committed (`marketPricingVersion`). */
  markets: ReadonlyMap<number, string>;
  /**
   * By `buyerKey(index in the batch, promotion id)`, for the promotions of a placement that limit uses per customer or
   * to a first order: the buyer's unreleased redemptions of it, and whether the buyer has an order not cancelled.
   */
  buyers: ReadonlyMap<string, { redemptions: number; hasPreviousOrders: boolean }>;
}

export type Refusal =
  | { reason: 'insufficient_stock'; shortages: { variantId: number; available: number }[] }
  | { reason: 'promo_code_refused'; rule: PromotionRule; detail: string }
  /** The catalog or a promotion changed since pricing, or an automatic promotion ran out: price again. */
  | { reason: 'price_changed' }
  | { reason: 'key_reused' }
  /** The key's first request vanished while this one waited on it (a purge raced it): retry. */
  | { reason: 'key_in_flux' };

export type Decision =
  | { outcome: 'placed'; stock: { variantId: number; quantity: number }[]; promotionIds: number[] }
  /** The key was answered before this batch: that answer. */
  | { outcome: 'replayed'; stored: StoredResponse }
  /** The key is an earlier placement's of this batch, with the same request: that placement's answer. */
  | { outcome: 'same_as'; index: number }
  | { outcome: 'refused'; refusal: Refusal };

export const keyId = (claim: { scope: string; key: string }) => `${claim.scope}\u0000${claim.key}`;

/** The key of `LockedState.buyers`: a placement of the batch and one of its promotions. */
export const buyerKey = (index: number, promotionId: number) => `${index}:${promotionId}`;

const refused = (refusal: Refusal): Decision => ({ outcome: 'refused', refusal });

/** Units per variant of a placement (a variant appears once per placement after pricing, but need not). */
function unitsByVariant(lines: PlacementToDecide['lines']): Map<number, number> {
  const units = new Map<number, number>();
  for (const line of lines) units.set(line.variantId, (units.get(line.variantId) ?? 0) + line.quantity);
  return units;
}

/** The answer a placement's key gives before anything else is looked at, if any. */
function keyDecision(
  placement: PlacementToDecide,
  state: KeyState | undefined,
  earlier: { index: number; placement: PlacementToDecide } | undefined,
): Decision | undefined {
  const claim = placement.idempotency;
  if (!claim) return undefined;
  if (earlier) {
    return earlier.placement.idempotency?.requestHash === claim.requestHash
      ? { outcome: 'same_as', index: earlier.index }
      : refused({ reason: 'key_reused' });
  }
  if (state === undefined || state.claimed) return undefined;
  if (!state.stored) return refused({ reason: 'key_in_flux' });
  if (state.stored.requestHash !== claim.requestHash) return refused({ reason: 'key_reused' });
  return { outcome: 'replayed', stored: { status: state.stored.status, body: state.stored.body } };
}

/**
 * Why a placement's promotions no longer hold under lock, after the placements of the batch placed before it: a
 * promotion changed or went away (price again), a rule of the code fails (the customer is told which), or an automatic
 * promotion fails one (it ran out: priced again, the order goes without it). Undefined when they all hold.
 */
function refusedPromotion(input: {
  placement: PlacementToDecide;
  index: number;
  locked: LockedState;
  earlier: { placed: readonly PlacementToDecide[]; uses: ReadonlyMap<number, number> };
}): Refusal | undefined {
  const { placement, index, locked, earlier } = input;
  for (const applied of placement.promotions) {
    const read = locked.promotions.get(applied.id);
    if (!read || read.version !== applied.version) return { reason: 'price_changed' };
    const counts = locked.buyers.get(buyerKey(index, applied.id)) ?? { redemptions: 0, hasPreviousOrders: false };
    const earlierUses = earlier.placed.filter(
      (p) => p.promotions.some((q) => q.id === applied.id) && sameCustomer(placement.buyer, p.buyer),
    ).length;
    const promotion = promotionInCurrency(read.promotion, {
      order: placement.order.currency,
      store: placement.storeCurrency,
    });
    // Its amount in the order's currency was taken away since it was priced (its version moved first, so this is a
    // promotion changed by hand in the database): a code is refused as at the quote, an automatic one priced again.
    if (promotion === null) {
      return applied.byCode
        ? {
            reason: 'promo_code_refused',
            rule: 'currency',
            detail: currencyRefusal(read.promotion, placement.order.currency),
          }
        : { reason: 'price_changed' };
    }
    const check = checkPromotion({
      promotion,
      usage: {
        total: read.timesUsed + (earlier.uses.get(applied.id) ?? 0),
        byCustomer: counts.redemptions + earlierUses,
      },
      customer: {
        ...placement.buyer,
        hasPreviousOrders: counts.hasPreviousOrders || earlier.placed.some((p) => sameBuyer(placement.buyer, p.buyer)),
      },
      order: placement.order,
      now: locked.now,
    });
    if (check.ok) continue;
    return applied.byCode
      ? { reason: 'promo_code_refused', rule: check.rule, detail: check.detail }
      : { reason: 'price_changed' };
  }
  return undefined;
}

/**
 * Decides each placement in arrival order, as if placed alone after the earlier ones of the batch that were
 * placed: they took stock and used promo codes. Refusals change nothing, so they leave the others be.
 */
export function decideBatch(placements: readonly PlacementToDecide[], locked: LockedState): Decision[] {
  const taken = new Map<number, number>();
  const uses = new Map<number, number>();
  const placedWithKey = new Map<string, number>();
  const placed: PlacementToDecide[] = [];

  return placements.map((placement, index) => {
    const id = placement.idempotency ? keyId(placement.idempotency) : undefined;
    const byKey = keyDecision(
      placement,
      id === undefined ? undefined : locked.keys.get(id),
      earlierWithKey(placements, id === undefined ? undefined : placedWithKey.get(id)),
    );
    if (byKey) return byKey;
    if (priceChanged(placement, locked)) return refused({ reason: 'price_changed' });

    const promotionRefusal = refusedPromotion({ placement, index, locked, earlier: { placed, uses } });
    if (promotionRefusal) return refused(promotionRefusal);

    const { stock, shortages } = stockTaken(placement, locked, taken);
    if (shortages.length > 0) return refused({ reason: 'insufficient_stock', shortages });

    for (const s of stock) taken.set(s.variantId, (taken.get(s.variantId) ?? 0) + s.quantity);
    for (const p of placement.promotions) uses.set(p.id, (uses.get(p.id) ?? 0) + 1);
    if (id !== undefined) placedWithKey.set(id, index);
    placed.push(placement);
    return { outcome: 'placed', stock, promotionIds: placement.promotions.map((p) => p.id) };
  });
}

/** The placement of this batch placed earlier with the same key, if any (`index`: its position in the batch). */
function earlierWithKey(
  placements: readonly PlacementToDecide[],
  index: number | undefined,
): { index: number; placement: PlacementToDecide } | undefined {
  const placement = index === undefined ? undefined : placements[index];
  return placement && index !== undefined ? { index, placement } : undefined;
}

/**
 * Whether the placement's market prices otherwise than when it was priced (a rate or rounding rule changed since: the
 * quote used the markets in memory, which another process's change reaches only through the change feed), or a line's
 * variant is gone, no longer buyable, or priced otherwise. Either way it is priced again, at what is committed now.
 */
function priceChanged(placement: PlacementToDecide, locked: LockedState): boolean {
  const { market } = placement;
  if (market !== null && locked.markets.get(market.id) !== market.pricingVersion) return true;
  return placement.lines.some((line) => {
    const v = locked.variants.get(line.variantId);
    return (
      !v
      || v.pricingVersion !== line.pricingVersion
      || v.productPricingVersion !== line.productPricingVersion
      || !isBuyable(v)
    );
  });
}

/**
 * The stock a placement takes, per variant that counts stock, after what earlier placements of the batch took
 * (`taken`); or the variants short of it, with the units still available.
 */
function stockTaken(
  placement: PlacementToDecide,
  locked: LockedState,
  taken: ReadonlyMap<number, number>,
): {
  stock: { variantId: number; quantity: number }[];
  shortages: { variantId: number; available: number }[];
} {
  const stock: { variantId: number; quantity: number }[] = [];
  const shortages: { variantId: number; available: number }[] = [];
  for (const [variantId, quantity] of unitsByVariant(placement.lines)) {
    const v = locked.variants.get(variantId);
    const units = v ? sellableUnits(v) : null;
    if (units === null) continue;
    const left = units - (taken.get(variantId) ?? 0);
    if (left < quantity) shortages.push({ variantId, available: Math.max(left, 0) });
    else stock.push({ variantId, quantity });
  }
  return { stock, shortages };
}
