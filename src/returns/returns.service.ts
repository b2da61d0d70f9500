import { lineRefusals } from '../orders/line-refusals.js';
import type { Database, Transaction, Tx } from '../db/client.js';
import { lockedOrderEventStatements } from '../events/new-order-events.js';
import { type NewEvent, type Outbox, recordEvents } from '../events/outbox.js';
import { fulfillmentStatusWithReturns } from '../orders/fulfillment.decide.js';
import { fulfillmentsOf, fulfillmentsOfOrderAlias, fulfillmentsOfRows } from '../orders/fulfillments.repository.js';
import { unitsOfFulfillments, unitsOfLines } from '../orders/fulfillments.service.js';
import {
  claimFor,
  type IdempotencyClaim,
  rememberResponse,
  rememberResponseCalls,
  storedResponse,
} from '../orders/idempotency.js';
import { addStockCalls, lockOrderAndRead, saveOrderFulfillmentStatus } from '../orders/order.statements.js';
import { presentOrder } from '../orders/order.presenter.js';
import { linesOf, lockOrder, type OrderLineRow, type OrderRow } from '../orders/orders.repository.js';
import { DomainError, invalidField } from '../shared/errors.js';
import {
  decideReceipt,
  decideReturn,
  type RequestedReturnLine,
  type ReturnRefusal,
  type ReturnState,
} from './return.decide.js';
import { presentReturn, unitsOfReturns } from './return.presenter.js';
import { returnEventTypes, returnStateMachine } from './return-states.js';
import {
  insertReturn,
  movedReturn,
  type ReturnMove,
  type ReturnWithLines,
  returnReasonsList,
  returnsOf,
  returnsOfOrderAlias,
  returnsOfRows,
  saveReturnState,
} from './returns.repository.js';

/**
 * Returns (decision 0029): every change runs in one transaction with the order's row locked (so two admins receiving
 * the same return, or two requests for the last returnable unit, are counted one after the other), asks the pure
 * rules (return.decide.ts) and writes what they answer: the return, the stock received back, and the events. The
 * refund, which calls the payment gateway, is src/payments/return-refunds.ts.
 */

export interface ReturnDeps {
  database: Database;
  outbox: Outbox;
}

/** A return after a change, with its order as the change left it (and the order's lines and returns). */
export interface ReturnChange {
  ret: ReturnWithLines;
  order: OrderRow;
  lines: OrderLineRow[];
  returns: ReturnWithLines[];
}

const orderNotFound = (alias: string) => new DomainError('order_not_found', { detail: `order ${alias} not found` });

function refusalError(refusal: ReturnRefusal, alias: string): DomainError {
  switch (refusal.kind) {
    case 'nothing_shipped':
      return new DomainError('nothing_to_return', {
        detail: `nothing of order ${alias} has shipped yet; only shipped units are returned`,
      });
    case 'unknown_line':
      return lineRefusals.unknown(refusal, alias);
    case 'duplicate_line':
      return lineRefusals.twice(refusal);
    case 'unknown_reason':
      return new DomainError('unknown_return_reason', {
        detail: `"${refusal.reason}" is not one of the return reasons offered (GET …/returns/ lists them)`,
        errors: [{ field: `lines[${refusal.index}].reason`, message: 'is not a return reason offered' }],
      });
    case 'too_many':
      return new DomainError('return_exceeds_returnable', {
        detail:
          `line "${refusal.alias}" can have at most ${refusal.returnable} more unit(s) returned `
          + `(shipped, less those in other returns); ${refusal.requested} asked`,
        errors: [{ field: `lines[${refusal.index}].quantity`, message: `must be at most ${refusal.returnable}` }],
        extra: { alias: refusal.alias, requested: refusal.requested, returnable: refusal.returnable },
      });
  }
}

/** The order, locked, or 404. */
export async function lockedOrder(tx: Tx, alias: string): Promise<OrderRow> {
  const order = await lockOrder(tx, alias);
  if (!order) throw orderNotFound(alias);
  return order;
}

/** One of the order's returns, or 404. */
export function returnOf(returns: readonly ReturnWithLines[], id: number, alias: string): ReturnWithLines {
  const ret = returns.find((r) => r.id === id);
  if (!ret) throw new DomainError('return_not_found', { detail: `order ${alias} has no return ${id}` });
  return ret;
}

