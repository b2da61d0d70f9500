// What a return's writes did, in the sentences an admin reads: its units, their stock, the money its refund moved.
import { unitsText } from './shipment-words';
import type { RefundedReturn, Return } from './types';

/** "1 unit goes back into stock", "No unit goes back into stock". */
export function restockText(units: number): string {
  if (units === 0) return 'No unit goes back into stock';
  return `${units} unit${units === 1 ? ' goes' : 's go'} back into stock`;
}

/** The sentence after a return was received: its units, and how many went back into stock. */
export function receivedText(answer: Return): string {
  const restocked = answer.lines.filter((l) => l.restock).reduce((sum, l) => sum + l.quantity, 0);
  const stock = restocked === 0 ? 'none went back into stock' : `${restocked} back in stock`;
  return `Return ${answer.id} received: ${unitsText(answer.lines)}, ${stock}.`;
}

/**
 * The sentence after a return was refunded: what it gave back, and each refund the gateways made, a failed one with
 * why and what it leaves (money owed back, ledger refund_due).
 */
export function refundedText(answer: RefundedReturn): string {
  const c = answer.currency;
  const total = answer.refund ? ` ${answer.refund.amount} ${c}` : '';
  const refunds = answer.refunds
    .map((r) =>
      r.status === 'failed'
        ? ` Refunding ${r.amount} ${c} on payment ${r.payment_id} failed${r.detail ? ` (${r.detail})` : ''}: it is owed`
          + ' back to the customer (refund due): refund it by hand under Payments.'
        : ` ${r.status === 'pending' ? 'Refund under way' : 'Refunded'}: ${r.amount} ${c} on payment ${r.payment_id}.`,
    )
    .join('');
  return `Return ${answer.id} refunded${total}.${refunds}`;
}
