import { describe, expect, it } from 'vitest';
import { orderStatuses } from '../db/schema.js';
import { orderStates } from './order-states.js';

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
