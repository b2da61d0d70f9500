import { addMinor, type RoundingMode, subtractMinor, sumMinor } from '../../shared/money.js';
import { claimUnits } from './claimed-units.js';
import { checkConditions } from './promotion.check.js';
import type { LineLeft } from './promotion.modules.js';
import { promotionOrder } from './promotion-order.js';
import type { AppliedPromotion, LineAdjustment } from './promotion-result.types.js';
import type { Promotion } from './promotion.types.js';
import { takeOf } from './registry.js';
import { applyUnitTakes, linesAtPrice, takenPerLine } from './unit-runs.js';

export interface PromotionsInput {
  /** Candidates whose own rules (window, limits, customers) the caller checked; conditions are checked here. */
  promotions: readonly Promotion[];
  /** The order's lines, merged (one per alias); the result's lines follow their order. */
  lines: readonly { productId: number; unitPriceMinor: number; quantity: number }[];
  /** The shipping fee before any discount (0 without shipping). */
  shippingFeeMinor: number;
  currency: string;
  roundingMode: RoundingMode;
}

export interface PromotionsApplied {
  /** What applied, in the order applied; a promotion that took nothing off is not listed. */
  promotions: AppliedPromotion[];
  /** One per input line: what the promotions took off it, in all and by promotion. */
  lines: { discountMinor: number; adjustments: LineAdjustment[] }[];
  shippingDiscountMinor: number;
  /** Σ line discounts + shipping discount. */
  discountMinor: number;
}

/** What one promotion took, applied after the ones before it. */
interface Effect {
  promotion: Promotion;
  lines: number[];
  shippingMinor: number;
  amountMinor: number;
}

interface Outcome {
  effects: Effect[];
  totalMinor: number;
}

/** Higher priority first, then lower id: the order of SPEC section 10, whatever order the promotions came in. */
export function byPriority(a: Promotion, b: Promotion): number {
  return b.priority - a.priority || a.id - b.id;
}

/**
 * The promotions of an order (SPEC section 10), in minor units: those whose conditions hold; the combinable ones in
 * priority order, each on the amounts the ones before it left; each exclusive one priced alone on the full amounts;
 * the largest exclusive one alone if it beats the combinable ones together (ties: the combinable ones), so the
 * customer gets the better of the two. Tax is the caller's, on what is left.
 */
export function applyPromotions(input: PromotionsInput): PromotionsApplied {
  const ids = new Set<number>();
  for (const promotion of input.promotions) {
    if (ids.has(promotion.id)) throw new RangeError('two promotions share an id');
    ids.add(promotion.id);
  }
  const order = promotionOrder(input.currency, input.lines);
  const combinable: Promotion[] = [];
  const exclusives: Promotion[] = [];
  for (const promotion of input.promotions) {
    if (checkConditions(promotion, order).ok) (promotion.combinable ? combinable : exclusives).push(promotion);
  }
  const start = { lines: linesAtPrice(input.lines), shippingLeftMinor: input.shippingFeeMinor };
  const apply = (promotions: readonly Promotion[]) => applyInTurn(promotions, { start, mode: input.roundingMode });

  const combined = apply(combinable.sort(byPriority));
  let exclusive: Outcome | null = null;
  for (const promotion of exclusives.sort(byPriority)) {
    const alone = apply([promotion]);
    if (exclusive === null || alone.totalMinor > exclusive.totalMinor) exclusive = alone;
  }
  const winner = exclusive !== null && exclusive.totalMinor > combined.totalMinor ? exclusive : combined;
  return applied(
    winner.effects.filter((e) => e.amountMinor > 0),
    input.lines.length,
  );
}

function applyInTurn(
  promotions: readonly Promotion[],
  from: { start: { lines: LineLeft[]; shippingLeftMinor: number }; mode: RoundingMode },
): Outcome {
  let { lines, shippingLeftMinor } = from.start;
  const effects: Effect[] = [];
  let totalMinor = 0;
  for (const promotion of promotions) {
    const take = takeOf(promotion.action, { lines, shippingLeftMinor, roundingMode: from.mode });
    if (!Number.isSafeInteger(take.shippingMinor) || take.shippingMinor < 0 || take.shippingMinor > shippingLeftMinor) {
      throw new RangeError(`promotion ${promotion.id} takes ${take.shippingMinor} off a fee of ${shippingLeftMinor}`);
    }
    const perLine = takenPerLine(lines.length, take.units);
    // A buy-get's units are claimed before its takes, which name them by their values before it (claimed-units.ts).
    if (take.claims && take.claims.length > 0) lines = claimUnits(lines, take.claims);
    if (take.units.length > 0) lines = applyUnitTakes(lines, take.units);
    shippingLeftMinor = subtractMinor(shippingLeftMinor, take.shippingMinor);
    const amountMinor = addMinor(sumMinor(perLine), take.shippingMinor);
    effects.push({ promotion, lines: perLine, shippingMinor: take.shippingMinor, amountMinor });
    totalMinor = addMinor(totalMinor, amountMinor);
  }
  return { effects, totalMinor };
}

function applied(effects: readonly Effect[], lineCount: number): PromotionsApplied {
  const lines: PromotionsApplied['lines'] = [];
  let linesDiscountMinor = 0;
  for (let i = 0; i < lineCount; i++) {
    const adjustments: LineAdjustment[] = [];
    let discountMinor = 0;
    for (const effect of effects) {
      const amountMinor = effect.lines[i] ?? 0;
      if (amountMinor > 0) {
        adjustments.push({ promotionId: effect.promotion.id, amountMinor });
        discountMinor = addMinor(discountMinor, amountMinor);
      }
    }
    lines.push({ discountMinor, adjustments });
    linesDiscountMinor = addMinor(linesDiscountMinor, discountMinor);
  }
  let shippingDiscountMinor = 0;
  for (const effect of effects) shippingDiscountMinor = addMinor(shippingDiscountMinor, effect.shippingMinor);
  return {
    promotions: effects.map(({ promotion, amountMinor }) => ({
      id: promotion.id,
      name: promotion.name,
      code: promotion.code,
      kind: promotion.action.type,
      amountMinor,
    })),
    lines,
    shippingDiscountMinor,
    discountMinor: addMinor(linesDiscountMinor, shippingDiscountMinor),
  };
}
