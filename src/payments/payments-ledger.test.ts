import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { freshPayment, heldPayment } from '../../test/payment-figures.js';
import { ledgerOfOrder, orderPaymentStatus, refundCredit } from '../orders/order-ledger.js';
import { orderLedger } from './payments-ledger.js';
import {
  applyOperation,
  applyPaymentEvent,
  capturableOf,
  type PaymentFigures,
  refundableOf,
} from './payment-states.js';

const fresh = freshPayment;
const held = heldPayment;
const paid = (amount: number) => applyPaymentEvent(fresh(amount), { kind: 'succeeded', amountMinor: amount }).next;
const open = { total: 10000, status: 'approved' as const, amountReturned: 0 };

describe('the order ledger (worked examples of docs/payments.md)', () => {
  it('leaves nothing due after a goodwill refund: partially refunded, not partially paid', () => {
    const payment = applyOperation(paid(10000), { kind: 'refund', amount: 500 });
    const before = orderLedger({ order: open, credited: 0, payments: [paid(10000)] });
    const credit = refundCredit(before, 500);
    expect(credit).toBe(500);
    const after = orderLedger({ order: open, credited: credit, payments: [payment] });
    expect(after).toMatchObject({ captured: 10000, refunded: 500, credited: 500, balanceDue: 0, toPay: 0 });
    expect(orderPaymentStatus(after)).toBe('partially_refunded');
  });

  it('shows an overpayment as refund due, and refunding it credits nothing', () => {
    const twice = orderLedger({ order: open, credited: 0, payments: [paid(10000), paid(10000)] });
    expect(twice).toMatchObject({ balanceDue: -10000, refundDue: 10000, refundable: 20000 });
    expect(orderPaymentStatus(twice)).toBe('overpaid');
    expect(refundCredit(twice, 10000)).toBe(0);
    const back = orderLedger({
      order: open,
      credited: 0,
      payments: [paid(10000), applyOperation(paid(10000), { kind: 'refund', amount: 10000 })],
    });
    expect(back).toMatchObject({ balanceDue: 0, refundDue: 0 });
    expect(orderPaymentStatus(back)).toBe('partially_refunded');
  });

  it('holds an authorization: nothing to pay, capturable, authorized; a partial capture leaves the rest due', () => {
    const authorized = orderLedger({ order: open, credited: 0, payments: [held(10000)] });
    expect(authorized).toMatchObject({ balanceDue: 10000, capturable: 10000, toPay: 0 });
    expect(orderPaymentStatus(authorized)).toBe('authorized');
    const part = applyOperation(held(10000), { kind: 'capture', amount: 6000 });
    const after = orderLedger({ order: open, credited: 0, payments: [part] });
    expect(after).toMatchObject({ captured: 6000, capturable: 0, balanceDue: 4000, toPay: 4000 });
    expect(orderPaymentStatus(after)).toBe('partially_paid');
  });

  it('charges nothing once cancelled: all money kept is owed back, and refunding it leaves the order refunded', () => {
    const cancelled = { total: 10000, status: 'cancelled' as const, amountReturned: 0 };
    const kept = orderLedger({ order: cancelled, credited: 0, payments: [paid(10000)] });
    expect(kept).toMatchObject({ charge: 0, balanceDue: -10000, refundDue: 10000 });
    const refunded = applyOperation(paid(10000), { kind: 'refund', amount: 10000 });
    expect(orderPaymentStatus(orderLedger({ order: cancelled, credited: 0, payments: [refunded] }))).toBe('refunded');
  });

  it('is paid as placed when it costs nothing, and unpaid when nothing moved', () => {
    expect(
      orderPaymentStatus(
        orderLedger({ order: { total: 0, status: 'pending', amountReturned: 0 }, credited: 0, payments: [] }),
      ),
    ).toBe('paid');
    expect(orderPaymentStatus(orderLedger({ order: open, credited: 0, payments: [fresh(10000)] }))).toBe('unpaid');
  });
});

type Step =
  | { kind: 'pay'; share: number }
  | { kind: 'authorize'; share: number }
  | { kind: 'capture'; share: number }
  | { kind: 'refund'; share: number }
  | { kind: 'void' };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('pay' as const), share: fc.integer({ min: 1, max: 150 }) }),
  fc.record({ kind: fc.constant('authorize' as const), share: fc.integer({ min: 1, max: 150 }) }),
  fc.record({ kind: fc.constant('capture' as const), share: fc.integer({ min: 1, max: 100 }) }),
  fc.record({ kind: fc.constant('refund' as const), share: fc.integer({ min: 1, max: 100 }) }),
  fc.record({ kind: fc.constant('void' as const) }),
);

