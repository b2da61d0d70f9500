import { lineRefusals } from './line-refusals.js';
import type { Database, Transaction } from '../db/client.js';
import { lockedOrderEventStatements } from '../events/new-order-events.js';
import type { NewEvent, Outbox } from '../events/outbox.js';
import { DomainError, invalidField } from '../shared/errors.js';
import {
  decideFulfillment,
  FULFILLABLE_ORDER_STATUSES,
  type FulfillmentRefusal,
  type FulfillmentState,
  fulfillmentStatusOf,
  fulfillmentStatusWithReturns,
  isHttpUrl,
  type RequestedLine,
  orderMovesFor,
  type ReturnedUnits,
  trackingUrlFor,
} from './fulfillment.decide.js';
import { presentFulfillment } from './fulfillment.presenter.js';
import { fulfillmentEventTypes, fulfillmentStateMachine } from './fulfillment-states.js';
import {
  type FulfillmentWithLines,
  fulfillmentsOfOrderAlias,
  fulfillmentsOfRows,
  insertFulfillment,
  reserveFulfillmentId,
  saveFulfillmentState,
} from './fulfillments.repository.js';
import { presentOrder } from './order.presenter.js';
import { claimFor, type IdempotencyClaim, rememberResponseCalls } from './idempotency.js';
import { orderEvents } from './order-events.js';
import { lockOrderAndRead, returnedUnitsOfOrderAlias, saveOrderFulfillmentStatus } from './order.statements.js';
import type { OrderLineRow, OrderRow } from './orders.repository.js';

/**
 * Fulfillments (decision 0027): every change runs in one transaction with the order's row locked (so two admins
 * fulfilling at once are counted one after the other, never over what was ordered), asks the pure rules
 * (fulfillment.decide.ts) and writes what they answer: the fulfillment, the order's fulfillment status and the status
 * moves that follow from it, and their events.
 */

