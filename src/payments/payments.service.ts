import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { TokenService } from '../auth/tokens.js';
import type { Principal } from '../http/auth.js';
import type { Db, Tx } from '../db/client.js';
import { eq } from 'drizzle-orm';
import { payments } from '../db/schema.js';
import { type Outbox, recordEvents } from '../events/outbox.js';
import { findVisibleOrder } from '../orders/orders.service.js';
import { currencyExponent } from '../shared/currency.js';
import { DomainError } from '../shared/errors.js';
import { currencyFormat } from '../shared/money.js';
import {
  type CaptureMethod,
  GatewayError,
  type Money,
  type StartResult,
  type GatewayEvent,
  type GatewayEventKind,
  WebhookSignatureError,
} from './payment-plugin.js';
import { returnLinks } from './return-links.js';
import { paymentChangeEvents } from './payment-events.js';
import { refundCredit } from '../orders/order-ledger.js';
import type { OrderRow } from '../orders/orders.repository.js';
import { applyPaymentEvent, NOTHING_PENDING, type PaymentFigures, type PendingMoney } from './payment-states.js';
import { recordChange } from './payments.admin.js';
import {
  figuresOf,
  insertOperation,
  ledgerOf,
  lockOrderById,
  lockPaymentForEvent,
  markEvent,
  type PaymentRow,
  pendingEventsFor,
  recordEventOnce,
  refreshOrderLedger,
  savePaymentFigures,
} from './payments.repository.js';
import type { EnabledPlugin, PaymentRegistry } from './plugin-registry.js';

export interface PaymentsDeps {
  db: Db;
  /** Where payment and order events are recorded (in the transaction of the change). */
  outbox: Outbox;
  registry: PaymentRegistry;
  publicBaseUrl: string;
  log: FastifyBaseLogger;
  /** Signs the short-lived links a payer comes back through. */
  tokens: TokenService;
  /** An order becoming paid moves from pending to approved (`AUTO_APPROVE_PAID_ORDERS`; default true). */
  autoApprovePaidOrders?: boolean;
  /** PAYMENT_CAPTURE: `manual` has plugins that can authorize only hold the money (default `automatic`). */
  paymentCapture?: 'automatic' | 'manual';
}

/** How an attempt through this plugin takes the money: held only when the store captures by hand and it can. */
export function captureMethodFor(deps: Pick<PaymentsDeps, 'paymentCapture'>, plugin: EnabledPlugin): CaptureMethod {
  return deps.paymentCapture === 'manual' && plugin.capabilities.has('authorize') ? 'manual' : 'automatic';
}

/** An attempt whose gateway call has not come back may be this old before another replaces it. */
const START_TIMEOUT_MS = 60_000;

function pluginOr404(deps: PaymentsDeps, id: string): EnabledPlugin {
  const plugin = deps.registry.get(id);
  if (!plugin)
    throw new DomainError('payment_plugin_not_found', {
      detail: `no enabled payment plugin "${id}"`,
      extra: { available: deps.registry.list().map((p) => p.id) },
    });
  return plugin;
}

const money = (amountMinor: number, currency: string): Money => ({
  amountMinor,
  currency,
  exponent: currencyExponent(currency),
});

export interface StartedPayment {
  url: string;
  payment_id: number;
  order_alias: string;
  amount: string;
  currency: string;
}

function present(payment: PaymentRow, orderAlias: string): StartedPayment {
  return {
    url: payment.redirectUrl ?? '',
    payment_id: payment.id,
    order_alias: orderAlias,
    amount: currencyFormat(payment.currency).format(payment.amount),
    currency: payment.currency,
  };
}

/**
 * Opens (or reuses) an attempt to pay the order's unpaid amount through a plugin. The attempt is
 * written first, then the gateway is called outside any transaction (no database lock is held
 * over the network), then its answer is stored. Calling again while that attempt is open returns
 * the same attempt.
 */
