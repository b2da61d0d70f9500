import { describe, expect, it } from 'vitest';
import { orderStatuses } from '../db/schema.js';
import { amountOwed } from '../payments/payment-states.js';
import { approvesOnPayment, orderStates } from './order-states.js';

describe('order states', () => {
  it('walks the happy path forward only', () => {
    const path = ['pending', 'approved', 'processing', 'shipped', 'delivered'] as const;
    for (let i = 0; i + 1 < path.length; i++) expect(orderStates.can(path[i]!, path[i + 1]!)).toBe(true);
    for (let i = 1; i < path.length; i++) expect(orderStates.can(path[i]!, path[i - 1]!)).toBe(false);
  });

  it('cancels from pending or approved only', () => {
    const cancellable = orderStatuses.filter((s) => orderStates.can(s, 'cancelled'));
    expect(cancellable).toEqual(['pending', 'approved']);
  });

  it('has final states delivered and cancelled', () => {
    expect(orderStates.transitions.delivered).toEqual([]);
    expect(orderStates.transitions.cancelled).toEqual([]);
  });

  it('never skips a step', () => {
    expect(orderStates.can('pending', 'shipped')).toBe(false);
    expect(orderStates.can('approved', 'delivered')).toBe(false);
  });
});

describe('approval on payment', () => {
  it('approves a pending order that becomes paid, and nothing else', () => {
    const pending = (paymentStatus: 'unpaid' | 'pending' | 'partially_paid' | 'paid' | 'overpaid') =>
      ({ status: 'pending', paymentStatus }) as const;
    expect(approvesOnPayment(pending('unpaid'), pending('paid'))).toBe(true);
    expect(approvesOnPayment(pending('partially_paid'), pending('paid'))).toBe(true);
    expect(approvesOnPayment(pending('unpaid'), pending('partially_paid'))).toBe(false);
    expect(approvesOnPayment(pending('unpaid'), pending('overpaid'))).toBe(false);
    expect(approvesOnPayment(pending('paid'), pending('paid'))).toBe(false);
    expect(approvesOnPayment(pending('unpaid'), { status: 'cancelled', paymentStatus: 'paid' })).toBe(false);
  });

  it('owes nothing once expired, the total otherwise', () => {
    expect(amountOwed({ total: 1250, cancelReason: null })).toBe(1250);
    expect(amountOwed({ total: 1250, cancelReason: 'expired' })).toBe(0);
  });
});
