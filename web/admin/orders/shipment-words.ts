// What a shipment's writes did, in the sentences an admin reads: its units, its tracking, the money shipping captured.
import type { Order, Shipment, ShippedShipment } from './types';

/** "2 × T-shirt, 1 × Mug": units of what, in words. */
export function unitsText(lines: readonly { name: string; quantity: number }[]): string {
  return lines.map((l) => `${l.quantity} × ${l.name}`).join(', ');
}

/** "with UPS, tracking number 1Z…", or "without tracking". */
export function trackingText(t: { carrier?: string | null; tracking_number?: string | null }): string {
  const carrier = t.carrier ? `with ${t.carrier}` : '';
  const number = t.tracking_number ? `tracking number ${t.tracking_number}` : '';
  const both = [carrier, number].filter(Boolean).join(', ');
  return both === '' ? 'without tracking' : both;
}

/**
 * What shipping captured (CAPTURE_ON_SHIPMENT, the ship answer's `captures`): each capture with its amount, a failed
 * one with why and what to do; nothing when the store does not capture on shipment.
 */
export function capturesText(answer: Pick<ShippedShipment, 'captures'>, currency: string): string {
  return answer.captures
    .map((c) =>
      c.status === 'succeeded'
        ? ` Captured ${c.amount} ${currency} from payment ${c.payment_id}.`
        : ` Capturing ${c.amount} ${currency} from payment ${c.payment_id} failed${c.detail ? ` (${c.detail})` : ''}:`
          + ' capture it by hand under Payments.',
    )
    .join('');
}

/** The sentence after a shipment was marked shipped. */
export function shippedText(answer: ShippedShipment, order: Pick<Order, 'currency'>): string {
  const link = answer.tracking_url ? ' The shipped email gives the customer its tracking link.' : '';
  return (
    `Shipment ${answer.id} shipped: ${unitsText(answer.lines)}, ${trackingText(answer)}.${link}`
    + capturesText(answer, order.currency)
  );
}

/** The sentence after a shipment was cancelled: its units are back in what is left to fulfil. */
export function cancelledText(answer: Shipment): string {
  return `Shipment ${answer.id} cancelled: ${unitsText(answer.lines)} can be fulfilled again.`;
}
