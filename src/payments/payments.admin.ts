import { randomUUID } from 'node:crypto';
import type { Tx } from '../db/client.js';
import { recordEvents } from '../events/outbox.js';
import { orderEvents } from '../orders/order-events.js';
import { approvesOnPayment, orderStates } from '../orders/order-states.js';
import { findOrderByAlias, linesOf, type OrderRow, setOrderStatus } from '../orders/orders.repository.js';
import { cancelLockedOrder } from '../orders/orders.service.js';
import { currencyExponent } from '../shared/currency.js';
import { DomainError } from '../shared/errors.js';
import { currencyFormat, MoneyFormatError } from '../shared/money.js';
import { ledgerOfOrder, refundCredit } from '../orders/order-ledger.js';
import { paymentChangeEvents } from './payment-events.js';
import { GatewayError, type Money, UnchargeableAmountError } from './payment-plugin.js';
import { applyOperation, capturableOf, NOTHING_PENDING, type PendingMoney, refundableOf } from './payment-states.js';
import {
  figuresOf,
  finishOperation,
  findOperation,
  findPayment,
  insertOperation,
  ledgerOf,
  lockOperation,
  lockOrderById,
  lockPayment,
  type OperationRow,
  operationByRequestKey,
  type PaymentRow,
  pendingMoneyOf,
  refreshOrderLedger,
  savePaymentFigures,
} from './payments.repository.js';
import { amountNotChargeable, type PaymentsDeps } from './payments.service.js';

/**
 * The store's own moves of a payment's money: capture, void and refund (and cancel-and-refund of an order). Each is a
 * record of the ledger (payment_operations), in three steps: reserved in one transaction with the order and payment
 * locked (the amount checked against what is capturable or refundable less what other records are already moving,
 * so concurrent requests can never move more than there is), the gateway called outside any transaction, then the
 * record settled with the payment's figures, the order's ledger and their events in one more. An admin request's
 * Idempotency-Key is the record's key: a retry resumes the same record and sends the gateway the same key, so a
 * capture retried after a timeout captures once. docs/payments.md tells the whole story.
 */

export type OperationKind = OperationRow['kind'];

export interface OperationRequest {
  paymentId: number;
  /** Decimal text in the payment's currency; default: all that can be captured or refunded. */
  amount?: string;
  /** The request's Idempotency-Key. */
  requestKey?: string;
  adminId?: number | null;
}

const notFound = (id: number) => new DomainError('payment_not_found', { detail: `payment ${id} not found` });

const money = (amountMinor: number, currency: string): Money => ({
  amountMinor,
  currency,
  exponent: currencyExponent(currency),
});

function parseAmount(text: string, currency: string): number {
  try {
    const amount = currencyFormat(currency).parse(text);
    if (amount > 0) return amount;
  } catch (err) {
    if (!(err instanceof MoneyFormatError)) throw err;
    throw new DomainError('validation_error', {
      detail: `amount ${err.message}`,
      errors: [{ field: 'amount', message: err.message }],
    });
  }
  throw new DomainError('validation_error', {
    detail: 'amount must be more than 0',
    errors: [{ field: 'amount', message: 'must be more than 0' }],
  });
}

