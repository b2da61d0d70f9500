/**
 * The event types an endpoint may subscribe to (SPEC section 11). When the outbox (src/events/) lands, this list
 * becomes its list, imported from there: one home for the names.
 */
export const webhookEventTypes = [
  'order.placed',
  'order.paid',
  'order.status_changed',
  'order.cancelled',
  'order.expired',
  'payment.succeeded',
  'payment.failed',
  'payment.refunded',
] as const;

export type WebhookEventType = (typeof webhookEventTypes)[number];

/** An event as the outbox records it and as receivers get it: the body of every delivery is this, as JSON. */
export interface WebhookEvent {
  id: string;
  type: WebhookEventType;
  /** ISO 8601, UTC. */
  created_at: string;
  /** The order (or payment) as the admin API shows it. */
  data: unknown;
}
