import type { returnStates } from '../db/schema.js';
import type { FulfillmentUnits } from '../orders/fulfillment.decide.js';
import {
  type LineReturn,
  type ReturnRefund,
  refundForReturnedUnits,
  type ShippingRefunded,
  type StoredLineFigures,
} from '../pricing/return-refund.js';

/**
 * The rules of returns (docs/decisions/0029-returns.md), pure: which units may still be returned, whether a return
 * asked for fits, what receiving it puts back into stock, and what refunding it gives back (through the pricing core's
 * `refundForReturnedUnits`). The service reads the rows (the order locked), asks these, and writes what they answer.
 */

export type ReturnState = (typeof returnStates)[number];

/** One return as the rules see it: its state and its units per order line. */
export interface ReturnUnits {
  status: ReturnState;
  lines: readonly { lineId: number; quantity: number }[];
}

/** Returns whose units are taken: asked for, back, or refunded. Rejected and cancelled ones take none. */
const TAKING: readonly ReturnState[] = ['requested', 'received', 'refunded'];

function unitsByLine(entries: readonly { lines: readonly { lineId: number; quantity: number }[] }[]) {
  const units = new Map<number, number>();
  for (const e of entries) for (const l of e.lines) units.set(l.lineId, (units.get(l.lineId) ?? 0) + l.quantity);
  return units;
}

/**
 * What each line may still return: its units in shipped or delivered fulfillments, less those in returns that are
 * requested, received or refunded. Units not shipped are not returned (an unshipped unit is taken off by an order
 * edit, or its fulfillment cancelled).
 */
export function returnableByLine(
  lineIds: readonly number[],
  fulfillments: readonly FulfillmentUnits[],
  returns: readonly ReturnUnits[],
): Map<number, number> {
  const shipped = unitsByLine(fulfillments.filter((f) => f.status === 'shipped' || f.status === 'delivered'));
  const taken = unitsByLine(returns.filter((r) => TAKING.includes(r.status)));
  return new Map(lineIds.map((id) => [id, Math.max(0, (shipped.get(id) ?? 0) - (taken.get(id) ?? 0))]));
}

/** A line of a return asked for: the order line's alias, how many units, and the reason's code. */
export interface RequestedReturnLine {
  alias: string;
  quantity: number;
  reason: string;
}

/** Why a return asked for does not fit; `index` is the position of the line in the request. */
export type ReturnRefusal =
  | { kind: 'nothing_shipped' }
  | { kind: 'unknown_line'; index: number; alias: string }
  | { kind: 'duplicate_line'; index: number; alias: string }
  | { kind: 'unknown_reason'; index: number; reason: string }
  | { kind: 'too_many'; index: number; alias: string; requested: number; returnable: number };

export type ReturnDecision =
  | { ok: true; lines: { lineId: number; quantity: number; reason: string }[] }
  | { ok: false; refusal: ReturnRefusal };

/**
 * The units of a new return, each line checked against what it may still return and its reason against the reasons
 * offered (`reasons`: the active ones' codes). Refused, as a value, when nothing of the order has shipped, for an
 * unknown or repeated line, an unknown reason, or more units than the line may return.
 */
export function decideReturn(input: {
  lines: readonly { lineId: number; alias: string }[];
  fulfillments: readonly FulfillmentUnits[];
  returns: readonly ReturnUnits[];
  requested: readonly RequestedReturnLine[];
  reasons: ReadonlySet<string>;
}): ReturnDecision {
  const returnable = returnableByLine(
    input.lines.map((l) => l.lineId),
    input.fulfillments,
    input.returns,
  );
  if (!input.fulfillments.some((f) => f.status === 'shipped' || f.status === 'delivered'))
    return { ok: false, refusal: { kind: 'nothing_shipped' } };
  const byAlias = new Map(input.lines.map((l) => [l.alias, l]));
  const seen = new Set<string>();
  const out: { lineId: number; quantity: number; reason: string }[] = [];
  for (const [index, r] of input.requested.entries()) {
    const line = byAlias.get(r.alias);
    if (!line) return { ok: false, refusal: { kind: 'unknown_line', index, alias: r.alias } };
    if (seen.has(r.alias)) return { ok: false, refusal: { kind: 'duplicate_line', index, alias: r.alias } };
    seen.add(r.alias);
    if (!input.reasons.has(r.reason))
      return { ok: false, refusal: { kind: 'unknown_reason', index, reason: r.reason } };
    const most = returnable.get(line.lineId) ?? 0;
    if (r.quantity > most)
      return {
        ok: false,
        refusal: { kind: 'too_many', index, alias: r.alias, requested: r.quantity, returnable: most },
      };
    out.push({ lineId: line.lineId, quantity: r.quantity, reason: r.reason });
  }
  return { ok: true, lines: out };
}