/** The amount a new record may move, checked against what the payment has (the rules of each kind, in one place). */
function amountFor(
  deps: PaymentsDeps,
  kind: OperationKind,
  input: { payment: PaymentRow; pending: PendingMoney; amount: string | undefined },
): number {
  const { payment, pending } = input;
  const format = currencyFormat(payment.currency);
  const plugin = deps.registry.get(payment.pluginId);
  const figures = figuresOf(payment);
  const asked = input.amount === undefined ? undefined : parseAmount(input.amount, payment.currency);
  if (kind === 'refund') {
    const refundable = refundableOf(figures, pending);
    if (figures.captured === 0)
      throw new DomainError('invalid_transition', {
        detail: `payment ${payment.id} is ${payment.status}; only money that was received can be refunded`,
      });
    if (refundable === 0)
      throw new DomainError('refund_exceeds_refundable', {
        detail:
          `nothing is left to refund on payment ${payment.id}`
          + (pending.refund > 0 ? ' (a refund is in progress)' : ''),
        extra: { refundable: format.format(0) },
      });
    const inPart = !plugin?.capabilities.has('refund') || plugin.capabilities.has('partial_refund');
    return amountWithin({ kind: 'refund', asked, most: refundable, inPart, payment });
  }
  if (plugin?.manualCapture && figures.authorized === 0) {
    // Cash on delivery: the admin records the cash, the attempt's amount, once.
    if (kind === 'void' || payment.status !== 'pending' || pending.capture > 0)
      throw new DomainError('invalid_transition', {
        detail: `payment ${payment.id} is ${payment.status}; only a pending cash payment can be recorded`,
      });
    if (asked !== undefined && asked !== payment.amount)
      throw new DomainError('validation_error', {
        detail: `the cash of this payment is ${format.format(payment.amount)}`,
        errors: [{ field: 'amount', message: `must be ${format.format(payment.amount)}` }],
      });
    return payment.amount;
  }
  const capturable = capturableOf(figures, pending);
  if (capturable === 0)
    throw new DomainError('invalid_transition', {
      detail: `payment ${payment.id} is ${payment.status}; it holds no authorized money to ${kind}`,
    });
  if (plugin && !plugin.capabilities.has(kind))
    throw new DomainError('operation_not_supported', { detail: `${payment.pluginId} cannot ${kind} a payment` });
  if (kind === 'void') return capturable;
  const inPart = !plugin || plugin.capabilities.has('partial_capture');
  return amountWithin({ kind: 'capture', asked, most: capturable, inPart, payment });
}

/**
 * The amount a capture or refund moves: what was asked (default `most`), never more than `most` (422 naming it), and
 * `most` itself when the plugin can only move it whole.
 */
function amountWithin(input: {
  kind: 'capture' | 'refund';
  asked: number | undefined;
  most: number;
  inPart: boolean;
  payment: PaymentRow;
}): number {
  const { kind, most, payment } = input;
  const format = currencyFormat(payment.currency);
  const [figure, done] = kind === 'refund' ? ['refundable', 'refunded'] : ['capturable', 'captured'];
  const amount = input.asked ?? most;
  if (amount > most)
    throw new DomainError(kind === 'refund' ? 'refund_exceeds_refundable' : 'capture_exceeds_capturable', {
      detail: `at most ${format.format(most)} ${payment.currency} can be ${done} on payment ${payment.id}`,
      extra: { [figure]: format.format(most) },
      errors: [{ field: 'amount', message: `must be at most ${format.format(most)}` }],
    });
  if (amount < most && !input.inPart)
    throw new DomainError('operation_not_supported', {
      detail: `${payment.pluginId} ${kind}s only in full (${format.format(most)})`,
    });
  return amount;
}

/** A record found by its request's key: the same request again, or a misuse of the key. */
function sameRequest(op: OperationRow, request: OperationRequest, payment: PaymentRow): OperationRow {
  if (request.amount !== undefined && parseAmount(request.amount, payment.currency) !== op.amount)
    throw new DomainError('idempotency_key_reused', {
      detail: 'this Idempotency-Key was used with a different request; use a new key',
    });
  if (op.status === 'failed')
    throw new DomainError('operation_failed', {
      detail:
        `this ${op.kind} failed: ${op.error ?? 'the gateway refused it'}; `
        + 'send it again with a new Idempotency-Key',
      extra: { operation_id: op.id },
    });
  return op;
}

/** Step 1: the record, reserved under the order's and payment's locks (or the one this request's key made). */
async function reserve(deps: PaymentsDeps, kind: OperationKind, request: OperationRequest): Promise<OperationRow> {
  const found = await findPayment(deps.db, request.paymentId);
  if (!found) throw notFound(request.paymentId);
  return deps.db.transaction(async (tx) => {
    const order = await lockOrderById(tx, found.orderId);
    const payment = await lockPayment(tx, found.id);
    if (!order || !payment) throw notFound(request.paymentId);
    if (request.requestKey !== undefined) {
      const earlier = await operationByRequestKey(tx, { paymentId: payment.id, kind, requestKey: request.requestKey });
      if (earlier) return sameRequest(earlier, request, payment);
    }
    return reserveLocked(tx, deps, { kind, order, payment, request });
  });
}

