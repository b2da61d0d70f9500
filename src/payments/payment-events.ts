import type { Tx } from '../db/client.js';
import type { NewEvent } from '../events/outbox.js';
import { orderEvents } from '../orders/order-events.js';
import type { OrderRow } from '../orders/orders.repository.js';
import { linesOf } from '../orders/orders.repository.js';
import { presentPayment } from './payment.presenter.js';
import { orderBecamePaid } from '../orders/order-ledger.js';
import { type PaymentFigures, paymentEventTypes } from './payment-states.js';
import { figuresOf, type PaymentRow } from './payments.repository.js';

/**
 * The events of a payment's change in one transaction (see `paymentEventTypes`, `orderBecamePaid`): the payment's
 * own (its data the payment as the admin API shows it, with its order's id and alias), then order.paid when the
 * order became paid (order.paid_after_expiry for an order that expired unpaid). `order` is the order's row before
 * the change, `orderAfter` after it (undefined when its payment status was not recomputed).
 */
export async function paymentChangeEvents(
  tx: Tx,
  change: { before: PaymentFigures; payment: PaymentRow; order: OrderRow; orderAfter?: OrderRow },
): Promise<NewEvent[]> {
  const { payment, order, orderAfter } = change;
  const data = presentPayment(payment, order.alias);
  const events: NewEvent[] = paymentEventTypes(change.before, figuresOf(payment)).map((type) => ({
    type,
    order: { id: order.id, alias: order.alias },
    paymentId: payment.id,
    data,
  }));
  if (orderAfter && orderBecamePaid(order.paymentStatus, orderAfter.paymentStatus)) {
    // An expired order is not paid, it holds money to give back: a different event for a different follow-up.
    const type = order.cancelReason === 'expired' ? 'order.paid_after_expiry' : 'order.paid';
    events.push(...orderEvents([type], orderAfter, await linesOf(tx, order.id)));
  }
  return events;
}
