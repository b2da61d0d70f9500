import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { TokenService } from '../auth/tokens.js';
import type { Db, Tx } from '../db/client.js';
import { eq } from 'drizzle-orm';
import { payments } from '../db/schema.js';
import { type Outbox, recordEvents } from '../events/outbox.js';
import { findVisibleOrder, type OrderCaller } from '../orders/orders.service.js';
import { currencyExponent } from '../shared/currency.js';
import { assertPluginOffered } from '../markets/market-payments.js';
import { DomainError } from '../shared/errors.js';
import { currencyFormat } from '../shared/money.js';
import {
  type CaptureMethod,
  GatewayError,
  type Money,
  type StartResult,
  type GatewayEvent,
  UnchargeableAmountError,
  WebhookSignatureError,
} from './payment-plugin.js';
import { returnLinks } from './return-links.js';
import { paymentChangeEvents } from './payment-events.js';
import type { OrderRow } from '../orders/orders.repository.js';
import type { GatewayEventDecider } from './gateway-event-batches.js';
import { applyEvent } from './gateway-events.js';
import {
  figuresOf,
  ledgerOf,
  lockOrderById,
  type PaymentRow,
  refreshOrderLedger,
  savePaymentFigures,
} from './payments.repository.js';
import type { EnabledPlugin, PaymentRegistry } from './plugin-registry.js';

export interface PaymentsDeps {
  db: Db;
  /** Decides a gateway's events in batches, committing those that change nothing (decision 0026). */
  gatewayEvents: GatewayEventDecider;
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

/** A gateway's refusal of an amount it cannot take exactly, as the 422 the caller gets (never a rounding). */
export function amountNotChargeable(err: UnchargeableAmountError, pluginId: string, extra: object = {}): DomainError {
  return new DomainError('amount_not_chargeable', { detail: err.message, extra: { plugin: pluginId, ...extra } });
}

/** Before an attempt is written: the plugin says whether its gateway can take this amount exactly (checkAmount). */
function assertChargeable(plugin: EnabledPlugin, amount: Money): void {
  try {
    plugin.gateway.checkAmount?.(amount);
  } catch (err) {
    if (err instanceof UnchargeableAmountError) throw amountNotChargeable(err, plugin.id);
    throw err;
  }
}

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
    caller: OrderCaller;
  },
): Promise<StartedPayment> {
  const plugin = pluginOr404(deps, input.pluginId);
  const visible = await findVisibleOrder(deps.db, input.orderAlias, input.caller);
  await assertPluginOffered(deps.db, visible, plugin.id);

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
    if (err instanceof UnchargeableAmountError) throw amountNotChargeable(err, plugin.id);
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
  assertChargeable(plugin, money(unpaid, order.currency));
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
