import { randomUUID } from 'node:crypto';
import { DomainError } from '../shared/errors.js';
import { currencyFormat, MoneyFormatError } from '../shared/money.js';
import { currencyExponent } from '../shared/currency.js';
import { GatewayError } from './payment-plugin.js';
import { findOrderByAlias, type OrderRow } from '../orders/orders.repository.js';
import { changeOrderStatus } from '../orders/orders.service.js';
import { findOrderOfPayment, findPayment, type PaymentRow, paymentsOfOrder } from './payments.repository.js';
import { applyEvent, type PaymentsDeps } from './payments.service.js';

const notFound = (id: number) => new DomainError('payment_not_found', { detail: `payment ${id} not found` });

/**
 * Records the cash of a manual-capture payment (cash on delivery) as received: the same path as a
 * gateway's "succeeded" event, so the order's payment status follows.
 */
export async function capturePayment(deps: PaymentsDeps, id: number): Promise<PaymentRow> {
  const payment = await findPayment(deps.db, id);
  if (!payment) throw notFound(id);
  const plugin = deps.registry.get(payment.pluginId);
  if (!plugin?.manualCapture) {
    throw new DomainError('invalid_transition', {
      detail: `payments through ${payment.pluginId} are captured by the gateway, not by hand`,
    });
  }
  if (payment.status !== 'pending')
    throw new DomainError('invalid_transition', { detail: `payment ${id} is ${payment.status}, not pending` });
  // Cash taken for an order already paid would make it overpaid: refuse it rather than record it.
  // (Checked before the capture's transaction: a payment completing in between is not caught here.)
  const order = await findOrderOfPayment(deps.db, payment);
  if (order && (order.paymentStatus === 'paid' || order.paymentStatus === 'overpaid'))
    throw new DomainError('order_already_paid', {
      detail: `order ${order.alias} is already ${order.paymentStatus}; this payment has nothing to collect`,
    });
  await applyEvent(deps, payment.pluginId, {
    eventId: `admin-capture:${payment.id}`,
    kind: 'succeeded',
    match: { reference: payment.reference },
    amount: { amountMinor: payment.amount, currency: payment.currency, exponent: currencyExponent(payment.currency) },
  });
  return (await findPayment(deps.db, id)) ?? payment;
}

/**
 * Refunds part or all of what a payment kept, through the plugin when it can refund (otherwise the
 * refund is only recorded: money returned outside the service). The refund is recorded as a
 * running total, so the gateway's own refund webhook for it changes nothing more.
 */
export async function refundPayment(
  deps: PaymentsDeps,
  id: number,
  amountText: string | undefined,
): Promise<PaymentRow> {
  const payment = await findPayment(deps.db, id);
  if (!payment) throw notFound(id);
  const format = currencyFormat(payment.currency);
  const refundable = payment.amountCaptured - payment.amountRefunded;
  if (!['succeeded', 'partially_refunded'].includes(payment.status) || refundable <= 0) {
    throw new DomainError('invalid_transition', {
      detail: `payment ${id} is ${payment.status}; only money that was received can be refunded`,
    });
  }
  let amount = refundable;
  if (amountText !== undefined) {
    try {
      amount = format.parse(amountText);
    } catch (err) {
      if (err instanceof MoneyFormatError)
        throw new DomainError('validation_error', {
          detail: `amount ${err.message}`,
          errors: [{ field: 'amount', message: err.message }],
        });
      throw err;
    }
    if (amount <= 0 || amount > refundable) {
      throw new DomainError('validation_error', {
        detail: `amount must be more than 0 and at most ${format.format(refundable)}`,
        errors: [{ field: 'amount', message: `must be between 0 and ${format.format(refundable)}` }],
      });
    }
  }
  const total = payment.amountRefunded + amount;
  const plugin = deps.registry.get(payment.pluginId);
  const exponent = currencyExponent(payment.currency);
  if (plugin?.gateway.refund) {
    try {
      await plugin.gateway.refund({
        reference: payment.reference,
        gatewayRef: payment.gatewayRef,
        gatewayPaymentRef: payment.gatewayPaymentRef,
        amount: { amountMinor: amount, currency: payment.currency, exponent },
        idempotencyKey: `refund-${payment.reference}-${total}`,
      });
    } catch (err) {
      if (err instanceof GatewayError) throw new DomainError('payment_gateway_error', { detail: err.message });
      throw err;
    }
  }
  await applyEvent(deps, payment.pluginId, {
    eventId: `admin-refund:${payment.id}:${total}:${randomUUID()}`,
    kind: 'refunded',
    match: { reference: payment.reference },
    amount: { amountMinor: total, currency: payment.currency, exponent },
  });
  return (await findPayment(deps.db, id)) ?? payment;
}

/**
 * The admin's `{"status": "cancelled", "refund": true}`: refunds in full every payment of the order that kept money
 * (through its plugin, as `refundPayment`), then cancels it. A refund that fails stops there (the order is not
 * cancelled; what was refunded stays refunded) and can be sent again.
 */
export async function cancelOrderWithRefund(deps: PaymentsDeps, alias: string): Promise<OrderRow> {
  const order = await findOrderByAlias(deps.db, alias);
  if (!order) throw new DomainError('order_not_found', { detail: `order ${alias} not found` });
  for (const payment of await paymentsOfOrder(deps.db, order.id)) {
    if (payment.amountCaptured - payment.amountRefunded > 0) await refundPayment(deps, payment.id, undefined);
  }
  return changeOrderStatus(deps, alias, 'cancelled');
}
