import { describe, expect, it } from 'vitest';
import { DomainError } from './errors.js';
import { stateMachine } from './state-machine.js';

const traffic = stateMachine({ red: ['green'], green: ['amber'], amber: ['red'] } as const);

describe('stateMachine', () => {
  it('allows the listed transitions only', () => {
    expect(traffic.can('red', 'green')).toBe(true);
    expect(traffic.can('red', 'amber')).toBe(false);
    expect(traffic.can('red', 'red')).toBe(false);
  });

  it('refuses an unlisted transition with invalid_transition naming what is allowed', () => {
    try {
      traffic.assert('green', 'red', 'the light');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(DomainError);
      expect((err as DomainError).code).toBe('invalid_transition');
      expect((err as DomainError).extra).toEqual({ from: 'green', to: 'red', allowed: ['amber'] });
    }
  });
});