export async function startPayment(
  deps: PaymentsDeps,
  input: {
    pluginId: string;
    orderAlias: string;
    returnUrl?: string;
    cancelUrl?: string;
    caller: { principal: Principal | null; orderToken?: string };
  },
): Promise<StartedPayment> {
  const plugin = pluginOr404(deps, input.pluginId);
  const visible = await findVisibleOrder(deps.db, input.orderAlias, input.caller);

  const opened = await deps.db.transaction((tx) => openAttempt(tx, deps, { plugin, orderId: visible.id, input }));
  if (opened.reused) return present(opened.payment, visible.alias);
  await closeSuperseded(deps, opened.superseded ?? []);

  const { payment } = opened;
  // The gateway returns the payer to this service, which then knows the outcome to pass on; the
  // attempt keeps the storefront's own URLs (none: the service's order page).
  const { returnUrl, cancelUrl } = await returnLinks(deps, payment.reference);
  let started: StartResult;
  try {
    started = await plugin.gateway.start({
      reference: payment.reference,
      order: { alias: visible.alias, email: visible.email, totalItems: visible.totalItems },
      amount: money(payment.amount, payment.currency),
      returnUrl,
      cancelUrl,
      idempotencyKey: `start-${payment.reference}`,
      captureMethod: payment.captureMethod,
    });
  } catch (err) {
    await recordStartFailure(deps, { order: visible, payment });
    if (err instanceof GatewayError) throw new DomainError('payment_gateway_error', { detail: err.message });
    throw err;
  }
  await deps.db.transaction(async (tx) => {
    await savePaymentFigures(tx, {
      id: payment.id,
      figures: figuresOf(payment),
      extra: { gatewayRef: started.gatewayRef, redirectUrl: started.redirectUrl },
    });
  });
  return present({ ...payment, redirectUrl: started.redirectUrl }, visible.alias);
}

/**
 * The attempt a payer starts, in the transaction that locks the order: the open one for the same plugin and amount
 * (with the storefront's latest URLs), or a new one that supersedes every other open attempt.
 */
async function openAttempt(
  tx: Tx,
  deps: PaymentsDeps,
  start: {
    plugin: EnabledPlugin;
    orderId: number;
    input: { orderAlias: string; returnUrl?: string; cancelUrl?: string };
  },
): Promise<{ payment: PaymentRow; reused: boolean; superseded?: PaymentRow[] }> {
  const { plugin, input } = start;
  const order = await lockOrderById(tx, start.orderId);
  if (!order) throw new DomainError('order_not_found', { detail: `order ${input.orderAlias} not found` });
  if (order.status === 'cancelled')
    throw new DomainError('order_not_payable', { detail: 'a cancelled order cannot be paid' });
  const { ledger, payments: attempts } = await ledgerOf(tx, order, { withPending: true });
  const unpaid = ledger.toPay;
  if (unpaid <= 0) {
    const why = ledger.capturable > 0 ? 'its payment is authorized' : 'nothing is due';
    throw new DomainError('order_already_paid', { detail: `order ${order.alias}: ${why}` });
  }
  const open = attempts.find((p) => p.pluginId === plugin.id && p.status === 'pending' && p.amount === unpaid);
  if (open?.redirectUrl) {
    // The gateway only knows the service's return links, so the storefront's latest URLs can still apply.
    if (input.returnUrl === undefined && input.cancelUrl === undefined) return { payment: open, reused: true };
    const urls = { returnUrl: input.returnUrl ?? null, cancelUrl: input.cancelUrl ?? null };
    await tx.update(payments).set(urls).where(eq(payments.id, open.id));
    return { payment: { ...open, ...urls }, reused: true };
  }
  if (open && Date.now() - open.createdAt.getTime() < START_TIMEOUT_MS) {
    throw new DomainError('payment_in_progress', {
      detail: 'this payment is being started; retry in a moment',
      headers: { 'retry-after': '2' },
    });
  }
  // The payer chose again (another method, or the same for a new amount): every other open attempt is superseded.
  // Its gateway is told to close it (after the commit); a payment that still arrives through it is recorded.
  const superseded: PaymentRow[] = [];
  for (const other of attempts.filter((p) => p.status === 'pending')) {
    superseded.push(
      await savePaymentFigures(tx, { id: other.id, figures: { ...figuresOf(other), state: 'superseded' } }),
    );
  }
  const [payment] = await tx
    .insert(payments)
    .values({
      reference: `pay_${randomBytes(16).toString('hex')}`,
      orderId: order.id,
      pluginId: plugin.id,
      amount: unpaid,
      currency: order.currency,
      captureMethod: captureMethodFor(deps, plugin),
      returnUrl: input.returnUrl ?? null,
      cancelUrl: input.cancelUrl ?? null,
    })
    .returning();
  if (!payment) throw new Error('insert returned no payment');
  return { payment, reused: false, superseded };
}

/** A start the gateway refused or failed: the attempt failed, with its events, in its own transaction. */
async function recordStartFailure(deps: PaymentsDeps, start: { order: OrderRow; payment: PaymentRow }): Promise<void> {
  const { payment } = start;
  await deps.outbox.jobs.transaction(deps.db, async (tx) => {
    const order = (await lockOrderById(tx, start.order.id)) ?? start.order;
    const before = figuresOf(payment);
    const failed = await savePaymentFigures(tx, { id: payment.id, figures: { ...before, state: 'failed' } });
    const orderAfter = await refreshOrderLedger(tx, order);
    await recordEvents(tx, deps.outbox, await paymentChangeEvents(tx, { before, payment: failed, order, orderAfter }));
  });
}

