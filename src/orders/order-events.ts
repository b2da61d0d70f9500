import type { EventType, NewEvent } from '../events/outbox.js';
import { presentOrder } from './order.presenter.js';
import type { OrderLineRow, OrderRow } from './orders.repository.js';

/** Order events of these types, each carrying the order as the admin API shows it now. */
export function orderEvents(types: readonly EventType[], order: OrderRow, lines: OrderLineRow[]): NewEvent[] {
  const data = presentOrder(order, lines);
  return types.map((type) => ({ type, order: { id: order.id, alias: order.alias }, data }));
}