/**
 * Reserves a record on a payment (the order and payment locked by the caller): its amount checked against what the
 * payment has less what other records are moving, a refund's credit decided against the order's ledger as `order`
 * has it. `returnId`: the return whose refund it is (src/payments/return-refunds.ts).
 */
export async function reserveLocked(
  tx: Tx,
  deps: PaymentsDeps,
  input: {
    kind: OperationKind;
    order: OrderRow;
    payment: PaymentRow;
    request: Omit<OperationRequest, 'paymentId'>;
    returnId?: number;
  },
): Promise<OperationRow> {
  const { kind, order, payment, request } = input;
  // A payment is opened in its order's currency and never changes it: money moves in that one currency, so a refund
  // or capture in another is impossible (the amount is read and sent in the payment's currency, which is this one).
  if (payment.currency !== order.currency)
    throw new Error(
      `payment ${payment.id} is in ${payment.currency} but its order ${order.alias} in ${order.currency}`,
    );
  const { ledger, pending } = await ledgerOf(tx, order, { withPending: true });
  const pendingHere = pending.get(payment.id) ?? NOTHING_PENDING;
  const amount = amountFor(deps, kind, { payment, pending: pendingHere, amount: request.amount });
  if (kind === 'capture' && figuresOf(payment).authorized === 0 && ledger.balanceDue <= 0)
    // Cash for an order paid by other means meanwhile would only have to be given back.
    throw new DomainError('order_already_paid', {
      detail: `order ${order.alias} is ${order.paymentStatus}; this payment has nothing to collect`,
    });
  return insertOperation(tx, {
    paymentId: payment.id,
    orderId: order.id,
    kind,
    status: 'pending',
    source: 'admin',
    amount,
    // Decided now, with every other record of the order counted: what this refund gives beyond money owed back.
    credit: kind === 'refund' ? refundCredit(ledger, amount) : 0,
    requestKey: request.requestKey ?? null,
    gatewayKey: `${kind}-${payment.reference}-${randomUUID()}`,
    adminId: request.adminId ?? null,
    returnId: input.returnId ?? null,
  });
}

/** Step 2: the gateway call for a pending record; what the plugin can't do moves outside the service (recorded). */
async function callGateway(deps: PaymentsDeps, op: OperationRow, payment: PaymentRow): Promise<string | null> {
  const gateway = deps.registry.get(payment.pluginId)?.gateway;
  const base = {
    reference: payment.reference,
    gatewayRef: payment.gatewayRef,
    gatewayPaymentRef: payment.gatewayPaymentRef,
    idempotencyKey: op.gatewayKey,
  };
  if (op.kind === 'capture' && gateway?.capture)
    return (await gateway.capture({ ...base, amount: money(op.amount, payment.currency), final: true })).gatewayRef;
  if (op.kind === 'void' && gateway?.void) {
    await gateway.void(base);
    return null;
  }
  if (op.kind === 'refund' && gateway?.refund)
    return (await gateway.refund({ ...base, amount: money(op.amount, payment.currency) })).gatewayRef;
  return null;
}

/**
 * Step 3: settles a record (once: a concurrent retry that settled it first wins) with the payment's new figures, the
 * order's ledger and the events of the change, in one transaction.
 */
