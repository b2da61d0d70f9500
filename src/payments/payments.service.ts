import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Principal } from '../auth/tokens.js';
import type { Db, Tx } from '../db/client.js';
import { payments } from '../db/schema.js';
import { findVisibleOrder } from '../orders/orders.service.js';
import { currencyExponent } from '../shared/currency.js';
import { DomainError } from '../shared/errors.js';
import { currencyFormat } from '../shared/money.js';
import { GatewayError, type Money, type WebhookEvent, WebhookSignatureError } from './payment-plugin.js';
import { applyPaymentEvent } from './payment-states.js';
import {
  figuresOf, findPaymentForEvent, lockOrderById, lockPayment, markEvent, type PaymentRow, paymentsOfOrder, recordEventOnce,
  refreshOrderPaymentStatus, savePaymentFigures,
} from './payments.repository.js';
import type { EnabledPlugin, PaymentRegistry } from './plugin-registry.js';

export interface PaymentsDeps {
  db: Db;
  registry: PaymentRegistry;
  publicBaseUrl: string;
  log: FastifyBaseLogger;
}

/** An attempt whose gateway call has not come back may be this old before another replaces it. */
const START_TIMEOUT_MS = 60_000;

function pluginOr404(deps: PaymentsDeps, id: string): EnabledPlugin {
  const plugin = deps.registry.get(id);
  if (!plugin) throw new DomainError('payment_plugin_not_found', { detail: `no enabled payment plugin "${id}"`, extra: { available: deps.registry.list().map((p) => p.id) } });
  return plugin;
}

const money = (amountMinor: number, currency: string): Money => ({ amountMinor, currency, exponent: currencyExponent(currency) });

export interface StartedPayment {
  url: string;
  payment_id: number;
  order_alias: string;
  amount: string;
  currency: string;
}

function present(payment: PaymentRow, orderAlias: string): StartedPayment {
  return { url: payment.redirectUrl ?? '', payment_id: payment.id, order_alias: orderAlias, amount: currencyFormat(payment.currency).format(payment.amount), currency: payment.currency };
}

/**
 * Opens (or reuses) an attempt to pay the order's unpaid amount through a plugin. The attempt is
 * written first, then the gateway is called outside any transaction (no database lock is held
 * over the network), then its answer is stored. Calling again while that attempt is open returns
 * the same attempt.
 */