/** The event of a return's change: the order as the admin API shows it, and the return (`return`). */
function returnEvent(change: ReturnChange & { event: ReturnState }): NewEvent {
  const { order, lines, returns, ret } = change;
  return {
    type: returnEventTypes[change.event],
    order: { id: order.id, alias: order.alias },
    data: { ...presentOrder(order, lines), return: presentReturn(ret, { order, lines, returns }) },
  };
}

/** After a return changed (the order locked): the return read again, and its event (`returnEvent`). */
export async function recordReturnChange(
  tx: Tx,
  deps: ReturnDeps,
  change: { order: OrderRow; returnId: number; event: ReturnState },
): Promise<ReturnChange> {
  const { order } = change;
  const lines = await linesOf(tx, order.id);
  const returns = await returnsOf(tx, order.id);
  const ret = returnOf(returns, change.returnId, order.alias);
  await recordEvents(tx, deps.outbox, [returnEvent({ ret, order, lines, returns, event: change.event })]);
  return { ret, order, lines, returns };
}

/** The change an earlier request with the same key made, answered again (the order locked). */
async function earlierChange(
  tx: Tx,
  order: OrderRow,
  claim: IdempotencyClaim | undefined,
): Promise<ReturnChange | undefined> {
  const earlier = claim && (await storedResponse(tx, claim));
  if (!earlier) return undefined;
  const id = (earlier.body as { return_id: number }).return_id;
  const lines = await linesOf(tx, order.id);
  const returns = await returnsOf(tx, order.id);
  return { ret: returnOf(returns, id, order.alias), order, lines, returns };
}

/**
 * A new return of shipped units, `requested`, by the customer (the order's owner or the holder of its token: the
 * route checks) or an admin. Each line names its reason, one of those the store offers.
 */
export function requestReturn(
  deps: ReturnDeps,
  input: {
    alias: string;
    lines: readonly RequestedReturnLine[];
    note: string;
    by: { kind: 'customer' } | { kind: 'admin'; adminId: number | null };
    requestKey?: string;
  },
): Promise<ReturnChange> {
  return deps.outbox.jobs.transaction(deps.database.db, async (tx) => {
    const order = await lockedOrder(tx, input.alias);
    const claim = claimFor({
      scope: `return:${order.alias}`,
      requestKey: input.requestKey,
      operation: 'request-return',
      payload: { lines: input.lines, note: input.note },
    });
    const earlier = await earlierChange(tx, order, claim);
    if (earlier) return earlier;
    // One after the other: a transaction's connection answers one query at a time (node-postgres deprecates queueing).
    const lines = await linesOf(tx, order.id);
    const fulfillments = await fulfillmentsOf(tx, order.id);
    const returns = await returnsOf(tx, order.id);
    const reasons = await returnReasonsList(tx, { activeOnly: true });
    const decision = decideReturn({
      lines: lines.map((l) => ({ lineId: l.id, alias: l.alias })),
      fulfillments: unitsOfFulfillments(fulfillments),
      returns: unitsOfReturns(returns),
      requested: input.lines,
      reasons: new Set(reasons.map((r) => r.code)),
    });
    if (!decision.ok) throw refusalError(decision.refusal, order.alias);
    const row = await insertReturn(tx, {
      orderId: order.id,
      note: input.note,
      requestedBy: input.by.kind,
      createdBy: input.by.kind === 'admin' ? input.by.adminId : null,
      lines: decision.lines,
    });
    if (claim) await rememberResponse(tx, claim, { status: 201, body: { return_id: row.id } });
    return recordReturnChange(tx, deps, { order, returnId: row.id, event: 'requested' });
  });
}

/**
 * Moves a return along its state machine (409 `invalid_transition` naming the allowed moves otherwise): received
 * (putting back into stock the units of each line the admin says may be sold again: every line unless told), rejected
 * (with a reason shown to the customer) or cancelled. A move repeated with the same Idempotency-Key answers the same;
 * without one, a return received twice is refused the second time, so its stock goes back once. One transaction of two
 * messages (decision 0032): the order locked with what the move reads, then what it writes with the COMMIT.
 */
