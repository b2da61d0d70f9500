import { randomBytes } from 'node:crypto';
import { columnList, fromColumnNames } from '../db/columns.js';
import type { StatementCall, Transaction, Tx } from '../db/client.js';
import { payments } from '../db/schema.js';
import { runStatement } from '../db/statement-sql.js';
import { refundCredit } from '../orders/order-ledger.js';
import type { OrderRow } from '../orders/orders.repository.js';
import { markEventStatement, pendingOfEventPayment, recordEventAndLock } from './gateway-events.statements.js';
import type { GatewayEvent, GatewayEventKind } from './payment-plugin.js';
import { applyPaymentEvent, NOTHING_PENDING, type PaymentFigures, type PendingMoney } from './payment-states.js';
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
 * in the same transaction, with the events it causes. Decision 0026: an event is first decided in a transaction of
 * two messages that commits only an outcome that writes nothing but the event's row (a repeat, an event that changes
 * nothing, one that names no payment); an event that changes its payment is applied in full in a second transaction.
 */

export type EventOutcome = 'duplicate' | 'unmatched' | 'applied' | 'ignored';

type EventDeps = Pick<PaymentsDeps, 'database' | 'db' | 'outbox' | 'autoApprovePaidOrders'>;

/** `recordEventAndLock`'s row: the stored event, and the payment it names locked with its order (if any). */
interface RecordedRow {
  event_row: number;
  order_id: number | null;
  payment: Record<string, unknown> | null;
}

/** `pendingOfEventPayment`'s row. */
interface PendingRow {
  id: number;
  capture: string;
  refund: string;
}

const PAYMENT_COLUMNS = columnList(payments);

/** What storing an event found: seen before, a kind to ignore, no payment, or its payment (locked with its order). */
type Found =
  | { is: 'duplicate' | 'ignored' }
  | { is: 'unmatched'; eventRow: number }
  | { is: 'matched'; eventRow: number; payment: PaymentRow };

function foundOf(row: RecordedRow | undefined, event: GatewayEvent): Found {
  if (row === undefined) return { is: 'duplicate' };
  if (event.kind === 'ignored') return { is: 'ignored' };
  if (row.payment === null) return { is: 'unmatched', eventRow: row.event_row };
  return { is: 'matched', eventRow: row.event_row, payment: fromColumnNames<PaymentRow>(PAYMENT_COLUMNS, row.payment) };
}

/** `recordEventAndLock`'s values. An event to ignore names no payment: it is stored and locks nothing. */
function recordValues(pluginId: string, event: GatewayEvent): unknown[] {
  const match = event.kind === 'ignored' ? {} : event.match;
  return [
    pluginId,
    event.eventId,
    event.kind,
    event.amount?.amountMinor ?? null,
    event.amount?.currency ?? null,
    ...matchValues(match),
  ];
}

const matchValues = (match: GatewayEvent['match']) => [
  match.reference ?? null,
  match.gatewayRef ?? null,
  match.gatewayPaymentRef ?? null,
];

/** `markEventStatement`'s values. */
const markValues = (
  eventRow: number,
  mark: { paymentId: number | null; applied: boolean; pendingGatewayPaymentRef?: string },
) => [eventRow, mark.paymentId, mark.applied, mark.pendingGatewayPaymentRef ?? null];

/**
 * The mark of an event that names no payment: kept with the gateway payment id it names, to be applied when a later
 * event teaches a payment that id; none when it names none (it can never match).
 */
function unmatchedMark(eventRow: number, event: GatewayEvent): StatementCall {
  const later = event.match.gatewayPaymentRef;
  if (later === undefined) return undefined;
  return {
    statement: markEventStatement,
    values: markValues(eventRow, { paymentId: null, applied: false, pendingGatewayPaymentRef: later }),
  };
}

/**
 * Applies one normalised event, with the events it causes (payment.succeeded, .failed, .refunded, order.paid). An
 * event that names a gateway payment id no payment knows yet is kept, and applied when a later event teaches a
 * payment that id.
 */
export async function applyEvent(deps: EventDeps, pluginId: string, event: GatewayEvent): Promise<EventOutcome> {
  try {
    return await deps.database.transaction((tx) => applyUnlessItChanges(tx, pluginId, event));
  } catch (err) {
    if (!(err instanceof ChangesPayment)) throw err;
  }
  return deps.outbox.jobs.transaction(deps.db, (tx) => applyInFull(tx, deps, { pluginId, event }));
}