export async function startPayment(deps: PaymentsDeps, input: {
  pluginId: string; orderAlias: string; returnUrl?: string; cancelUrl?: string;
  caller: { principal: Principal | null; orderToken?: string };
}): Promise<StartedPayment> {
  const plugin = pluginOr404(deps, input.pluginId);
  const visible = await findVisibleOrder(deps.db, input.orderAlias, input.caller);
  const returnUrl = input.returnUrl ?? `${deps.publicBaseUrl}/order/storefront/api/orders/${visible.alias}/`;
  const cancelUrl = input.cancelUrl ?? returnUrl;

  const opened = await deps.db.transaction(async (tx) => {
    const order = await lockOrderById(tx, visible.id);
    if (!order) throw new DomainError('order_not_found', { detail: `order ${input.orderAlias} not found` });
    if (order.status === 'cancelled') throw new DomainError('order_not_payable', { detail: 'a cancelled order cannot be paid' });
    const attempts = await paymentsOfOrder(tx, order.id);
    const kept = attempts.reduce((sum, p) => sum + p.amountCaptured - p.amountRefunded, 0);
    const unpaid = order.total - kept;
    if (unpaid <= 0) throw new DomainError('order_already_paid', { detail: `order ${order.alias} is already paid` });
    const open = attempts.find((p) => p.pluginId === plugin.id && p.status === 'pending' && p.amount === unpaid);
    if (open?.redirectUrl) return { payment: open, reused: true };
    if (open && Date.now() - open.createdAt.getTime() < START_TIMEOUT_MS) {
      throw new DomainError('payment_in_progress', { detail: 'this payment is being started; retry in a moment', headers: { 'retry-after': '2' } });
    }
    if (open) await savePaymentFigures(tx, open.id, { ...figuresOf(open), state: 'expired' });
    const [payment] = await tx.insert(payments).values({
      reference: `pay_${randomBytes(16).toString('hex')}`, orderId: order.id, pluginId: plugin.id, amount: unpaid,
      currency: order.currency, returnUrl, cancelUrl,
    }).returning();
    if (!payment) throw new Error('insert returned no payment');
    await refreshOrderPaymentStatus(tx, order);
    return { payment, reused: false };
  });
  if (opened.reused) return present(opened.payment, visible.alias);

  const { payment } = opened;
  let started;
  try {
    started = await plugin.gateway.start({
      reference: payment.reference,
      order: { alias: visible.alias, email: visible.email, totalItems: visible.totalItems },
      amount: money(payment.amount, payment.currency),
      returnUrl, cancelUrl,
      idempotencyKey: `start-${payment.reference}`,
    });
  } catch (err) {
    await deps.db.transaction(async (tx) => {
      await lockOrderById(tx, visible.id);
      await savePaymentFigures(tx, payment.id, { ...figuresOf(payment), state: 'failed' });
      await refreshOrderPaymentStatus(tx, visible);
    });
    if (err instanceof GatewayError) throw new DomainError('payment_gateway_error', { detail: err.message });
    throw err;
  }
  await deps.db.transaction(async (tx) => {
    await savePaymentFigures(tx, payment.id, figuresOf(payment), { gatewayRef: started.gatewayRef, redirectUrl: started.redirectUrl });
  });
  return present({ ...payment, redirectUrl: started.redirectUrl }, visible.alias);
}

/** Applies one normalised event in its own transaction; returns whether it changed anything. */
export async function applyEvent(db: Db, pluginId: string, event: WebhookEvent): Promise<'duplicate' | 'unmatched' | 'applied' | 'ignored'> {
  const run = async (tx: Tx) => {
    const eventRow = await recordEventOnce(tx, { pluginId, eventId: event.eventId, kind: event.kind, amount: event.amount?.amountMinor ?? null });
    if (eventRow === undefined) return 'duplicate' as const;
    const found = await findPaymentForEvent(tx, pluginId, event.match);
    if (!found) return 'unmatched' as const;
    // Order first, then payment: the lock order every payment write follows.
    const order = await lockOrderById(tx, found.orderId);
    const payment = await lockPayment(tx, found.id);
    if (!order || !payment) return 'unmatched' as const;
    if (event.amount && event.amount.currency !== payment.currency) {
      await markEvent(tx, eventRow, { paymentId: payment.id, applied: false });
      return 'ignored' as const;
    }
    const { next, changed } = applyPaymentEvent(figuresOf(payment), { kind: event.kind, amountMinor: event.amount?.amountMinor });
    const learnt = event.gatewayPaymentRef && !payment.gatewayPaymentRef ? { gatewayPaymentRef: event.gatewayPaymentRef } : {};
    if (changed || Object.keys(learnt).length > 0) await savePaymentFigures(tx, payment.id, next, learnt);
    if (changed) await refreshOrderPaymentStatus(tx, order);
    await markEvent(tx, eventRow, { paymentId: payment.id, applied: changed });
    return changed ? 'applied' as const : 'ignored' as const;
  };
  return db.transaction(run);
}

/**
 * A gateway's webhook: the plugin verifies the signature on the raw body before anything is
 * looked up, then each event is stored once and applied in the same transaction.
 */
export async function handleWebhook(deps: PaymentsDeps, pluginId: string, request: { headers: Record<string, string | string[] | undefined>; rawBody: Buffer }) {
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
    const outcome = await applyEvent(deps.db, plugin.id, event);
    if (outcome === 'unmatched') deps.log.warn({ pluginId, eventId: event.eventId }, 'webhook event matches no payment');
    outcomes.push(outcome);
  }
  return { received: events.length, outcomes };
}
