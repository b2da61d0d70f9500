import type { orderStatuses } from '../db/schema.js';
import { stateMachine } from '../shared/state-machine.js';

export type OrderStatus = (typeof orderStatuses)[number];

/** SPEC 6: pending → approved → processing → shipped → delivered; cancelled from pending or approved. */
export const orderStates = stateMachine<OrderStatus>({
  pending: ['approved', 'cancelled'],
  approved: ['processing', 'cancelled'],
  processing: ['shipped'],
  shipped: ['delivered'],
  delivered: [],
  cancelled: [],
});