/** Thrown to roll back the first transaction: the event changes its payment, and is applied in full in another. */
class ChangesPayment extends Error {
  constructor() {
    super('the event changes its payment');
    this.name = 'ChangesPayment';
  }
}

/**
 * The first transaction, two messages: the event stored, its payment locked with its order and the payment's pending
 * money read, together; then, if the event changes nothing, its mark with the COMMIT. When it changes the payment
 * (or its money, or teaches it a gateway id), it throws `ChangesPayment`: rolled back, nothing of it was written.
 */
async function applyUnlessItChanges(tx: Transaction, pluginId: string, event: GatewayEvent): Promise<EventOutcome> {
  const record = { statement: recordEventAndLock, values: recordValues(pluginId, event) };
  if (event.kind === 'ignored') {
    // Nothing to lock nor to read: stored (or found stored) with the COMMIT, one message.
    const [rows] = await tx.commitWith<[RecordedRow]>([record]);
    return rows.length === 0 ? 'duplicate' : 'ignored';
  }
  const [[row], [pendingRow]] = await tx.runTogether<[RecordedRow, PendingRow]>([
    record,
    { statement: pendingOfEventPayment, values: [pluginId, ...matchValues(event.match)] },
  ]);
  const found = foundOf(row, event);
  if (found.is === 'unmatched') {
    await tx.commitWith([unmatchedMark(found.eventRow, event)]);
    return 'unmatched';
  }
  if (found.is !== 'matched') {
    await tx.commitWith([]);
    return found.is;
  }
  // The second read names the payment again: another payment that learnt one of the event's ids between the two
  // statements would answer for it. Then the full transaction decides, with the payment it locks.
  if (pendingRow?.id !== found.payment.id) throw new ChangesPayment();
  const pending = { capture: Number(pendingRow.capture), refund: Number(pendingRow.refund) };
  const effect = eventEffect(found.payment, pending, event);
  if (!effect.marksOnly) throw new ChangesPayment();
  await tx.commitWith([
    {
      statement: markEventStatement,
      values: markValues(found.eventRow, { paymentId: found.payment.id, applied: false }),
    },
  ]);
  return 'ignored';
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
    const mark = unmatchedMark(found.eventRow, event);
    if (mark) await runStatement(tx, mark.statement, mark.values);
    return 'unmatched';
  }
  if (found.is !== 'matched') return found.is;
  // Locked with its payment by the statement above.
  const order = await findOrderOfPayment(tx, found.payment);
  if (!order) throw new Error(`order ${found.payment.orderId} of payment ${found.payment.id} vanished`);
  return applyToPayment(tx, deps, { pluginId, event, eventRow: found.eventRow, order, payment: found.payment });
}

/** A payment's figures as gateway events move them, and the money those events moved (captured, refunded). */
class EventFold {
  figures: PaymentFigures;
  captured = 0;
  refunded = 0;

  constructor(
    private readonly payment: PaymentRow,
    private readonly pending: PendingMoney,
  ) {
    this.figures = figuresOf(payment);
  }

  get paymentId(): number {
    return this.payment.id;
  }

  /** Applies one event (one in another currency changes nothing); whether it changed the figures. */
  apply(kind: GatewayEventKind, amountMinor: number | undefined, currency: string | null | undefined): boolean {
    if (currency && currency !== this.payment.currency) return false;
    const result = applyPaymentEvent(this.figures, { kind, amountMinor }, this.pending);
    this.figures = result.next;
    this.captured += result.capture;
    this.refunded += result.refund;
    return result.changed;
  }
}

/**
 * What an event does to its payment as locked: the fold after it, whether it changed the figures, the gateway payment
 * id it teaches the payment, and whether it writes nothing but its own mark (`marksOnly`: no change, no money moved,
 * nothing learnt). Both transactions decide with it.
 */
function eventEffect(payment: PaymentRow, pending: PendingMoney, event: GatewayEvent) {
  const fold = new EventFold(payment, pending);
  const changed = fold.apply(event.kind, event.amount?.amountMinor, event.amount?.currency);
  const learnt = event.gatewayPaymentRef && !payment.gatewayPaymentRef ? event.gatewayPaymentRef : undefined;
  const marksOnly = !changed && learnt === undefined && fold.captured === 0 && fold.refunded === 0;
  return { fold, changed, learnt, marksOnly };
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
  await runStatement(tx, markEventStatement, markValues(input.eventRow, { paymentId: payment.id, applied: changed }));
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
    await runStatement(tx, markEventStatement, markValues(kept.id, { paymentId: input.fold.paymentId, applied }));
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
