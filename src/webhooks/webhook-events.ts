import { eventTypes } from '../db/schema.js';

/** The event types an endpoint may subscribe to: every type the outbox records (SPEC section 11). */
export const webhookEventTypes = eventTypes;

export type WebhookEventType = (typeof webhookEventTypes)[number];

/**
 * An event as the outbox records it and as receivers get it: the body of every delivery is this, as JSON. (What a
 * payment gateway sends in is a `GatewayEvent`, src/payments/payment-plugin.ts.)
 */
export interface OutboundEvent {
  id: string;
  type: WebhookEventType;
  /** ISO 8601, UTC. */
  created_at: string;
  /** The order (or payment) as the admin API shows it. */
  data: unknown;
}