export interface FulfillmentDeps {
  database: Database;
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

/** What a change of an order's fulfillments reads under the order's lock, in its first message. */
interface LockedForFulfillment {
  order: OrderRow;
  /** The transaction's time: what the change stamps. */
  now: Date;
  lines: OrderLineRow[];
  fulfillments: FulfillmentWithLines[];
  /** The order's returns, as its fulfillment status counts them. */
  returns: ReturnedUnits[];
  /** The fulfillment the request's Idempotency-Key made or moved before, if it did. */
  earlier: { fulfillmentId: number } | undefined;
  /** A new fulfillment's id, when asked for (`reserveId`). */
  newId: number | undefined;
}

/** The first message of a change (`lockOrderAndRead`), with the order's fulfillments. 404 without the order. */
async function lockForFulfillment(
  tx: Transaction,
  input: {
    alias: string;
    claim: IdempotencyClaim | undefined;
    /** Whether to take a new fulfillment's id too (`newId`): a creation's. */
    reserveId?: boolean;
  },
): Promise<LockedForFulfillment> {
  const read = await lockOrderAndRead<
    [Parameters<typeof fulfillmentsOfRows>[0][number], ReturnedUnits, { id: number }]
  >(tx, {
    alias: input.alias,
    claim: input.claim,
    reads: [
      { statement: fulfillmentsOfOrderAlias, values: [input.alias] },
      { statement: returnedUnitsOfOrderAlias, values: [input.alias] },
      input.reserveId ? { statement: reserveFulfillmentId, values: [] } : undefined,
    ],
  });
  if (!read) throw orderNotFound(input.alias);
  const [fulfillments, returns, reserved] = read.rows;
  return {
    ...read,
    fulfillments: fulfillmentsOfRows(fulfillments),
    returns,
    earlier: read.earlier && { fulfillmentId: (read.earlier.body as { fulfillment_id: number }).fulfillment_id },
    newId: reserved[0]?.id,
  };
}

/**
 * The second message of a change, with its COMMIT: what TypeScript decided (`writes`: the fulfillment's own, the
 * kept answer), then the order's fulfillment status again, the status moves it calls for (each an
 * order.status_changed), and the fulfillment's event first. Every event carries the order as the admin API shows it
 * with its fulfillments; the fulfillment's own also names it (`fulfillment`). Answers the change, and what to do once
 * committed.
 */
async function commitFulfillmentChange(
  tx: Transaction,
  deps: FulfillmentDeps,
  change: {
    read: LockedForFulfillment;
    /** The order's fulfillments after the change, the changed one among them. */
    fulfillments: FulfillmentWithLines[];
    fulfillment: FulfillmentWithLines;
    event: keyof typeof fulfillmentEventTypes;
    writes: ReturnType<typeof rememberResponseCalls>;
  },
): Promise<{ change: FulfillmentChange; committed: () => void }> {
  const { order, lines, now } = change.read;
  const units = unitsOfFulfillments(change.fulfillments);
  // The status follows how far the order went out; what it shows adds what came back.
  const moves = orderMovesFor(order.status, fulfillmentStatusOf(unitsOfLines(lines), units));
  const fulfillmentStatus = fulfillmentStatusWithReturns(unitsOfLines(lines), units, change.read.returns);
  const status = moves.at(-1) ?? order.status;
  const unchanged = status === order.status && fulfillmentStatus === order.fulfillmentStatus;
  const after: OrderRow = unchanged ? order : { ...order, fulfillmentStatus, status, updatedAt: now };
  const shipments = change.fulfillments.map(presentFulfillment);
  const events: NewEvent[] = [
    {
      type: fulfillmentEventTypes[change.event],
      order: { id: order.id, alias: order.alias },
      data: {
        ...presentOrder(after, lines),
        fulfillments: shipments,
        fulfillment: presentFulfillment(change.fulfillment),
      },
    },
  ];
  // As every order event, the order without its shipments (those are in the fulfillment's event, just before).
  for (const step of moves) events.push(...orderEvents(['order.status_changed'], { ...after, status: step }, lines));
  const recording = lockedOrderEventStatements(deps.outbox, order, events);
  const answers = await tx.commitWith<unknown[]>([
    ...change.writes,
    {
      statement: saveOrderFulfillmentStatus,
      values: [order.id, fulfillmentStatus, status, after.updatedAt, recording.eventSeq],
    },
    ...recording.calls,
  ]);
  return {
    change: { fulfillment: change.fulfillment, order: { ...after, eventSeq: recording.eventSeq } },
    committed: () => recording.committed(answers.slice(change.writes.length + 1)),
  };
}

/**
 * Runs a change of an order's fulfillments in one transaction of two messages (decision 0032), and once it has
 * committed wakes the job worker for its events' jobs.
 */
async function fulfillmentTransaction(
  deps: FulfillmentDeps,
  work: (tx: Transaction) => Promise<{ change: FulfillmentChange; committed?: () => void }>,
): Promise<FulfillmentChange> {
  const done = await deps.database.transaction(work);
  done.committed?.();
  return done.change;
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
  const claim = claimFor({
    scope: `fulfillment:${input.alias}`,
    requestKey: input.requestKey,
    operation: 'create-fulfillment',
    payload: { lines: input.lines ?? null, ...input.tracking },
  });
  return fulfillmentTransaction(deps, async (tx) => {
    // Under the order's lock: a retry racing its first attempt finds the key the first wrote.
    const read = await lockForFulfillment(tx, { alias: input.alias, claim, reserveId: true });
    const { order, lines, now } = read;
    const repeated = read.earlier && read.fulfillments.find((f) => f.id === read.earlier?.fulfillmentId);
    if (repeated) return { change: { fulfillment: repeated, order } };
    if (!FULFILLABLE_ORDER_STATUSES.includes(order.status))
      throw new DomainError('order_not_fulfillable', {
        detail:
          `order ${input.alias} is ${order.status} (payment ${order.paymentStatus}); only approved or processing `
          + 'orders are fulfilled',
        extra: { order_status: order.status, payment_status: order.paymentStatus },
      });
    const decision = decideFulfillment({
      lines: unitsOfLines(lines),
      fulfillments: unitsOfFulfillments(read.fulfillments),
      requested: input.lines,
    });
    if (!decision.ok) throw refusalError(decision.refusal, input.alias);
    const tracking = trackingOf(deps, input.tracking);
    if (read.newId === undefined) throw new Error('no fulfillment id reserved');
    const byId = new Map(lines.map((l) => [l.id, l]));
    const fulfillment: FulfillmentWithLines = {
      id: read.newId,
      orderId: order.id,
      status: 'pending',
      ...tracking,
      createdBy: input.adminId,
      shippedAt: null,
      deliveredAt: null,
      cancelledAt: null,
      createdAt: now,
      updatedAt: now,
      lines: decision.lines.map(({ lineId, quantity }) => {
        const line = byId.get(lineId);
        if (!line) throw new Error(`line ${lineId} is not the order's`);
        const { alias, productName, variantName, sku } = line;
        return { orderLineId: lineId, alias, productName, variantName, sku, quantity };
      }),
    };
    return commitFulfillmentChange(tx, deps, {
      read,
      fulfillments: [...read.fulfillments, fulfillment],
      fulfillment,
      event: 'created',
      writes: [
        { statement: insertFulfillment, values: [JSON.stringify(fulfillment)] },
        ...(claim ? rememberResponseCalls(claim, { status: 201, body: { fulfillment_id: fulfillment.id } }) : []),
      ],
    });
  });
}

/** The moment a move to `to` stamps. */
const stampOf = (to: Exclude<FulfillmentState, 'pending'>, now: Date) =>
  to === 'shipped' ? { shippedAt: now } : to === 'delivered' ? { deliveredAt: now } : { cancelledAt: now };

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
  const claim = claimFor({
    scope: `fulfillment-${input.to}:${input.fulfillmentId}`,
    requestKey: input.requestKey,
    operation: `fulfillment-${input.to}`,
    payload: input.tracking ?? null,
  });
  return fulfillmentTransaction(deps, async (tx) => {
    const read = await lockForFulfillment(tx, { alias: input.alias, claim });
    const { order, now } = read;
    const before = read.fulfillments.find((f) => f.id === input.fulfillmentId);
    if (!before)
      throw new DomainError('fulfillment_not_found', {
        detail: `order ${input.alias} has no fulfillment ${input.fulfillmentId}`,
      });
    if (read.earlier) return { change: { fulfillment: before, order } };
    fulfillmentStateMachine.assert(before.status, input.to, `fulfillment ${before.id}`);
    const tracking = input.tracking ? trackingOf(deps, input.tracking, before) : {};
    const fulfillment: FulfillmentWithLines = {
      ...before,
      ...tracking,
      status: input.to,
      ...stampOf(input.to, now),
      updatedAt: now,
    };
    return commitFulfillmentChange(tx, deps, {
      read,
      fulfillments: read.fulfillments.map((f) => (f.id === fulfillment.id ? fulfillment : f)),
      fulfillment,
      event: input.to,
      writes: [
        { statement: saveFulfillmentState, values: [JSON.stringify(fulfillment)] },
        ...(claim ? rememberResponseCalls(claim, { status: 200, body: { fulfillment_id: fulfillment.id } }) : []),
      ],
    });
  });
}
