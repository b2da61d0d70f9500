import { shippedValue } from '../orders/fulfillment.decide.js';
import { fulfillmentsOf } from '../orders/fulfillments.repository.js';
import { type FulfillmentChange, type ShipmentCapture, unitsOfFulfillments } from '../orders/fulfillments.service.js';
import { linesOf } from '../orders/orders.repository.js';
import { DomainError } from '../shared/errors.js';
import { currencyFormat } from '../shared/money.js';
import { capturableOf, NOTHING_PENDING } from './payment-states.js';
import { reserveLocked, run } from './payments.admin.js';
import {
  figuresOf,
  ledgerOf,
  lockOrderById,
  lockPayment,
  type OperationRow,
  operationByRequestKey,
} from './payments.repository.js';
import type { PaymentsDeps } from './payments.service.js';

/**
 * CAPTURE_ON_SHIPMENT (decision 0027): once a shipment has shipped (committed), the money of what went out is taken
 * from what the order's payments hold, in the two steps of every capture (payments.admin.ts). Under the order's lock:
 * what is due is the value of every unit shipped so far (`shippedValue`: the lines' stored totals in proportion,
 * shipping with the first shipment) less what was captured or is being captured, and captures of it are reserved on
 * the payments that hold money, keyed by the shipment so a retry takes it once. A payment with a capture in flight
 * takes no second one: every capture is final (gateways release what it does not take), so parcels shipped at once
 * capture as parcels shipped in turn do, the first one's value, the rest due again (paid through a new payment). Then
 * each capture goes to its gateway. A refusal is answered, not thrown: the shipment stays shipped, and an admin
 * captures by hand.
 */
export async function captureShipped(
  deps: PaymentsDeps,
  change: FulfillmentChange,
  request: { adminId: number | null },
): Promise<ShipmentCapture[]> {
  if (change.order.amountCapturable === 0) return [];
  const requestKey = `fulfillment-${change.fulfillment.id}`;
  const ops = await deps.db.transaction(async (tx) => {
    const order = await lockOrderById(tx, change.order.id);
    if (!order) return [];
    const lines = await linesOf(tx, order.id);
    const fulfillments = await fulfillmentsOf(tx, order.id);
    const { ledger, payments, pending } = await ledgerOf(tx, order, { withPending: true });
    const shipped = shippedValue({
      total: order.total,
      lines: lines.map((l) => ({ lineId: l.id, quantity: l.quantity, total: l.total })),
      fulfillments: unitsOfFulfillments(fulfillments),
    });
    const money = currencyFormat(order.currency);
    // The ledger counts captures in flight as captured.
    let due = shipped - ledger.captured;
    const reserved: OperationRow[] = [];
    for (const found of payments) {
      const inFlight = pending.get(found.id) ?? NOTHING_PENDING;
      const amount = Math.min(due, inFlight.capture > 0 ? 0 : capturableOf(figuresOf(found), inFlight));
      if (amount <= 0) continue;
      const payment = await lockPayment(tx, found.id);
      if (!payment) continue;
      const earlier = await operationByRequestKey(tx, { paymentId: payment.id, kind: 'capture', requestKey });
      reserved.push(
        earlier
          ?? (await reserveLocked(tx, deps, {
            kind: 'capture',
            order,
            payment,
            request: { amount: money.format(amount), requestKey, adminId: request.adminId },
          })),
      );
      due -= amount;
    }
    return reserved;
  });
  const money = currencyFormat(change.order.currency);
  const captures: ShipmentCapture[] = [];
  for (const op of ops) {
    const capture = { payment_id: op.paymentId, amount: money.format(op.amount) };
    if (op.status !== 'pending') {
      captures.push({ ...capture, status: op.status, detail: op.error });
      continue;
    }
    try {
      await run(deps, op);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      captures.push({ ...capture, status: 'failed', detail: err.detail ?? err.message });
      continue;
    }
    captures.push({ ...capture, status: 'succeeded', detail: null });
  }
  return captures;
}
