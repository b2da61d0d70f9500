import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paymentStatesList } from '../db/schema.js';
import {
  applyPaymentEvent,
  orderBecamePaid,
  orderPaymentStatus,
  type PaymentEventInput,
  type PaymentFigures,
  paymentEventTypes,
  paymentOutcome,
  paymentTransitions,
} from './payment-states.js';

const fresh = (amount: number): PaymentFigures => ({ state: 'pending', amount, captured: 0, refunded: 0 });
const replay = (amount: number, events: PaymentEventInput[]) =>
  events.reduce((p, e) => applyPaymentEvent(p, e).next, fresh(amount));
const rank = (s: string) => paymentStatesList.indexOf(s as never);

describe('payment state machine', () => {
  it('only ever moves up the order of states', () => {
    for (const [from, tos] of Object.entries(paymentTransitions)) {
      for (const to of tos) expect(rank(to)).toBeGreaterThan(rank(from));
    }
  });

  it('takes a payment from pending to succeeded to partially refunded to refunded', () => {
    let p = fresh(1000);
    p = applyPaymentEvent(p, { kind: 'succeeded', amountMinor: 1000 }).next;
    expect(p).toMatchObject({ state: 'succeeded', captured: 1000 });
    p = applyPaymentEvent(p, { kind: 'refunded', amountMinor: 300 }).next;
    expect(p).toMatchObject({ state: 'partially_refunded', refunded: 300 });
    p = applyPaymentEvent(p, { kind: 'refunded', amountMinor: 1000 }).next;
    expect(p).toMatchObject({ state: 'refunded', refunded: 1000 });
  });

  it('ignores a late pending or failure after success, and reports no change', () => {
    const paid = replay(500, [{ kind: 'succeeded', amountMinor: 500 }]);
    for (const kind of ['pending', 'failed', 'expired'] as const) {
      expect(applyPaymentEvent(paid, { kind })).toEqual({ next: paid, changed: false });
    }
  });

  it('never counts a refund twice: refund amounts are running totals', () => {
    const p = replay(800, [
      { kind: 'succeeded', amountMinor: 800 },
      { kind: 'refunded', amountMinor: 200 },
      { kind: 'refunded', amountMinor: 200 },
    ]);
    expect(p).toMatchObject({ state: 'partially_refunded', refunded: 200 });
  });

  it("ends in the same state whatever the order and duplication of one payment's events (1,000 runs)", () => {
    const scenario = fc.record({
      amount: fc.integer({ min: 1, max: 1_000_000 }),
      refundShares: fc.array(fc.integer({ min: 1, max: 100 }), { maxLength: 3 }),
      extra: fc.subarray(['pending', 'failed', 'expired'] as const),
      succeeded: fc.boolean(),
    });
    fc.assert(
      fc.property(scenario, fc.infiniteStream(fc.nat()), (s, picks) => {
        const refunds = [
          ...new Set(s.refundShares.map((share) => Math.max(1, Math.floor((s.amount * share) / 100)))),
        ].sort((a, b) => a - b);
        const events: PaymentEventInput[] = [
          { kind: 'pending' },
          ...s.extra.map((kind) => ({ kind })),
          ...(s.succeeded ? [{ kind: 'succeeded' as const, amountMinor: s.amount }] : []),
          ...refunds.map((amountMinor) => ({ kind: 'refunded' as const, amountMinor })),
        ];
        const inOrder = replay(s.amount, events);
        // Shuffle and duplicate: each event delivered one to three times, in any order.
        const it = picks[Symbol.iterator]();
        const next = () => it.next().value as number;
        const deliveries = events.flatMap((e) => Array.from({ length: 1 + (next() % 3) }, () => e));
        for (let i = deliveries.length - 1; i > 0; i--) {
          const j = next() % (i + 1);
          [deliveries[i], deliveries[j]] = [deliveries[j]!, deliveries[i]!];
        }
        expect(replay(s.amount, deliveries)).toEqual(inOrder);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('order payment status', () => {
  const paid = (amount: number, refunded = 0): PaymentFigures => ({
    state: refunded ? (refunded >= amount ? 'refunded' : 'partially_refunded') : 'succeeded',
    amount,
    captured: amount,
    refunded,
  });
  it.each([
    [[], 'unpaid'],
    [[fresh(100)], 'pending'],
    [[{ ...fresh(100), state: 'failed' as const }], 'failed'],
    [[paid(100)], 'paid'],
    [[paid(60)], 'partially_paid'],
    [[paid(60), paid(60)], 'overpaid'],
    [[paid(100, 100)], 'refunded'],
    [[paid(100, 40)], 'partially_paid'],
    [[{ ...fresh(100), state: 'failed' as const }, paid(100)], 'paid'],
  ])('%j of an order of 100 is %s', (attempts, status) => {
    expect(orderPaymentStatus(100, attempts as PaymentFigures[])).toBe(status);
  });
});

describe('the outcome a returning payer is told', () => {
  it.each([
    ['succeeded', 'return', 'succeeded'],
    ['refunded', 'return', 'succeeded'],
    ['failed', 'cancel', 'failed'],
    ['expired', 'return', 'cancelled'],
    ['pending', 'return', 'pending'],
    ['pending', 'cancel', 'cancelled'],
    ['succeeded', 'cancel', 'succeeded'],
  ] as const)('%s, back through the %s link: %s', (state, end, outcome) => {
    expect(paymentOutcome(state, end)).toBe(outcome);
  });
});

describe('events of a payment change', () => {
  const step = (p: PaymentFigures, e: PaymentEventInput) => paymentEventTypes(p, applyPaymentEvent(p, e).next);

  it('records payment.succeeded when money is first received, and not for a repeat or a larger capture', () => {
    const paid = replay(1000, [{ kind: 'succeeded', amountMinor: 1000 }]);
    expect(step(fresh(1000), { kind: 'succeeded', amountMinor: 1000 })).toEqual(['payment.succeeded']);
    expect(step(paid, { kind: 'succeeded', amountMinor: 1000 })).toEqual([]);
    expect(step(paid, { kind: 'succeeded', amountMinor: 1200 })).toEqual([]);
  });

  it('records payment.failed once, and nothing for pending or expired', () => {
    const failed = replay(1000, [{ kind: 'failed' }]);
    expect(step(fresh(1000), { kind: 'failed' })).toEqual(['payment.failed']);
    expect(step(failed, { kind: 'failed' })).toEqual([]);
    expect(step(fresh(1000), { kind: 'pending' })).toEqual([]);
    expect(step(fresh(1000), { kind: 'expired' })).toEqual([]);
  });

  it('records payment.refunded each time the refunded total grows', () => {
    const paid = replay(1000, [{ kind: 'succeeded', amountMinor: 1000 }]);
    const part = applyPaymentEvent(paid, { kind: 'refunded', amountMinor: 300 }).next;
    expect(step(paid, { kind: 'refunded', amountMinor: 300 })).toEqual(['payment.refunded']);
    expect(step(part, { kind: 'refunded', amountMinor: 300 })).toEqual([]);
    expect(step(part, { kind: 'refunded', amountMinor: 1000 })).toEqual(['payment.refunded']);
  });

  it('records succeeded then refunded when the refund is the first news of the capture', () => {
    expect(step(fresh(1000), { kind: 'refunded', amountMinor: 1000 })).toEqual([
      'payment.succeeded',
      'payment.refunded',
    ]);
  });

  it('says an order became paid when its status reaches paid or overpaid from one that was not', () => {
    expect(orderBecamePaid('pending', 'paid')).toBe(true);
    expect(orderBecamePaid('partially_paid', 'overpaid')).toBe(true);
    expect(orderBecamePaid('unpaid', 'paid')).toBe(true);
    expect(orderBecamePaid('paid', 'overpaid')).toBe(false);
    expect(orderBecamePaid('paid', 'paid')).toBe(false);
    expect(orderBecamePaid('pending', 'partially_paid')).toBe(false);
    expect(orderBecamePaid('paid', 'refunded')).toBe(false);
  });
});
