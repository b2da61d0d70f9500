import type { fulfillmentStates, fulfillmentStatuses } from '../db/schema.js';
import type { OrderStatus } from './order-states.js';

/**
 * The rules of fulfillments (docs/decisions/0027-fulfilments.md), pure: what may still go out, whether a new
 * fulfillment fits, how far an order has gone out (its `fulfillment_status`), and where that takes the order's status.
 * The service reads the rows (the order locked), asks these, and writes what they answer.
 */

export type FulfillmentState = (typeof fulfillmentStates)[number];
export type FulfillmentStatus = (typeof fulfillmentStatuses)[number];

/**
 * One order line as the rules see it: what was ordered. Returned units are not counted apart: only shipped units are
 * returned (src/returns/return.decide.ts), so they are in fulfillments already and are never fulfilled again.
 */
export interface LineUnits {
  lineId: number;
  alias: string;
  ordered: number;
}

/** One fulfillment as the rules see it: its state and its units per order line. */
export interface FulfillmentUnits {
  status: FulfillmentState;
  lines: readonly { lineId: number; quantity: number }[];
}

/** Units of each line in fulfillments whose state is one of `states`. */
function unitsIn(fulfillments: readonly FulfillmentUnits[], states: readonly FulfillmentState[]): Map<number, number> {
  const units = new Map<number, number>();
  for (const f of fulfillments) {
    if (!states.includes(f.status)) continue;
    for (const l of f.lines) units.set(l.lineId, (units.get(l.lineId) ?? 0) + l.quantity);
  }
  return units;
}

const LIVE: readonly FulfillmentState[] = ['pending', 'shipped', 'delivered'];

/** What each line may still put in a new fulfillment: ordered − units in fulfillments that are not cancelled, ≥ 0. */
export function fulfillableByLine(
  lines: readonly LineUnits[],
  fulfillments: readonly FulfillmentUnits[],
): Map<number, number> {
  const taken = unitsIn(fulfillments, LIVE);
  return new Map(lines.map((l) => [l.lineId, Math.max(0, l.ordered - (taken.get(l.lineId) ?? 0))]));
}

/** A line of a fulfillment asked for: the order line's alias and how many of its units. */
export interface RequestedLine {
  alias: string;
  quantity: number;
}

/** Why a fulfillment asked for does not fit; `index` is the position of the line in the request. */
export type FulfillmentRefusal =
  | { kind: 'unknown_line'; index: number; alias: string }
  | { kind: 'duplicate_line'; index: number; alias: string }
  | { kind: 'too_many'; index: number; alias: string; requested: number; fulfillable: number }
  | { kind: 'nothing_left' };

export type FulfillmentDecision =
  | { ok: true; lines: { lineId: number; quantity: number }[] }
  | { ok: false; refusal: FulfillmentRefusal };

/**
 * The units of a new fulfillment: those asked for, each line checked against what it may still put in one; or, when
 * no lines are named, every unit still fulfillable. Refused, as a value, for an unknown or repeated line, a quantity
 * above what is fulfillable, or nothing left at all.
 */
export function decideFulfillment(input: {
  lines: readonly LineUnits[];
  fulfillments: readonly FulfillmentUnits[];
  requested: readonly RequestedLine[] | undefined;
}): FulfillmentDecision {
  const fulfillable = fulfillableByLine(input.lines, input.fulfillments);
  if (input.requested === undefined) {
    const all = input.lines
      .map((l) => ({ lineId: l.lineId, quantity: fulfillable.get(l.lineId) ?? 0 }))
      .filter((l) => l.quantity > 0);
    return all.length > 0 ? { ok: true, lines: all } : { ok: false, refusal: { kind: 'nothing_left' } };
  }
  const byAlias = new Map(input.lines.map((l) => [l.alias, l]));
  const seen = new Set<string>();
  const out: { lineId: number; quantity: number }[] = [];
  for (const [index, r] of input.requested.entries()) {
    const line = byAlias.get(r.alias);
    if (!line) return { ok: false, refusal: { kind: 'unknown_line', index, alias: r.alias } };
    if (seen.has(r.alias)) return { ok: false, refusal: { kind: 'duplicate_line', index, alias: r.alias } };
    seen.add(r.alias);
    const most = fulfillable.get(line.lineId) ?? 0;
    if (r.quantity > most)
      return {
        ok: false,
        refusal: { kind: 'too_many', index, alias: r.alias, requested: r.quantity, fulfillable: most },
      };
    out.push({ lineId: line.lineId, quantity: r.quantity });
  }
  return out.length > 0 ? { ok: true, lines: out } : { ok: false, refusal: { kind: 'nothing_left' } };
}

