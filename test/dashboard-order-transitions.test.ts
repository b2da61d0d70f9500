import { describe, expect, it } from 'vitest';
import { orderStates } from '../src/orders/order-states.js';
import { NEXT_STATUSES } from '../web/admin/orders/order-transitions.js';

describe("the dashboard's order status changes", () => {
  it("offers exactly the moves the service's state machine allows", () => {
    expect(NEXT_STATUSES).toEqual(orderStates.transitions);
  });
});