async function settle(
  deps: PaymentsDeps,
  opId: number,
  result: { status: 'succeeded' | 'failed'; gatewayRef?: string | null; error?: string },
): Promise<void> {
  await deps.outbox.jobs.transaction(deps.db, async (tx) => {
    // Read without a lock first: the order is locked before the record, the order every payment write follows.
    const op0 = await findOperation(tx, opId);
    if (!op0) throw new Error(`payment operation ${opId} vanished`);
    const order = await lockOrderById(tx, op0.orderId);
    const payment = await lockPayment(tx, op0.paymentId);
    const op = await lockOperation(tx, opId);
    if (!order || !payment || !op || op.status !== 'pending') return;
    await finishOperation(tx, op.id, {
      status: result.status,
      gatewayRef: result.gatewayRef ?? null,
      error: result.error ?? null,
    });
    if (result.status === 'failed') return;
    const stillPending = (await pendingMoneyOf(tx, [payment.id])).get(payment.id) ?? NOTHING_PENDING;
    const before = figuresOf(payment);
    const figures = applyOperation(before, op, stillPending);
    const saved = await savePaymentFigures(tx, { id: payment.id, figures });
    await recordChange(tx, deps, { order, before, payment: saved });
  });
}

/**
 * After a payment's figures changed (the order locked): the order's ledger and status again, the payment's events,
 * order.paid when it became paid, and the approval that follows (AUTO_APPROVE_PAID_ORDERS).
 */
export async function recordChange(
  tx: Tx,
  deps: Pick<PaymentsDeps, 'outbox' | 'autoApprovePaidOrders'>,
  change: { order: OrderRow; before: ReturnType<typeof figuresOf>; payment: PaymentRow },
): Promise<OrderRow> {
  const { order } = change;
  const orderAfter = await refreshOrderLedger(tx, order);
  const events = await paymentChangeEvents(tx, { before: change.before, payment: change.payment, order, orderAfter });
  let result = orderAfter;
  const { toPay } = ledgerOfOrder(orderAfter);
  if (deps.autoApprovePaidOrders !== false && approvesOnPayment(order, { ...orderAfter, toPay })) {
    result = await setOrderStatus(tx, order.id, 'approved');
    events.push(...orderEvents(['order.status_changed'], result, await linesOf(tx, order.id)));
  }
  await recordEvents(tx, deps.outbox, events);
  return result;
}

/** Steps 2 and 3 for a reserved record; a gateway's refusal settles it failed, an unknown outcome leaves it open. */
export async function run(deps: PaymentsDeps, op: OperationRow): Promise<PaymentRow> {
  const payment = await findPayment(deps.db, op.paymentId);
  if (!payment) throw notFound(op.paymentId);
  if (op.status === 'pending') {
    let gatewayRef: string | null;
    try {
      gatewayRef = await callGateway(deps, op, payment);
    } catch (err) {
      if (!(err instanceof GatewayError)) throw err;
      // Refused: nothing moved, the reservation is released. Unreachable or unsure: the record stays open and a
      // retry with the same Idempotency-Key sends the gateway the same key.
      if (!err.retryable) await settle(deps, op.id, { status: 'failed', error: err.message });
      if (err instanceof UnchargeableAmountError)
        throw amountNotChargeable(err, payment.pluginId, { operation_id: op.id, retryable: false });
      throw new DomainError('payment_gateway_error', {
        detail: err.retryable ? `${err.message}; send the same request again (same Idempotency-Key)` : err.message,
        extra: { operation_id: op.id, retryable: err.retryable },
      });
    }
    await settle(deps, op.id, { status: 'succeeded', gatewayRef });
  }
  return (await findPayment(deps.db, op.paymentId)) ?? payment;
}

/** Captures authorized money (all or part), or records the cash of a cash-on-delivery payment as received. */
export async function capturePayment(deps: PaymentsDeps, request: OperationRequest): Promise<PaymentRow> {
  return run(deps, await reserve(deps, 'capture', request));
}

/** Releases what an authorization still holds. */
export async function voidPayment(deps: PaymentsDeps, request: Omit<OperationRequest, 'amount'>): Promise<PaymentRow> {
  return run(deps, await reserve(deps, 'void', request));
}

/**
 * Gives back part or all of what a payment took, through the plugin when it can refund (otherwise the refund is only
 * recorded: money returned outside the service). What it gives beyond money owed back is a credit, so a refund never
 * makes the customer owe anything.
 */
export async function refundPayment(deps: PaymentsDeps, request: OperationRequest): Promise<PaymentRow> {
  return run(deps, await reserve(deps, 'refund', request));
}

