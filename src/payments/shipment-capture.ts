import { shippedValue } from '../orders/fulfillment.decide.js';
import { fulfillmentsOf } from '../orders/fulfillments.repository.js';
import { type FulfillmentChange, type ShipmentCapture, unitsOfFulfillments } from '../orders/fulfillments.service.js';
import { linesOf } from '../orders/orders.repository.js';
import { DomainError } from '../shared/errors.js';
import { currencyFormat } from '../shared/money.js';
import { capturableOf } from './payment-states.js';
import { capturePayment } from './payments.admin.js';
import { figuresOf, paymentsOfOrder } from './payments.repository.js';
import type { PaymentsDeps } from './payments.service.js';

/**
 * CAPTURE_ON_SHIPMENT (decision 0027): once a shipment has shipped (committed), the money of what went out is taken
 * from what the order's payments hold: the value of every unit shipped so far (`shippedValue`: the lines' stored
 * totals in proportion, shipping with the first shipment) less what was captured already, through the admin's own
 * capture path (`capturePayment`: reserved under the order's lock, the gateway called, settled with the ledger and
 * its events), keyed by the shipment so a retry of the capture takes it once. Every capture is final (gateways
 * release what a capture does not take): after a partial shipment the rest of the order is due again, paid through a
 * new payment. A refusal is answered, not thrown: the shipment stays shipped, and an admin captures by hand.
 */
export async function captureShipped(
  deps: PaymentsDeps,
  change: FulfillmentChange,
  request: { adminId: number | null },
): Promise<ShipmentCapture[]> {
  const { order } = change;
  if (order.amountCapturable === 0) return [];
  const [lines, fulfillments, payments] = await Promise.all([
    linesOf(deps.db, order.id),
    fulfillmentsOf(deps.db, order.id),
    paymentsOfOrder(deps.db, order.id),
  ]);
  const shipped = shippedValue({
    total: order.total,
    lines: lines.map((l) => ({ lineId: l.id, quantity: l.quantity, total: l.total })),
    fulfillments: unitsOfFulfillments(fulfillments),
  });
  const money = currencyFormat(order.currency);
  let due = shipped - order.amountCaptured;
  const captures: ShipmentCapture[] = [];
  for (const payment of payments) {
    const amount = Math.min(due, capturableOf(figuresOf(payment)));
    if (amount <= 0) continue;
    const capture = { payment_id: payment.id, amount: money.format(amount) };
    try {
      await capturePayment(deps, {
        paymentId: payment.id,
        amount: capture.amount,
        requestKey: `fulfillment-${change.fulfillment.id}`,
        adminId: request.adminId,
      });
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      captures.push({ ...capture, status: 'failed', detail: err.detail ?? err.message });
      break;
    }
    captures.push({ ...capture, status: 'succeeded', detail: null });
    due -= amount;
  }
  return captures;
}
