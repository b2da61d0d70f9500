import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Principal, TokenService } from '../auth/tokens.js';
import type { Db } from '../db/client.js';
import { eq } from 'drizzle-orm';
import { payments } from '../db/schema.js';
import { type Outbox, recordEvents } from '../events/outbox.js';
import { orderEvents } from '../orders/order-events.js';
import { approvesOnPayment, statusChangeEvents } from '../orders/order-states.js';
import { linesOf, setOrderStatus } from '../orders/orders.repository.js';
import { findVisibleOrder } from '../orders/orders.service.js';
import { currencyExponent } from '../shared/currency.js';
import { DomainError } from '../shared/errors.js';
import { currencyFormat } from '../shared/money.js';
import {
  type CaptureMethod,
  GatewayError,
  type Money,
  type StartResult,
  type WebhookEvent,
  type WebhookEventKind,
  WebhookSignatureError,
} from './payment-plugin.js';
import { returnLinks } from './payment-return.js';
import { paymentChangeEvents } from './payment-events.js';
import { applyPaymentEvent } from './payment-states.js';
import {
  figuresOf,
  findPaymentForEvent,
  lockOrderById,
  lockPayment,
  markEvent,
  type PaymentRow,
  paymentsOfOrder,
  pendingEventsFor,
  recordEventOnce,
  refreshOrderPaymentStatus,
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

  const opened = await deps.db.transaction(async (tx) => {
    const order = await lockOrderById(tx, visible.id);
    if (!order) throw new DomainError('order_not_found', { detail: `order ${input.orderAlias} not found` });
    if (order.status === 'cancelled')
      throw new DomainError('order_not_payable', { detail: 'a cancelled order cannot be paid' });
    const attempts = await paymentsOfOrder(tx, order.id);
    const kept = attempts.reduce((sum, p) => sum + p.amountCaptured - p.amountRefunded, 0);
    const unpaid = order.total - kept;
    if (unpaid <= 0) throw new DomainError('order_already_paid', { detail: `order ${order.alias} is already paid` });
    const open = attempts.find((p) => p.pluginId === plugin.id && p.status === 'pending' && p.amount === unpaid);
    // One open attempt per order, whatever its plugin: a second could take the money twice.
    const other = attempts.find((p) => p.status === 'pending' && p.id !== open?.id);
    if (other) {
      throw new DomainError('payment_in_progress', {
        detail: `payment ${other.id} through ${other.pluginId} is open for this order; it must fail or be cancelled first`,
        extra: { open_payment_id: other.id, open_payment_plugin: other.pluginId },
      });
    }
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
    if (open) await savePaymentFigures(tx, { id: open.id, figures: { ...figuresOf(open), state: 'expired' } });
    const [payment] = await tx
      .insert(payments)
      .values({
        reference: `pay_${randomBytes(16).toString('hex')}`,
        orderId: order.id,
        pluginId: plugin.id,
        amount: unpaid,
        currency: order.currency,
        returnUrl: input.returnUrl ?? null,
        cancelUrl: input.cancelUrl ?? null,
      })
      .returning();
    if (!payment) throw new Error('insert returned no payment');
    await refreshOrderPaymentStatus(tx, order);
    return { payment, reused: false };
  });
  if (opened.reused) return present(opened.payment, visible.alias);

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
      captureMethod: captureMethodFor(deps, plugin),
    });
  } catch (err) {
    await deps.outbox.jobs.transaction(deps.db, async (tx) => {
      const order = (await lockOrderById(tx, visible.id)) ?? visible;
      const before = figuresOf(payment);
      const failed = await savePaymentFigures(tx, { id: payment.id, figures: { ...before, state: 'failed' } });
      const orderAfter = await refreshOrderPaymentStatus(tx, order);
      await recordEvents(
        tx,
        deps.outbox,
        await paymentChangeEvents(tx, { before, payment: failed, order, orderAfter }),
      );
    });
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
 * Applies one normalised event in its own transaction, with the events it causes (payment.succeeded, .failed,
 * .refunded, order.paid). An event that names a gateway payment id no payment knows yet is kept, and applied when a
 * later event teaches a payment that id.
 */
export async function applyEvent(
  deps: Pick<PaymentsDeps, 'db' | 'outbox' | 'autoApprovePaidOrders'>,
  pluginId: string,
  event: WebhookEvent,
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
    const found = await findPaymentForEvent(tx, pluginId, event.match);
    if (!found) {
      const later = event.match.gatewayPaymentRef;
      if (later !== undefined)
        await markEvent(tx, eventRow, { paymentId: null, applied: false, pendingGatewayPaymentRef: later });
      return 'unmatched';
    }
    // Order first, then payment: the lock order every payment write follows.
    const order = await lockOrderById(tx, found.orderId);
    const payment = await lockPayment(tx, found.id);
    if (!order || !payment) return 'unmatched';

    const before = figuresOf(payment);
    let figures = before;
    const step = (
      kind: WebhookEventKind,
      amountMinor: number | undefined,
      currency: string | null | undefined,
    ): boolean => {
      if (currency && currency !== payment.currency) return false;
      const result = applyPaymentEvent(figures, { kind, amountMinor });
      figures = result.next;
      return result.changed;
    };
    const changed = step(event.kind, event.amount?.amountMinor, event.amount?.currency);
    await markEvent(tx, eventRow, { paymentId: payment.id, applied: changed });

    let caughtUp = false;
    const learnt = event.gatewayPaymentRef && !payment.gatewayPaymentRef ? event.gatewayPaymentRef : undefined;
    if (learnt !== undefined) {
      for (const early of await pendingEventsFor(tx, pluginId, learnt)) {
        const applied = step(early.kind as WebhookEventKind, early.amount ?? undefined, early.currency);
        await markEvent(tx, early.id, { paymentId: payment.id, applied, pendingGatewayPaymentRef: null });
        caughtUp ||= applied;
      }
    }
    let saved = payment;
    if (changed || caughtUp || learnt !== undefined) {
      saved = await savePaymentFigures(tx, {
        id: payment.id,
        figures,
        extra: learnt !== undefined ? { gatewayPaymentRef: learnt } : {},
      });
    }
    if (changed || caughtUp) {
      const orderAfter = await refreshOrderPaymentStatus(tx, order);
      const events = await paymentChangeEvents(tx, { before, payment: saved, order, orderAfter });
      if (deps.autoApprovePaidOrders !== false && approvesOnPayment(order, orderAfter)) {
        const approved = await setOrderStatus(tx, order.id, 'approved');
        events.push(...orderEvents(statusChangeEvents('approved'), approved, await linesOf(tx, order.id)));
      }
      await recordEvents(tx, deps.outbox, events);
    }
    return changed ? 'applied' : 'ignored';
  });
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
  let events: WebhookEvent[];
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
