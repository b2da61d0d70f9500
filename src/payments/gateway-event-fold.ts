import type { GatewayEvent, GatewayEventKind } from './payment-plugin.js';
import { applyPaymentEvent, type PaymentFigures, type PendingMoney } from './payment-states.js';
import { figuresOf, type PaymentRow } from './payments.repository.js';

/** A payment's figures as gateway events move them, and the money those events moved (captured, refunded). */
export class EventFold {
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

/**
 * What an event does to its payment as locked: the fold after it, whether it changed the figures, the gateway payment
 * id it teaches the payment, and whether it writes nothing but its own mark (`marksOnly`: no change, no money moved,
 * nothing learnt). Both transactions of an event decide with it (decision 0026).
 */
export function eventEffect(payment: PaymentRow, pending: PendingMoney, event: GatewayEvent) {
  const fold = new EventFold(payment, pending);
  const changed = fold.apply(event.kind, event.amount?.amountMinor, event.amount?.currency);
  const learnt = event.gatewayPaymentRef && !payment.gatewayPaymentRef ? event.gatewayPaymentRef : undefined;
  const marksOnly = !changed && learnt === undefined && fold.captured === 0 && fold.refunded === 0;
  return { fold, changed, learnt, marksOnly };
}