const sum = (units: Map<number, number>) => [...units.values()].reduce((a, b) => a + b, 0);

/**
 * How far an order's units have gone out, from its lines and fulfillments (cancelled ones count for nothing), in
 * units over the whole order:
 * - delivered: every unit ordered is in a delivered fulfillment;
 * - shipped: every unit is in a shipped (or delivered) one;
 * - partially_shipped: some unit is shipped, not all;
 * - fulfilled: every unit is in a fulfillment, none shipped yet;
 * - partially_fulfilled: some unit is in one;
 * - unfulfilled: none is.
 * Units returned count as they went out: a return does not make an order unshipped. This is how far the order went
 * out, which its status follows (`orderMovesFor`); what the order shows adds its returns
 * (`fulfillmentStatusWithReturns`).
 */
export function fulfillmentStatusOf(
  lines: readonly Pick<LineUnits, 'lineId' | 'ordered'>[],
  fulfillments: readonly FulfillmentUnits[],
): FulfillmentStatus {
  const ordered = lines.reduce((a, l) => a + l.ordered, 0);
  if (ordered === 0) return 'unfulfilled';
  const live = sum(unitsIn(fulfillments, LIVE));
  const shipped = sum(unitsIn(fulfillments, ['shipped', 'delivered']));
  const delivered = sum(unitsIn(fulfillments, ['delivered']));
  if (delivered >= ordered) return 'delivered';
  if (shipped >= ordered) return 'shipped';
  if (shipped > 0) return 'partially_shipped';
  if (live >= ordered) return 'fulfilled';
  if (live > 0) return 'partially_fulfilled';
  return 'unfulfilled';
}

/** One return as the order's fulfillment status counts it: its state and its units per order line. */
export interface ReturnedUnits {
  status: string;
  lines: readonly { lineId: number; quantity: number }[];
}

/** Return states whose goods came back to the store: received, then refunded. Requested, rejected, cancelled: not. */
const GOODS_BACK: readonly string[] = ['received', 'refunded'];

/**
 * The order's `fulfillment_status` (decision 0029, amended): how far it went out (`fulfillmentStatusOf`), unless
 * every unit went out and some came back, in units over the whole order:
 * - returned: every unit ordered is in a return received or refunded;
 * - partially_returned: every unit shipped (`shipped` or `delivered`) and some, not all, came back.
 * An order still going out (partially shipped) keeps saying so; its returns show once the rest has shipped. An order
 * without returns answers as before.
 */
export function fulfillmentStatusWithReturns(
  lines: readonly Pick<LineUnits, 'lineId' | 'ordered'>[],
  fulfillments: readonly FulfillmentUnits[],
  returns: readonly ReturnedUnits[],
): FulfillmentStatus {
  const progress = fulfillmentStatusOf(lines, fulfillments);
  if (progress !== 'shipped' && progress !== 'delivered') return progress;
  const ordered = lines.reduce((a, l) => a + l.ordered, 0);
  let back = 0;
  for (const r of returns) if (GOODS_BACK.includes(r.status)) for (const l of r.lines) back += l.quantity;
  if (back >= ordered) return 'returned';
  return back > 0 ? 'partially_returned' : progress;
}

/** The order statuses an order may be fulfilled in: paid (or held in full) and not yet moved on by hand. */
export const FULFILLABLE_ORDER_STATUSES: readonly OrderStatus[] = ['approved', 'processing'];

/** The order's status each fulfillment status calls for; null: it calls for none (nothing went out). */
const ORDER_STATUS_FOR: Record<FulfillmentStatus, OrderStatus | null> = {
  unfulfilled: null,
  partially_fulfilled: 'processing',
  fulfilled: 'processing',
  partially_shipped: 'processing',
  shipped: 'shipped',
  delivered: 'delivered',
  // Returns do not move the order's status: `orderMovesFor` is asked with how far it went out (fulfillmentStatusOf).
  partially_returned: null,
  returned: null,
};