/**
 * Applies one normalised event in its own transaction, with the events it causes (payment.succeeded, .failed,
 * .refunded, order.paid). An event that names a gateway payment id no payment knows yet is kept, and applied when a
 * later event teaches a payment that id.
 */
export async function applyEvent(
  deps: Pick<PaymentsDeps, 'db' | 'outbox' | 'autoApprovePaidOrders'>,
  pluginId: string,
  event: GatewayEvent,
): Promise<'duplicate' | 'unmatched' | 'applied' | 'ignored'> {
  return deps.outbox.jobs.transaction(deps.db, async (tx) => {
    const eventRow = await recordEventOnce(tx, {
      pluginId,
      eventId: event.eventId,
      kind: event.kind,
      amount: event.amount?.amountMinor ?? null,
      currency: event.amount?.currency ?? null,
    });
    if (eventRow === undefined) return 'duplicate';
    if (event.kind === 'ignored') return 'ignored';
    // Order first, then payment: the lock order every payment write follows.
    const found = await lockPaymentForEvent(tx, pluginId, event.match);
    if (!found) {
      const later = event.match.gatewayPaymentRef;
      if (later !== undefined)
        await markEvent(tx, eventRow, { paymentId: null, applied: false, pendingGatewayPaymentRef: later });
      return 'unmatched';
    }
    return applyToPayment(tx, deps, { pluginId, event, eventRow, ...found });
  });
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

/** An event applied to its payment, both locked (with the order): what it changed, stored with its records. */
async function applyToPayment(
  tx: Tx,
  deps: Pick<PaymentsDeps, 'outbox' | 'autoApprovePaidOrders'>,
  input: { pluginId: string; event: GatewayEvent; eventRow: number; order: OrderRow; payment: PaymentRow },
): Promise<'applied' | 'ignored'> {
  const { event, order, payment } = input;
  const { ledger, pending } = await ledgerOf(tx, order, { withPending: true });
  const before = figuresOf(payment);
  const fold = new EventFold(payment, pending.get(payment.id) ?? NOTHING_PENDING);
  const changed = fold.apply(event.kind, event.amount?.amountMinor, event.amount?.currency);
  await markEvent(tx, input.eventRow, { paymentId: payment.id, applied: changed });
  const learnt = event.gatewayPaymentRef && !payment.gatewayPaymentRef ? event.gatewayPaymentRef : undefined;
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
    await markEvent(tx, kept.id, { paymentId: input.fold.paymentId, applied, pendingGatewayPaymentRef: null });
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

/** Best effort: asks the gateways of superseded attempts to close them, so they can no longer take money. */
async function closeSuperseded(deps: PaymentsDeps, superseded: readonly PaymentRow[]): Promise<void> {
  for (const attempt of superseded) {
    const gateway = deps.registry.get(attempt.pluginId)?.gateway;
    if (!gateway?.cancelAttempt) continue;
    try {
      await gateway.cancelAttempt({
        reference: attempt.reference,
        gatewayRef: attempt.gatewayRef,
        gatewayPaymentRef: attempt.gatewayPaymentRef,
      });
    } catch (err) {
      deps.log.warn({ err, paymentId: attempt.id }, 'a superseded payment attempt could not be closed at its gateway');
    }
  }
}

/**
 * A gateway's webhook: the plugin verifies the signature on the raw body before anything is
 * looked up, then each event is stored once and applied in the same transaction.
 */
export async function handleWebhook(
  deps: PaymentsDeps,
  pluginId: string,
  request: { headers: Record<string, string | string[] | undefined>; rawBody: Buffer },
) {
  const plugin = pluginOr404(deps, pluginId);
  let events: GatewayEvent[];
  try {
    events = await plugin.gateway.parseWebhook({ headers: request.headers, rawBody: request.rawBody });
  } catch (err) {
    if (err instanceof WebhookSignatureError) throw new DomainError('invalid_signature', { detail: err.message });
    throw err;
  }
  const outcomes: string[] = [];
  for (const event of events) {
    const outcome = await applyEvent(deps, plugin.id, event);
    if (outcome === 'unmatched')
      deps.log.info(
        { pluginId, eventId: event.eventId },
        'webhook event matches no payment (kept if it can match later)',
      );
    outcomes.push(outcome);
  }
  return { received: events.length, outcomes };
}
