import { stateMachine } from '../shared/state-machine.js';
import type { FulfillmentState } from './fulfillment.decide.js';

/**
 * A fulfillment's states (decision 0027): pending (being packed) → shipped → delivered; cancelled from pending only,
 * which gives its units back to what can be fulfilled. A shipped parcel is not cancelled: what went out is the
 * customer's (a lost or refused parcel is a return), so an order's status only ever moves forward with its shipments.
 */
export const fulfillmentStateMachine = stateMachine<FulfillmentState>({
  pending: ['shipped', 'cancelled'],
  shipped: ['delivered'],
  delivered: [],
  cancelled: [],
});

/** The event each change of a fulfillment records (SPEC 11's outbox; docs/events.md). */
export const fulfillmentEventTypes = {
  created: 'fulfillment.created',
  shipped: 'fulfillment.shipped',
  delivered: 'fulfillment.delivered',
  cancelled: 'fulfillment.cancelled',
} as const;
