// Where an order may go from each status, as the dashboard offers it. The rule's home is the service
// (src/orders/order-states.ts), which refuses any other move with 409 invalid_transition; this is its mirror, without
// imports so that test/dashboard-order-transitions.test.ts can check that the two agree.

/** From each status, the statuses an admin may move an order to (cancelled included). */
export const NEXT_STATUSES = {
  pending: ['approved', 'cancelled'],
  approved: ['processing', 'cancelled'],
  processing: ['shipped'],
  shipped: ['delivered'],
  delivered: [],
  cancelled: [],
} as const;
