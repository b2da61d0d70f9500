import { applyPaymentEvent, type PaymentFigures } from '../src/payments/payment-states.js';

/** A payment attempt of `amount` (minor units) before anything happened to it: the tests' starting figures. */
export const freshPayment = (amount: number): PaymentFigures => ({
  state: 'pending',
  amount,
  captureMethod: 'automatic',
  authorized: 0,
  captured: 0,
  refunded: 0,
  voided: 0,
});

/** A manual-capture attempt whose `amount` the gateway authorized (held, nothing taken). */
export const heldPayment = (amount: number): PaymentFigures =>
  applyPaymentEvent({ ...freshPayment(amount), captureMethod: 'manual' }, { kind: 'authorized', amountMinor: amount })
    .next;