/** The forward path of the order state machine that fulfillments move an order along. */
const FORWARD: readonly OrderStatus[] = ['approved', 'processing', 'shipped', 'delivered'];

/**
 * The moves an order makes after its fulfillment status became `fulfillment`, in order, one step of its state machine
 * each (approved → processing → shipped → delivered): forward only, to the status the fulfillment status calls for.
 * None for an order off that path (pending, cancelled) or already there or beyond.
 */
export function orderMovesFor(status: OrderStatus, fulfillment: FulfillmentStatus): OrderStatus[] {
  const target = ORDER_STATUS_FOR[fulfillment];
  const from = FORWARD.indexOf(status);
  if (target === null || from < 0) return [];
  return FORWARD.slice(from + 1, FORWARD.indexOf(target) + 1);
}

/** The fulfilment statuses of an order no unit of which is in a shipped or delivered shipment. */
const NOTHING_SHIPPED: readonly FulfillmentStatus[] = ['unfulfilled', 'partially_fulfilled', 'fulfilled'];

/**
 * The guard on cancelling (decision 0027, amended): an order is cancelled only while nothing of it has shipped. What
 * went out is the customer's and comes back as a return; pending shipments are cancelled with the order.
 */
export function nothingShipped(fulfillment: FulfillmentStatus): boolean {
  return NOTHING_SHIPPED.includes(fulfillment);
}

/** The order statuses its fulfillments decide: an order that has any goes there with them, never by hand. */
const FOLLOWS_FULFILLMENTS: readonly OrderStatus[] = ['shipped', 'delivered'];

/**
 * The statuses an admin may move an order to by hand, of those its state machine allows (`allowed`): all of them for
 * an order without fulfillments (the old manual moves), all but shipped and delivered for one with some, whose status
 * follows them; and cancelled only while nothing of it has shipped (`nothingShipped`).
 */
export function statusesByHand(allowed: readonly OrderStatus[], fulfillment: FulfillmentStatus): OrderStatus[] {
  return allowed.filter(
    (s) =>
      (fulfillment === 'unfulfilled' || !FOLLOWS_FULFILLMENTS.includes(s))
      && (s !== 'cancelled' || nothingShipped(fulfillment)),
  );
}

export const TRACKING_NUMBER_PLACEHOLDER = '{tracking_number}';

/** Whether `text` is an absolute http(s) URL. */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * A shipment's tracking link: the one given (checked by the caller to be http(s)), else the carrier's template
 * (matched without regard to case) with the tracking number in place of `{tracking_number}`, URL-encoded; null
 * without a tracking number or a template for the carrier.
 */
export function trackingUrlFor(input: {
  carrier: string | null;
  trackingNumber: string | null;
  given: string | null;
  templates: Readonly<Record<string, string>>;
}): string | null {
  if (input.given !== null) return input.given;
  if (input.carrier === null || input.trackingNumber === null) return null;
  const template = input.templates[input.carrier.trim().toLowerCase()];
  if (template === undefined) return null;
  return template.split(TRACKING_NUMBER_PLACEHOLDER).join(encodeURIComponent(input.trackingNumber));
}

/**
 * What the units shipped so far are worth, in minor units, from the order's stored figures (CAPTURE_ON_SHIPMENT,
 * decision 0027): each line's `total` (after its discount, with its tax) in proportion to its units shipped, rounded
 * down, so a line whose every unit shipped counts its whole total; and the rest of the order's total (shipping, its
 * tax, less what promotions took off it) with the first unit shipped. Cumulative: once every unit shipped it is the
 * order's total exactly, and what one shipment adds is the difference it makes.
 */
export function shippedValue(input: {
  total: number;
  lines: readonly { lineId: number; quantity: number; total: number }[];
  fulfillments: readonly FulfillmentUnits[];
}): number {
  const shipped = unitsIn(input.fulfillments, ['shipped', 'delivered']);
  let value = 0;
  let anyShipped = false;
  for (const line of input.lines) {
    const units = Math.min(line.quantity, shipped.get(line.lineId) ?? 0);
    if (units > 0) anyShipped = true;
    value += Math.floor((line.total * units) / line.quantity);
  }
  const rest = input.total - input.lines.reduce((a, l) => a + l.total, 0);
  return anyShipped ? value + rest : 0;
}
