import type { EventRow } from './events.repository.js';

/**
 * An event as the admin API lists it and as later consumers (webhooks) receive it: `{id, type, created_at,
 * sequence, data}`; `sequence` numbers an order's events 1, 2, 3… (null for an event about no order).
 */
export function presentEvent(event: EventRow) {
  return {
    id: event.id,
    type: event.type,
    created_at: event.createdAt.toISOString(),
    sequence: event.seq,
    data: event.data as Record<string, unknown>,
  };
}