/** What receiving a return does to each of its lines: whether its units go back into stock. */
export type ReceiptDecision =
  | { ok: true; restock: Map<number, boolean> }
  | { ok: false; refusal: { kind: 'unknown_line' | 'duplicate_line'; index: number; alias: string } };

/**
 * Which lines of a received return go back into stock: every line named in `requested` as it says, every other line
 * of the return yes (goods that came back are sold again unless the admin says they can't be). A line named that is
 * not in the return, or named twice, is refused.
 */
export function decideReceipt(input: {
  lines: readonly { lineId: number; alias: string }[];
  requested: readonly { alias: string; restock: boolean }[] | undefined;
}): ReceiptDecision {
  const restock = new Map(input.lines.map((l) => [l.lineId, true]));
  const byAlias = new Map(input.lines.map((l) => [l.alias, l.lineId]));
  const seen = new Set<string>();
  for (const [index, r] of (input.requested ?? []).entries()) {
    const lineId = byAlias.get(r.alias);
    if (lineId === undefined) return { ok: false, refusal: { kind: 'unknown_line', index, alias: r.alias } };
    if (seen.has(r.alias)) return { ok: false, refusal: { kind: 'duplicate_line', index, alias: r.alias } };
    seen.add(r.alias);
    restock.set(lineId, r.restock);
  }
  return { ok: true, restock };
}

/** The shipping figures of an order, as `orders` stores them. */
export interface OrderShippingFigures {
  shippingFee: number;
  shippingDiscount: number;
  shippingTax: number;
}

/** What refunded returns gave back of the shipping (their stored refund figures). */
export interface ShippingGivenBack {
  shipping_fee: number;
  shipping_discount: number;
  shipping_tax: number;
}

/**
 * What refunding a return gives back: its units' share of what their lines were paid (largest remainder, taking each
 * line's units after those earlier refunded returns took), and the shipping when asked (what earlier refunds left of
 * it). The pricing core computes it (`refundForReturnedUnits`); this only gathers its inputs from the order's rows.
 * Throws when the return asks more than its lines have left: the returnable check at request time prevents it.
 */
export function refundOfReturn(input: {
  pricesIncludeTax: boolean;
  /** The order's lines' stored figures, by line id. */
  lines: ReadonlyMap<number, StoredLineFigures>;
  returning: readonly { lineId: number; quantity: number }[];
  /** Returns refunded before this one: their units, and what they gave back of the shipping. */
  refundedBefore: readonly { lines: readonly { lineId: number; quantity: number }[]; shipping: ShippingGivenBack }[];
  /** The order's shipping figures when the shipping is refunded too; null keeps it. */
  shipping: OrderShippingFigures | null;
}): ReturnRefund {
  const before = unitsByLine(input.refundedBefore);
  const lines: LineReturn[] = input.returning.map((r) => {
    const line = input.lines.get(r.lineId);
    if (!line) throw new RangeError(`line ${r.lineId} is not a line of the order`);
    return { line, quantity: r.quantity, returnedBefore: before.get(r.lineId) ?? 0 };
  });
  const shippingBefore: ShippingRefunded = { feeMinor: 0, discountMinor: 0, taxMinor: 0 };
  for (const r of input.refundedBefore) {
    shippingBefore.feeMinor += r.shipping.shipping_fee;
    shippingBefore.discountMinor += r.shipping.shipping_discount;
    shippingBefore.taxMinor += r.shipping.shipping_tax;
  }
  const result = refundForReturnedUnits({
    pricesIncludeTax: input.pricesIncludeTax,
    lines,
    shipping: input.shipping && { ...input.shipping, refundedBefore: shippingBefore },
  });
  if (!result.ok) throw new RangeError(result.detail);
  return result.refund;
}