/**
 * Runs random sequences of payments, authorizations, captures, voids and refunds through the rules the service
 * follows (a capture or refund is at most what is capturable or refundable; a refund's credit decided when it is made).
 */
function simulate(total: number, cancelled: boolean, steps: readonly Step[]) {
  const payments: PaymentFigures[] = [];
  let credited = 0;
  const order = { total, status: cancelled ? ('cancelled' as const) : ('approved' as const), amountReturned: 0 };
  const ledger = () => orderLedger({ order, credited, payments });
  const share = (amount: number, pct: number) => Math.max(1, Math.floor((amount * pct) / 100));
  for (const step of steps) {
    const last = payments.length - 1;
    if (step.kind === 'pay') payments.push(paid(share(total, step.share)));
    if (step.kind === 'authorize') payments.push(held(share(total, step.share)));
    const p = payments[last];
    if (!p) continue;
    if (step.kind === 'capture' && capturableOf(p) > 0)
      payments[last] = applyOperation(p, { kind: 'capture', amount: share(capturableOf(p), step.share) });
    if (step.kind === 'void' && capturableOf(p) > 0) payments[last] = applyOperation(p, { kind: 'void', amount: 0 });
    if (step.kind === 'refund' && refundableOf(p) > 0) {
      const amount = share(refundableOf(p), step.share);
      credited += refundCredit(ledger(), amount);
      payments[last] = applyOperation(p, { kind: 'refund', amount });
    }
  }
  return { payments, ledger: ledger() };
}

describe('the order ledger, over random sequences of payments (property)', () => {
  const scenario = fc.record({
    total: fc.integer({ min: 1, max: 10_000_000 }),
    cancelled: fc.boolean(),
    steps: fc.array(stepArb, { maxLength: 12 }),
  });

  it('keeps refunded ≤ captured ≤ authorized on every payment, and voided within what was held', () => {
    fc.assert(
      fc.property(scenario, ({ total, cancelled, steps }) => {
        for (const p of simulate(total, cancelled, steps).payments) {
          expect(p.refunded).toBeLessThanOrEqual(p.captured);
          expect(p.captured).toBeLessThanOrEqual(p.authorized);
          expect(p.captured + p.voided).toBeLessThanOrEqual(p.authorized);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('owes money back only when some is refundable to cover it', () => {
    fc.assert(
      fc.property(scenario, ({ total, cancelled, steps }) => {
        const { ledger } = simulate(total, cancelled, steps);
        if (ledger.balanceDue < 0) expect(ledger.refundable).toBeGreaterThanOrEqual(ledger.refundDue);
        expect(ledger.refundDue).toBe(Math.max(0, -ledger.balanceDue));
        expect(ledger.toPay).toBeLessThanOrEqual(Math.max(0, ledger.balanceDue));
      }),
      { numRuns: 2000 },
    );
  });

  it('never lets a refund raise what the customer owes', () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: 1, max: 100 }), ({ total, cancelled, steps }, pct) => {
        const { payments, ledger } = simulate(total, cancelled, steps);
        const last = payments.at(-1);
        if (!last || refundableOf(last) === 0) return;
        const amount = Math.max(1, Math.floor((refundableOf(last) * pct) / 100));
        const after = orderLedger({
          order: { total, status: cancelled ? 'cancelled' : 'approved', amountReturned: 0 },
          credited: ledger.credited + refundCredit(ledger, amount),
          payments: [...payments.slice(0, -1), applyOperation(last, { kind: 'refund', amount })],
        });
        expect(Math.max(0, after.balanceDue)).toBeLessThanOrEqual(Math.max(0, ledger.balanceDue));
      }),
      { numRuns: 2000 },
    );
  });

  it('gives a status that is a function of the figures alone', () => {
    fc.assert(
      fc.property(scenario, ({ total, cancelled, steps }) => {
        const { ledger } = simulate(total, cancelled, steps);
        const status = orderPaymentStatus(ledger);
        // The totals an order row keeps give the same ledger, so the same status, as its payments do.
        const kept = ledgerOfOrder({
          total,
          status: cancelled ? 'cancelled' : 'approved',
          amountReturned: 0,
          amountCredited: ledger.credited,
          amountAuthorized: ledger.authorized,
          amountCaptured: ledger.captured,
          amountRefunded: ledger.refunded,
          amountCapturable: ledger.capturable,
        });
        expect(kept).toEqual(ledger);
        expect(orderPaymentStatus(kept)).toBe(status);
        expect(status === 'overpaid').toBe(ledger.balanceDue < 0);
        if (status === 'partially_paid') expect(ledger.balanceDue).toBeGreaterThan(0);
        if (status === 'unpaid') expect(ledger.captured).toBe(0);
      }),
      { numRuns: 2000 },
    );
  });
});