export async function moveReturn(
  deps: ReturnDeps,
  input: {
    alias: string;
    returnId: number;
    to: 'received' | 'rejected' | 'cancelled';
    restock?: readonly { alias: string; restock: boolean }[];
    rejectReason?: string;
    requestKey?: string;
  },
): Promise<ReturnChange> {
  const claim = claimFor({
    scope: `return-${input.to}:${input.returnId}`,
    requestKey: input.requestKey,
    operation: `return-${input.to}`,
    payload: { restock: input.restock ?? null, reject_reason: input.rejectReason ?? null },
  });
  const done = await deps.database.transaction(async (tx) => {
    const read = await lockForReturn(tx, input.alias, claim);
    const { order, lines, returns, now } = read;
    if (read.earlier !== undefined) {
      return { change: { ret: returnOf(returns, read.earlier, order.alias), order, lines, returns } };
    }
    const before = returnOf(returns, input.returnId, order.alias);
    returnStateMachine.assert(before.status, input.to, `return ${before.id}`);
    const move: ReturnMove = { status: input.to };
    let restocked: ReturnType<typeof addStockCalls> = [];
    if (input.to === 'received') {
      const receipt = decideReceipt({
        lines: before.lines.map((l) => ({ lineId: l.orderLineId, alias: l.alias })),
        requested: input.restock,
      });
      if (!receipt.ok) {
        const { index, alias, kind } = receipt.refusal;
        throw invalidField(
          `lines[${index}].alias`,
          kind === 'unknown_line' ? `"${alias}" is not a line of this return` : `names line "${alias}" a second time`,
        );
      }
      move.restock = receipt.restock;
      // Only units that took stock when sold (tracked, not back-ordered) give it back.
      restocked = addStockCalls(
        before.lines
          .filter((l) => receipt.restock.get(l.orderLineId) && l.stockReserved && l.variantId !== null)
          .map((l) => ({ variantId: l.variantId as number, quantity: l.quantity })),
      );
    }
    if (input.to === 'rejected') move.rejectReason = input.rejectReason?.trim() || null;
    const ret = movedReturn(before, move, now);
    const after = returns.map((r) => (r.id === ret.id ? ret : r));
    // Goods back (received) or not after all (rejected): the order's fulfillment status says what came back.
    const fulfillmentStatus = fulfillmentStatusWithReturns(
      unitsOfLines(lines),
      unitsOfFulfillments(read.fulfillments),
      unitsOfReturns(after),
    );
    const moved = fulfillmentStatus !== order.fulfillmentStatus;
    const orderAfter: OrderRow = moved ? { ...order, fulfillmentStatus, updatedAt: now } : order;
    const recording = lockedOrderEventStatements(deps.outbox, order, [
      returnEvent({ ret, order: orderAfter, lines, returns: after, event: input.to }),
    ]);
    const writes = [
      ...restocked,
      { statement: saveReturnState, values: [JSON.stringify(ret)] },
      {
        statement: saveOrderFulfillmentStatus,
        values: [order.id, fulfillmentStatus, order.status, orderAfter.updatedAt, recording.eventSeq],
      },
      ...(claim ? rememberResponseCalls(claim, { status: 200, body: { return_id: ret.id } }) : []),
    ];
    const answers = await tx.commitWith<unknown[]>([...writes, ...recording.calls]);
    return {
      change: { ret, order: { ...orderAfter, eventSeq: recording.eventSeq }, lines, returns: after },
      committed: () => recording.committed(answers.slice(writes.length)),
    };
  });
  done.committed?.();
  return done.change;
}

/** The first message of a move of a return (`lockOrderAndRead`), with the order's returns. 404 without the order. */
async function lockForReturn(tx: Transaction, alias: string, claim: IdempotencyClaim | undefined) {
  const read = await lockOrderAndRead<
    [Parameters<typeof returnsOfRows>[0][number], Parameters<typeof fulfillmentsOfRows>[0][number]]
  >(tx, {
    alias,
    claim,
    reads: [
      { statement: returnsOfOrderAlias, values: [alias] },
      { statement: fulfillmentsOfOrderAlias, values: [alias] },
    ],
  });
  if (!read) throw orderNotFound(alias);
  return {
    ...read,
    returns: returnsOfRows(read.rows[0]),
    fulfillments: fulfillmentsOfRows(read.rows[1]),
    earlier: read.earlier && (read.earlier.body as { return_id: number }).return_id,
  };
}