/** The records an earlier cancel-and-refund request (its key) made on these payments, refunds and voids. */
async function operationsOfRequest(
  tx: Tx,
  request: { payments: readonly PaymentRow[]; key: (kind: OperationKind) => string | undefined },
): Promise<OperationRow[]> {
  const earlier: OperationRow[] = [];
  for (const payment of request.payments) {
    for (const kind of ['refund', 'void'] as const) {
      const requestKey = request.key(kind);
      const op = requestKey && (await operationByRequestKey(tx, { paymentId: payment.id, kind, requestKey }));
      if (op) earlier.push(op);
    }
  }
  return earlier;
}

/**
 * The records that give back a cancelled order's money on one payment (locked here): a refund of what it kept, and
 * a void of what it holds where its plugin can void.
 */
async function reserveGivingBack(
  tx: Tx,
  deps: PaymentsDeps,
  input: {
    order: OrderRow;
    found: PaymentRow;
    pending: PendingMoney;
    request: { adminId: number | null; key: (kind: OperationKind) => string | undefined };
  },
): Promise<OperationRow[]> {
  const payment = (await lockPayment(tx, input.found.id)) ?? input.found;
  const figures = figuresOf(payment);
  const { adminId, key } = input.request;
  const reserve = (kind: 'refund' | 'void') =>
    reserveLocked(tx, deps, { kind, order: input.order, payment, request: { adminId, requestKey: key(kind) } });
  const reserved: OperationRow[] = [];
  if (refundableOf(figures, input.pending) > 0) reserved.push(await reserve('refund'));
  const plugin = deps.registry.get(payment.pluginId);
  if (capturableOf(figures, input.pending) > 0 && plugin?.capabilities.has('void'))
    reserved.push(await reserve('void'));
  return reserved;
}

/**
 * The admin's `{"status": "cancelled", "refund": true}`, one action: in one transaction the order is cancelled (stock
 * and promotion uses given back; it then charges nothing, so all its money is owed back) and a record is reserved for
 * every payment's refundable money (a refund) and held money (a void); then each goes to its gateway. A gateway that
 * refuses leaves the order cancelled with its money shown as refund due (overpaid), to refund again; the answer is
 * then that gateway's 502.
 */
export async function cancelOrderWithRefund(
  deps: PaymentsDeps,
  alias: string,
  options: { requestKey?: string; adminId?: number | null } = {},
): Promise<OrderRow> {
  const order = await findOrderByAlias(deps.db, alias);
  if (!order) throw new DomainError('order_not_found', { detail: `order ${alias} not found` });
  const key = (kind: OperationKind) => (options.requestKey ? `${options.requestKey}:${kind}` : undefined);
  const ops = await deps.outbox.jobs.transaction(deps.db, async (tx) => {
    const locked = await lockOrderById(tx, order.id);
    if (!locked) throw new DomainError('order_not_found', { detail: `order ${alias} not found` });
    const { payments, pending } = await ledgerOf(tx, locked, { withPending: true });
    if (locked.status === 'cancelled' && options.requestKey !== undefined) {
      // The same request again (its gateway call was not answered): resume the records it made.
      const earlier = await operationsOfRequest(tx, { payments, key });
      if (earlier.length > 0) return earlier.filter((op) => op.status === 'pending');
    }
    orderStates.assert(locked.status, 'cancelled', `order ${alias}`);
    const cancelled = await cancelLockedOrder(tx, deps.outbox, { order: locked, reason: null });
    const reserved: OperationRow[] = [];
    for (const found of payments) {
      const here = pending.get(found.id) ?? NOTHING_PENDING;
      const request = { adminId: options.adminId ?? null, key };
      reserved.push(...(await reserveGivingBack(tx, deps, { order: cancelled, found, pending: here, request })));
    }
    await refreshOrderLedger(tx, cancelled);
    return reserved;
  });
  for (const op of ops) await run(deps, op);
  return (await findOrderByAlias(deps.db, alias)) ?? order;
}
