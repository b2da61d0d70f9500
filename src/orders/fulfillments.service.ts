import { lineRefusals } from './line-refusals.js';
import type { Db, Tx } from '../db/client.js';
import { type NewEvent, type Outbox, recordEvents } from '../events/outbox.js';
import { DomainError, invalidField } from '../shared/errors.js';
import {
  decideFulfillment,
  FULFILLABLE_ORDER_STATUSES,
  type FulfillmentRefusal,
  type FulfillmentState,
  fulfillmentStatusOf,
  isHttpUrl,
  type RequestedLine,
  orderMovesFor,
  trackingUrlFor,
} from './fulfillment.decide.js';
import { presentFulfillment } from './fulfillment.presenter.js';
import { fulfillmentEventTypes, fulfillmentStateMachine } from './fulfillment-states.js';
import {
  type FulfillmentWithLines,
  fulfillmentsOf,
  insertFulfillment,
  setFulfillmentState,
  setOrderFulfillmentStatus,
} from './fulfillments.repository.js';
import { presentOrder } from './order.presenter.js';
import { claimFor, rememberResponse, storedResponse } from './idempotency.js';
import { orderEvents } from './order-events.js';
import { linesOf, lockOrder, type OrderLineRow, type OrderRow } from './orders.repository.js';

/**
 * Fulfillments (decision 0027): every change runs in one transaction with the order's row locked (so two admins
 * fulfilling at once are counted one after the other, never over what was ordered), asks the pure rules
 * (fulfillment.decide.ts) and writes what they answer: the fulfillment, the order's fulfillment status and the status
 * moves that follow from it, and their events.
 */

export interface FulfillmentDeps {
  db: Db;
  outbox: Outbox;
  /** Carrier → tracking URL template (config.carrierTrackingUrls). */
  trackingUrls: Readonly<Record<string, string>>;
}

/** Tracking details as a request gives them (each optional). */
export interface TrackingInput {
  carrier?: string;
  trackingNumber?: string;
  trackingUrl?: string;
}

/** A fulfillment after a change, and its order as the change left it. */
export interface FulfillmentChange {
  fulfillment: FulfillmentWithLines;
  order: OrderRow;
}

/** A capture shipping asked for: the payment, the amount (decimal text), and how it went. */
export interface ShipmentCapture {
  payment_id: number;
  amount: string;
  status: 'succeeded' | 'failed';
  detail: string | null;
}

export type CaptureShipped = (
  change: FulfillmentChange,
  request: { adminId: number | null },
) => Promise<ShipmentCapture[]>;

const orderNotFound = (alias: string) => new DomainError('order_not_found', { detail: `order ${alias} not found` });

function refusalError(refusal: FulfillmentRefusal, alias: string): DomainError {
  switch (refusal.kind) {
    case 'nothing_left':
      return new DomainError('nothing_to_fulfill', { detail: `every unit of order ${alias} is fulfilled already` });
    case 'unknown_line':
      return lineRefusals.unknown(refusal, alias);
    case 'duplicate_line':
      return lineRefusals.twice(refusal);
    case 'too_many':
      return new DomainError('fulfillment_exceeds_fulfillable', {
        detail:
          `line "${refusal.alias}" can have at most ${refusal.fulfillable} more unit(s) fulfilled `
          + `(ordered, less those in fulfillments); ${refusal.requested} asked`,
        errors: [{ field: `lines[${refusal.index}].quantity`, message: `must be at most ${refusal.fulfillable}` }],
        extra: { alias: refusal.alias, requested: refusal.requested, fulfillable: refusal.fulfillable },
      });
  }
}

