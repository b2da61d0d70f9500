import { DomainError } from './errors.js';

/**
 * A state machine as data: each state lists the states it may move to. Anything not listed is
 * refused with 409 invalid_transition.
 */
export interface StateMachine<S extends string> {
  readonly transitions: Readonly<Record<S, readonly S[]>>;
  can(from: S, to: S): boolean;
  /** Throws 409 invalid_transition unless `from` may move to `to`. */
  assert(from: S, to: S, what: string): void;
}

export function stateMachine<S extends string>(transitions: Record<S, readonly S[]>): StateMachine<S> {
  const can = (from: S, to: S) => transitions[from].includes(to);
  return {
    transitions,
    can,
    assert(from, to, what) {
      if (can(from, to)) return;
      const allowed = transitions[from];
      throw new DomainError('invalid_transition', {
        detail:
          `${what} cannot go from ${from} to ${to}; `
          + `from ${from} it can go to ${allowed.length ? allowed.join(', ') : 'nothing (final state)'}`,
        extra: { from, to, allowed: [...allowed] },
      });
    },
  };
}
