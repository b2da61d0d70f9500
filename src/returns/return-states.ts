import { stateMachine } from '../shared/state-machine.js';
import type { ReturnState } from './return.decide.js';

/**
 * A return's states (decision 0029): requested → received (the goods are back) → refunded; rejected from requested
 * (nothing came, or it may not be returned) or from received (what came back is not refunded: worn, not the item
 * sold); cancelled from requested only (by the customer who asked, or an admin). Refunded, rejected and cancelled are
 * final: a return is received once, so its stock goes back once.
 */
export const returnStateMachine = stateMachine<ReturnState>({
  requested: ['received', 'rejected', 'cancelled'],
  received: ['refunded', 'rejected'],
  refunded: [],
  rejected: [],
  cancelled: [],
});

/** The event each change of a return records (SPEC 11's outbox; docs/events.md). */
export const returnEventTypes = {
  requested: 'return.requested',
  received: 'return.received',
  refunded: 'return.refunded',
  rejected: 'return.rejected',
  cancelled: 'return.cancelled',
} as const satisfies Record<ReturnState, string>;