/** The tracking a request asks for, checked: a given URL must be http(s); otherwise the carrier's template. */
function trackingOf(
  deps: Pick<FulfillmentDeps, 'trackingUrls'>,
  input: TrackingInput,
  before?: FulfillmentWithLines,
): { carrier: string | null; trackingNumber: string | null; trackingUrl: string | null } {
  // Blank is not given.
  const text = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);
  const given = text(input.trackingUrl);
  if (given !== undefined && !isHttpUrl(given)) throw invalidField('tracking_url', 'must be an http(s) URL');
  const carrier = text(input.carrier) ?? before?.carrier ?? null;
  const trackingNumber = text(input.trackingNumber) ?? before?.trackingNumber ?? null;
  // The same carrier and number sent again keep the URL the parcel has; another carrier or number needs another one.
  const changed = before !== undefined && (carrier !== before.carrier || trackingNumber !== before.trackingNumber);
  const trackingUrl =
    given === undefined && before && !changed
      ? before.trackingUrl
      : trackingUrlFor({ carrier, trackingNumber, given: given ?? null, templates: deps.trackingUrls });
  return { carrier, trackingNumber, trackingUrl };
}

/** An order's lines as the rules see them. */
export const unitsOfLines = (lines: readonly OrderLineRow[]) =>
  lines.map((l) => ({ lineId: l.id, alias: l.alias, ordered: l.quantity }));

/** Fulfillments as the rules see them. */
export const unitsOfFulfillments = (fulfillments: readonly FulfillmentWithLines[]) =>
  fulfillments.map((f) => ({
    status: f.status,
    lines: f.lines.map((l) => ({ lineId: l.orderLineId, quantity: l.quantity })),
  }));

/**
 * After a fulfillment changed (the order locked): the order's fulfillment status again, the status moves it calls
 * for (each an order.status_changed), and the fulfillment's event first. Every event carries the order as the admin
 * API shows it with its fulfillments; the fulfillment's own also names it (`fulfillment`).
 */
async function recordFulfillmentChange(
  tx: Tx,
  deps: FulfillmentDeps,
  change: { order: OrderRow; lines: OrderLineRow[]; fulfillmentId: number; event: keyof typeof fulfillmentEventTypes },
): Promise<FulfillmentChange> {
  const { order, lines } = change;
  const fulfillments = await fulfillmentsOf(tx, order.id);
  const fulfillment = fulfillments.find((f) => f.id === change.fulfillmentId);
  if (!fulfillment) throw new Error(`fulfillment ${change.fulfillmentId} vanished`);
  const fulfillmentStatus = fulfillmentStatusOf(unitsOfLines(lines), unitsOfFulfillments(fulfillments));
  const moves = orderMovesFor(order.status, fulfillmentStatus);
  const status = moves.at(-1) ?? order.status;
  const after =
    status === order.status && fulfillmentStatus === order.fulfillmentStatus
      ? order
      : await setOrderFulfillmentStatus(tx, { id: order.id, fulfillmentStatus, status });
  const shipments = fulfillments.map(presentFulfillment);
  const ref = { id: order.id, alias: order.alias };
  const events: NewEvent[] = [
    {
      type: fulfillmentEventTypes[change.event],
      order: ref,
      data: { ...presentOrder(after, lines), fulfillments: shipments, fulfillment: presentFulfillment(fulfillment) },
    },
  ];
  // As every order event, the order without its shipments (those are in the fulfillment's event, just before).
  for (const step of moves) events.push(...orderEvents(['order.status_changed'], { ...after, status: step }, lines));
  await recordEvents(tx, deps.outbox, events);
  return { fulfillment, order: after };
}

/**
 * A new fulfillment of an order's units (all still fulfillable when no lines are named), pending, with the tracking
 * given. Only an approved or processing order is fulfilled (409 `order_not_fulfillable` otherwise: unpaid, cancelled,
 * or moved to shipped by hand); its first fulfillment moves an approved order to processing.
 */
