import { describe, expect, it } from 'vitest';
import { orderStatuses } from '../db/schema.js';
import { orderCharge } from './order-ledger.js';
import { nothingShipped } from './fulfillment.decide.js';
import { approvesOnPayment, orderStates } from './order-states.js';

describe('order states', () => {
  it('walks the happy path forward only', () => {
    const path = ['pending', 'approved', 'processing', 'shipped', 'delivered'] as const;
    for (let i = 0; i + 1 < path.length; i++) expect(orderStates.can(path[i]!, path[i + 1]!)).toBe(true);
    for (let i = 1; i < path.length; i++) expect(orderStates.can(path[i]!, path[i - 1]!)).toBe(false);
  });

  it('cancels from pending, approved or processing (this one while nothing has shipped), never after', () => {
    const cancellable = orderStatuses.filter((s) => orderStates.can(s, 'cancelled'));
    expect(cancellable).toEqual(['pending', 'approved', 'processing']);
    expect(['unfulfilled', 'partially_fulfilled', 'fulfilled'].every((f) => nothingShipped(f as never))).toBe(true);
    expect(['partially_shipped', 'shipped', 'delivered'].some((f) => nothingShipped(f as never))).toBe(false);
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
  type Status = 'unpaid' | 'authorized' | 'partially_paid' | 'paid' | 'overpaid';
  const pending = (paymentStatus: Status, toPay = 0) => ({ status: 'pending', paymentStatus, toPay }) as const;

  it('approves a pending order that becomes paid, and nothing else', () => {
    expect(approvesOnPayment(pending('unpaid'), pending('paid'))).toBe(true);
    expect(approvesOnPayment(pending('partially_paid'), pending('paid'))).toBe(true);
    expect(approvesOnPayment(pending('unpaid'), pending('partially_paid', 500))).toBe(false);
    expect(approvesOnPayment(pending('unpaid'), pending('overpaid'))).toBe(false);
    expect(approvesOnPayment(pending('paid'), pending('paid'))).toBe(false);
    expect(approvesOnPayment(pending('unpaid'), { status: 'cancelled', paymentStatus: 'paid', toPay: 0 })).toBe(false);
  });

  it('approves an order whose whole amount is authorized (manual capture), and not once it is then captured', () => {
    expect(approvesOnPayment(pending('unpaid'), pending('authorized'))).toBe(true);
    expect(approvesOnPayment(pending('unpaid'), pending('authorized', 2000))).toBe(false);
    expect(approvesOnPayment(pending('authorized'), pending('paid'))).toBe(false);
  });

  it('charges nothing once cancelled (expired too), the total less what returns gave back otherwise', () => {
    expect(orderCharge({ total: 1250, status: 'approved', amountReturned: 0 })).toBe(1250);
    expect(orderCharge({ total: 1250, status: 'delivered', amountReturned: 400 })).toBe(850);
    expect(orderCharge({ total: 1250, status: 'cancelled', amountReturned: 0 })).toBe(0);
  });
});
