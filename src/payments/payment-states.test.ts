import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { freshPayment, heldPayment } from '../../test/payment-figures.js';
import {
  applyOperation,
  applyPaymentEvent,
  capturableOf,
  type PaymentEventInput,
  type PaymentFigures,
  paymentEventTypes,
  paymentOutcome,
  paymentTransitions,
  refundableOf,
} from './payment-states.js';

const fresh = freshPayment;
const held = heldPayment;
const replay = (amount: number, events: PaymentEventInput[], manual = false) =>
  events.reduce((p, e) => applyPaymentEvent(p, e).next, {
    ...fresh(amount),
    captureMethod: manual ? 'manual' : 'automatic',
  } as PaymentFigures);

describe('payment state machine', () => {
  it('moves an attempt without money only from pending, and never back to pending', () => {
    for (const [from, tos] of Object.entries(paymentTransitions)) {
      expect(tos).not.toContain('pending');
      if (from !== 'pending' && from !== 'expired' && from !== 'superseded') expect(tos).toEqual([]);
    }
  });

  it('takes a payment from pending to succeeded to partially refunded to refunded', () => {
    let p = fresh(1000);
    p = applyPaymentEvent(p, { kind: 'succeeded', amountMinor: 1000 }).next;
    expect(p).toMatchObject({ state: 'succeeded', authorized: 1000, captured: 1000 });
    p = applyPaymentEvent(p, { kind: 'refunded', amountMinor: 300 }).next;
    expect(p).toMatchObject({ state: 'partially_refunded', refunded: 300 });
    p = applyPaymentEvent(p, { kind: 'refunded', amountMinor: 1000 }).next;
    expect(p).toMatchObject({ state: 'refunded', refunded: 1000 });
  });

  it('holds money on authorization, takes part of it on capture, and releases the rest on void', () => {
    let p = held(1000);
    expect(p).toMatchObject({ state: 'authorized', authorized: 1000, captured: 0 });
    expect(capturableOf(p)).toBe(1000);
    p = applyPaymentEvent(p, { kind: 'captured', amountMinor: 600 }).next;
    expect(p).toMatchObject({ state: 'succeeded', captured: 600 });
    expect(capturableOf(p)).toBe(400);
    p = applyPaymentEvent(p, { kind: 'voided' }).next;
    expect(p).toMatchObject({ state: 'succeeded', captured: 600, voided: 400 });
    expect(capturableOf(p)).toBe(0);
  });

  it('releases the rest of an authorization with a final capture of part of it', () => {
    const p = applyOperation(held(1000), { kind: 'capture', amount: 250 });
    expect(p).toMatchObject({ state: 'succeeded', authorized: 1000, captured: 250, voided: 750 });
    expect(refundableOf(p)).toBe(250);
  });

  it('voids an untouched authorization whole', () => {
    expect(applyOperation(held(1000), { kind: 'void', amount: 1000 })).toMatchObject({ state: 'voided', voided: 1000 });
  });

  it('records a late success of a superseded attempt (the money is never lost)', () => {
    const superseded = { ...fresh(1000), state: 'superseded' as const };
    expect(applyPaymentEvent(superseded, { kind: 'succeeded', amountMinor: 1000 })).toMatchObject({
      next: { state: 'succeeded', captured: 1000 },
      capture: 1000,
    });
  });

  it('ignores a late pending or failure after success, and reports no change', () => {
    const paid = replay(500, [{ kind: 'succeeded', amountMinor: 500 }]);
    for (const kind of ['pending', 'failed', 'expired'] as const) {
      expect(applyPaymentEvent(paid, { kind })).toEqual({ next: paid, changed: false, capture: 0, refund: 0 });
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

  it('records no money a pending operation of the store is already moving', () => {
    const paid = replay(800, [{ kind: 'succeeded', amountMinor: 800 }]);
    // The store asked for a refund of 300 and has no answer yet; the gateway's webhook for it arrives first.
    const effect = applyPaymentEvent(paid, { kind: 'refunded', amountMinor: 300 }, { capture: 0, refund: 300 });
    expect(effect).toMatchObject({ refund: 0, next: { refunded: 0 } });
    // A refund made at the gateway on top of it is recorded, once.
    expect(applyPaymentEvent(paid, { kind: 'refunded', amountMinor: 500 }, { capture: 0, refund: 300 }).refund).toBe(
      200,
    );
  });

  it("ends in the same state whatever the order and duplication of one payment's events (1,000 runs)", () => {
    const scenario = fc.record({
      amount: fc.integer({ min: 1, max: 1_000_000 }),
      manual: fc.boolean(),
      captureShare: fc.integer({ min: 1, max: 100 }),
      refundShares: fc.array(fc.integer({ min: 1, max: 100 }), { maxLength: 3 }),
      extra: fc.subarray(['pending', 'failed', 'expired', 'voided'] as const),
      succeeded: fc.boolean(),
    });
    fc.assert(
      fc.property(scenario, fc.infiniteStream(fc.nat()), (s, picks) => {
        const captured = s.manual ? Math.max(1, Math.floor((s.amount * s.captureShare) / 100)) : s.amount;
        const refunds = [
          ...new Set(s.refundShares.map((share) => Math.max(1, Math.floor((captured * share) / 100)))),
        ].sort((a, b) => a - b);
        const events: PaymentEventInput[] = [
          { kind: 'pending' },
          ...s.extra.map((kind) => ({ kind })),
          ...(s.manual ? [{ kind: 'authorized' as const, amountMinor: s.amount }] : []),
          ...(s.succeeded ? [{ kind: s.manual ? 'captured' : 'succeeded', amountMinor: captured } as const] : []),
          ...refunds.map((amountMinor) => ({ kind: 'refunded' as const, amountMinor })),
        ];
        const inOrder = replay(s.amount, events, s.manual);
        // Shuffle and duplicate: each event delivered one to three times, in any order.
        const it = picks[Symbol.iterator]();
        const next = () => it.next().value as number;
        const deliveries = events.flatMap((e) => Array.from({ length: 1 + (next() % 3) }, () => e));
        for (let i = deliveries.length - 1; i > 0; i--) {
          const j = next() % (i + 1);
          [deliveries[i], deliveries[j]] = [deliveries[j]!, deliveries[i]!];
        }
        const shuffled = replay(s.amount, deliveries, s.manual);
        // A void is a release of what is held when it arrives: with a capture after it, what it released differs.
        if (!s.extra.includes('voided')) expect(shuffled).toEqual(inOrder);
        expect(shuffled.captured).toBe(inOrder.captured);
        expect(shuffled.refunded).toBe(inOrder.refunded);
        expect(shuffled.refunded).toBeLessThanOrEqual(shuffled.captured);
        expect(shuffled.captured).toBeLessThanOrEqual(Math.max(shuffled.authorized, s.amount));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('the outcome a returning payer is told', () => {
  it.each([
    ['succeeded', 'return', 'succeeded'],
    ['authorized', 'return', 'succeeded'],
    ['refunded', 'return', 'succeeded'],
    ['failed', 'cancel', 'failed'],
    ['expired', 'return', 'cancelled'],
    ['superseded', 'return', 'cancelled'],
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
  });

  it('records payment.authorized when money is first held, then succeeded and captured when it is taken', () => {
    expect(step(fresh(1000), { kind: 'authorized', amountMinor: 1000 })).toEqual(['payment.authorized']);
    expect(step(held(1000), { kind: 'authorized', amountMinor: 1000 })).toEqual([]);
    expect(step(held(1000), { kind: 'captured', amountMinor: 400 })).toEqual(['payment.succeeded', 'payment.captured']);
    const part = applyPaymentEvent(held(1000), { kind: 'captured', amountMinor: 400 }).next;
    expect(step(part, { kind: 'captured', amountMinor: 1000 })).toEqual(['payment.captured']);
  });

  it('records payment.voided when an authorization is released with nothing taken', () => {
    expect(paymentEventTypes(held(1000), applyOperation(held(1000), { kind: 'void', amount: 1000 }))).toEqual([
      'payment.voided',
    ]);
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
});