export function createFulfillment(
  deps: FulfillmentDeps,
  input: {
    alias: string;
    lines?: RequestedLine[];
    tracking: TrackingInput;
    adminId: number | null;
    /** The request's Idempotency-Key: the same request again answers the fulfillment it made. */
    requestKey?: string;
  },
): Promise<FulfillmentChange> {
  return deps.outbox.jobs.transaction(deps.db, async (tx) => {
    const order = await lockOrder(tx, input.alias);
    if (!order) throw orderNotFound(input.alias);
    // Under the order's lock: a retry racing its first attempt finds the key the first wrote.
    const claim = claimFor({
      scope: `fulfillment:${order.alias}`,
      requestKey: input.requestKey,
      operation: 'create-fulfillment',
      payload: { lines: input.lines ?? null, ...input.tracking },
    });
    const earlier = claim && (await storedResponse(tx, claim));
    if (earlier) {
      const id = (earlier.body as { fulfillment_id: number }).fulfillment_id;
      const fulfillment = (await fulfillmentsOf(tx, order.id)).find((f) => f.id === id);
      if (fulfillment) return { fulfillment, order };
    }
    if (!FULFILLABLE_ORDER_STATUSES.includes(order.status))
      throw new DomainError('order_not_fulfillable', {
        detail:
          `order ${input.alias} is ${order.status} (payment ${order.paymentStatus}); only approved or processing `
          + 'orders are fulfilled',
        extra: { order_status: order.status, payment_status: order.paymentStatus },
      });
    const lines = await linesOf(tx, order.id);
    const existing = await fulfillmentsOf(tx, order.id);
    const decision = decideFulfillment({
      lines: unitsOfLines(lines),
      fulfillments: unitsOfFulfillments(existing),
      requested: input.lines,
    });
    if (!decision.ok) throw refusalError(decision.refusal, input.alias);
    const row = await insertFulfillment(tx, {
      orderId: order.id,
      ...trackingOf(deps, input.tracking),
      createdBy: input.adminId,
      lines: decision.lines,
    });
    if (claim) await rememberResponse(tx, claim, { status: 201, body: { fulfillment_id: row.id } });
    return recordFulfillmentChange(tx, deps, { order, lines, fulfillmentId: row.id, event: 'created' });
  });
}

/**
 * Moves one of an order's fulfillments along its state machine (409 `invalid_transition` naming the allowed moves
 * otherwise): shipped (with tracking given then), delivered, or cancelled.
 */
export function moveFulfillment(
  deps: FulfillmentDeps,
  input: {
    alias: string;
    fulfillmentId: number;
    to: Exclude<FulfillmentState, 'pending'>;
    tracking?: TrackingInput;
    /** The request's Idempotency-Key: the same move again answers the fulfillment as it is, moving nothing. */
    requestKey?: string;
  },
): Promise<FulfillmentChange> {
  return deps.outbox.jobs.transaction(deps.db, async (tx) => {
    const order = await lockOrder(tx, input.alias);
    if (!order) throw orderNotFound(input.alias);
    const fulfillment = (await fulfillmentsOf(tx, order.id)).find((f) => f.id === input.fulfillmentId);
    if (!fulfillment)
      throw new DomainError('fulfillment_not_found', {
        detail: `order ${input.alias} has no fulfillment ${input.fulfillmentId}`,
      });
    const claim = claimFor({
      scope: `fulfillment-${input.to}:${fulfillment.id}`,
      requestKey: input.requestKey,
      operation: `fulfillment-${input.to}`,
      payload: input.tracking ?? null,
    });
    if (claim && (await storedResponse(tx, claim))) return { fulfillment, order };
    fulfillmentStateMachine.assert(fulfillment.status, input.to, `fulfillment ${fulfillment.id}`);
    const tracking = input.tracking ? trackingOf(deps, input.tracking, fulfillment) : undefined;
    await setFulfillmentState(tx, { id: fulfillment.id, status: input.to, tracking });
    if (claim) await rememberResponse(tx, claim, { status: 200, body: { fulfillment_id: fulfillment.id } });
    const lines = await linesOf(tx, order.id);
    return recordFulfillmentChange(tx, deps, { order, lines, fulfillmentId: fulfillment.id, event: input.to });
  });
}
