import { randomBytes } from 'node:crypto';
import type { Tx } from '../db/client.js';
import { retryingDeadlocks } from '../db/errors.js';
import { runStatement } from '../db/statement-sql.js';
import { refundCredit } from '../orders/order-ledger.js';
import type { OrderRow } from '../orders/orders.repository.js';
import { type EventFold, eventEffect } from './gateway-event-fold.js';
import {
  type EventMark,
  foundOf,
  markCall,
  recordEventAndLock,
  type RecordedRow,
  recordValues,
  unmatchedMark,
} from './gateway-events.statements.js';
import type { GatewayEvent, GatewayEventKind } from './payment-plugin.js';
import { NOTHING_PENDING } from './payment-states.js';
import { recordChange } from './payments.admin.js';
import {
  figuresOf,
  findOrderOfPayment,
  insertOperation,
  ledgerOf,
  type PaymentRow,
  pendingEventsFor,
  savePaymentFigures,
} from './payments.repository.js';
import type { PaymentsDeps } from './payments.service.js';

/**
 * A gateway's events applied to its payments (the webhook, `handleWebhook`). Each event is stored once and applied
 * in the same transaction, with the events it causes. Decision 0026: events are first decided in batches, one
 * transaction of two messages per batch (gateway-event-batches.ts) that commits only what writes nothing but the
 * event's row (a repeat, an event that changes nothing, one that names no payment); an event that changes its payment
 * is applied in full in a transaction of its own.
 */

export type EventOutcome = 'duplicate' | 'unmatched' | 'applied' | 'ignored';

type EventDeps = Pick<PaymentsDeps, 'gatewayEvents' | 'db' | 'outbox' | 'autoApprovePaidOrders'>;

/** Marks a stored event, through Drizzle. */
async function mark(tx: Tx, event: EventMark): Promise<void> {
  const { statement, values } = markCall(event);
  await runStatement(tx, statement, values);
}

/**
 * Applies one normalised event, with the events it causes (payment.succeeded, .failed, .refunded, order.paid). An
 * event that names a gateway payment id no payment knows yet is kept, and applied when a later event teaches a
 * payment that id.
 */
export async function applyEvent(deps: EventDeps, pluginId: string, event: GatewayEvent): Promise<EventOutcome> {
  const first = await deps.gatewayEvents.decide({ pluginId, event });
  if (first !== 'changes') return first;
  // Two events of one order applied in full at once can deadlock (each inserts its event, then locks the order):
  // the loser is rolled back whole and tried again; its insert then finds the event stored, or stores it anew.
  return retryingDeadlocks(() =>
    deps.outbox.jobs.transaction(deps.db, (tx) => applyInFull(tx, deps, { pluginId, event })),
  );
}

/**
 * The second transaction, on Drizzle, for an event the first found to change its payment: stored and locked again
 * (by the same statement: a repeat delivered meanwhile may have been applied already), then applied.
 */
async function applyInFull(
  tx: Tx,
  deps: Pick<PaymentsDeps, 'outbox' | 'autoApprovePaidOrders'>,
  input: { pluginId: string; event: GatewayEvent },
): Promise<EventOutcome> {
  const { pluginId, event } = input;
  const [row] = await runStatement<RecordedRow>(tx, recordEventAndLock, recordValues(pluginId, event));
  const found = foundOf(row, event);
  if (found.is === 'unmatched') {
    const kept = unmatchedMark(found.eventRow, event);
    if (kept) await mark(tx, kept);
    return 'unmatched';
  }
  if (found.is !== 'matched') return found.is;
  // Locked with its payment by the statement above.
  const order = await findOrderOfPayment(tx, found.payment);
  if (!order) throw new Error(`order ${found.payment.orderId} of payment ${found.payment.id} vanished`);
  return applyToPayment(tx, deps, { pluginId, event, eventRow: found.eventRow, order, payment: found.payment });
}

/** An event applied to its payment, both locked (with the order): what it changed, stored with its records. */
async function applyToPayment(
  tx: Tx,
  deps: Pick<PaymentsDeps, 'outbox' | 'autoApprovePaidOrders'>,
  input: { pluginId: string; event: GatewayEvent; eventRow: number; order: OrderRow; payment: PaymentRow },
): Promise<'applied' | 'ignored'> {
  const { event, order, payment } = input;
  const { ledger, pending } = await ledgerOf(tx, order, { withPending: true });
  const before = figuresOf(payment);
  const { fold, changed, learnt } = eventEffect(payment, pending.get(payment.id) ?? NOTHING_PENDING, event);
  await mark(tx, { id: input.eventRow, payment_id: payment.id, applied: changed, pending_gateway_payment_ref: null });
  const caughtUp = learnt !== undefined && (await applyKeptEvents(tx, { pluginId: input.pluginId, learnt, fold }));
  // Money the gateway reports moved that the ledger did not ask for (or has not heard back about): its records.
  const { captured, refunded } = fold;
  await recordGatewayMoney(tx, { payment, captured, refunded, credit: refundCredit(ledger, refunded) });
  let saved = payment;
  if (changed || caughtUp || learnt !== undefined) {
    const expiresAt = changed && event.kind === 'authorized' ? event.authorizationExpiresAt : undefined;
    const extra = {
      ...(learnt !== undefined ? { gatewayPaymentRef: learnt } : {}),
      ...(expiresAt && expiresAt !== payment.authorizationExpiresAt ? { authorizationExpiresAt: expiresAt } : {}),
    };
    saved = await savePaymentFigures(tx, { id: payment.id, figures: fold.figures, extra });
  }
  if (changed || caughtUp) await recordChange(tx, deps, { order, before, payment: saved });
  return changed ? 'applied' : 'ignored';
}

/**
 * The events kept for a gateway payment id before any payment knew it, applied now that one has `learnt` it, oldest
 * first; whether any changed its figures.
 */
async function applyKeptEvents(tx: Tx, input: { pluginId: string; learnt: string; fold: EventFold }): Promise<boolean> {
  let changed = false;
  for (const kept of await pendingEventsFor(tx, input.pluginId, input.learnt)) {
    const applied = input.fold.apply(kept.kind as GatewayEventKind, kept.amount ?? undefined, kept.currency);
    await mark(tx, { id: kept.id, payment_id: input.fold.paymentId, applied, pending_gateway_payment_ref: null });
    changed ||= applied;
  }
  return changed;
}

/** The ledger's records of money a gateway reported moving on its own (source `gateway`), already succeeded. */
async function recordGatewayMoney(
  tx: Tx,
  input: { payment: PaymentRow; captured: number; refunded: number; credit: number },
): Promise<void> {
  const { payment } = input;
  const record = (kind: 'capture' | 'refund', amount: number, credit: number) =>
    insertOperation(tx, {
      paymentId: payment.id,
      orderId: payment.orderId,
      kind,
      status: 'succeeded',
      source: 'gateway',
      amount,
      credit,
      gatewayKey: `${kind}-${payment.reference}-${randomBytes(8).toString('hex')}`,
    });
  if (input.captured > 0) await record('capture', input.captured, 0);
  if (input.refunded > 0) await record('refund', input.refunded, input.credit);
}
