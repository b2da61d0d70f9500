import type { FastifyBaseLogger } from 'fastify';
import type { TokenService } from '../auth/tokens.js';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import type { EventRef } from '../events/outbox.js';
import { orderPageLink } from '../checkout/order-page-link.js';
import { findOrderByAlias, linesOf } from '../orders/orders.repository.js';
import { fulfillmentsOf } from '../orders/fulfillments.repository.js';
import { lineDisplayName } from '../orders/order-line.js';
import { type Mailer, messageIdFor } from './mailer.js';
import {
  carriesOrderLink,
  type OrderEmailKind,
  type ReturnedItems,
  renderOrderEmail,
} from './order-email.templates.js';
import { findEvent } from '../events/events.repository.js';
import { refundStatesOfReturn } from '../returns/returns.repository.js';

/**
 * One email to the customer about one order event: the order is read as it is now, rendered and
 * handed to SMTP. Run from a job: a thrown EmailDeliveryError says whether to try again
 * (`permanent`); anything else thrown (the database) is worth another try too.
 */

export interface OrderEmailDeps {
  db: Db;
  tokens: TokenService;
  mailer: Mailer;
  log: FastifyBaseLogger;
  config: Pick<Config, 'storeName' | 'publicBaseUrl' | 'orderEmailLinkDays' | 'returnInstructions'>;
}

export interface OrderEmailJob {
  kind: OrderEmailKind;
  orderAlias: string;
  /** The event the email tells of: the same event gives the same Message-ID. */
  eventId: string;
}

export type OrderEmailResult =
  | { status: 'sent'; messageId: string }
  /** Not yet: what the email tells has not happened yet (a return's refund its gateway has not answered). */
  | { status: 'waiting'; reason: 'refund_pending' }
  | { status: 'not_sent'; reason: 'smtp_not_configured' | 'no_recipient' | 'order_not_found' | 'refund_failed' };

const DAY_SECONDS = 86_400;

/** What the logs may say about a recipient: the domain only. */
const domainOf = (email: string): string => email.slice(email.lastIndexOf('@') + 1);

/** What the log says of an email that was not sent, for each reason (the same whichever path found it). */
const NOT_SENT = {
  order_not_found: 'email not sent (no such order)',
  no_recipient: 'email not sent (the order has no email address)',
  smtp_not_configured: 'email not sent (SMTP_URL not set)',
  refund_failed: 'email not sent (the return refund was refused by the gateway; refund due on the order)',
} as const;

export async function sendOrderEmail(deps: OrderEmailDeps, job: OrderEmailJob): Promise<OrderEmailResult> {
  const about = { kind: job.kind, order_alias: job.orderAlias, event_id: job.eventId };
  const order = await findOrderByAlias(deps.db, job.orderAlias);
  if (!order) {
    deps.log.warn(about, NOT_SENT.order_not_found);
    return { status: 'not_sent', reason: 'order_not_found' };
  }
  if (!order.email) {
    deps.log.info(about, NOT_SENT.no_recipient);
    return { status: 'not_sent', reason: 'no_recipient' };
  }
  const [lines, fulfillments] = await Promise.all([
    linesOf(deps.db, order.id),
    job.kind === 'order_shipped' ? fulfillmentsOf(deps.db, order.id) : [],
  ]);
  // What went out, each shipment with its tracking link (decision 0027); none for an order shipped by hand.
  const shipments = fulfillments
    .filter((f) => f.status === 'shipped' || f.status === 'delivered')
    .map((f) => ({
      carrier: f.carrier,
      trackingNumber: f.trackingNumber,
      trackingUrl: f.trackingUrl,
      lines: f.lines.map((l) => ({ name: lineDisplayName(l), quantity: l.quantity })),
    }));
  const days = deps.config.orderEmailLinkDays;
  const link = carriesOrderLink(job.kind)
    ? {
        days,
        url: await orderPageLink(
          { tokens: deps.tokens, publicBaseUrl: deps.config.publicBaseUrl },
          { alias: order.alias, ttlSeconds: days * DAY_SECONDS },
        ),
      }
    : undefined;
  const returned = job.kind.startsWith('return_') ? await returnOfEvent(deps.db, job.eventId) : undefined;
  const refund = job.kind === 'return_refunded' && returned ? await refundOutcome(deps.db, returned.id) : 'made';
  if (refund === 'pending') return { status: 'waiting', reason: 'refund_pending' };
  if (refund === 'failed') {
    deps.log.warn(about, NOT_SENT.refund_failed);
    return { status: 'not_sent', reason: 'refund_failed' };
  }
  const email = renderOrderEmail({
    kind: job.kind,
    storeName: deps.config.storeName,
    order,
    lines,
    link,
    shipments,
    returned,
    returnInstructions: deps.config.returnInstructions,
    publicBaseUrl: deps.config.publicBaseUrl,
  });
  const messageId = messageIdFor({
    key: `${job.eventId}\u0000${job.kind}`,
    label: job.kind,
    fromAddress: deps.mailer.from.address,
  });
  const logged = { ...about, recipient_domain: domainOf(order.email) };
  const outcome = await deps.mailer.send({ to: order.email, messageId, ...email });
  if (!outcome.sent) {
    // Never the address or the content: the domain says where it would have gone.
    deps.log.info(logged, NOT_SENT.smtp_not_configured);
    return { status: 'not_sent', reason: outcome.reason };
  }
  deps.log.info({ ...logged, message_id: outcome.messageId }, 'email sent');
  return { status: 'sent', messageId: outcome.messageId };
}

/**
 * The return a return event tells of, as the event showed it (`data.return`, the API's `Return`): the email says what
 * was asked, received, refunded or rejected then, whatever happened to the return since.
 */
async function returnOfEvent(db: Db, eventId: string): Promise<ReturnedItems | undefined> {
  // Events' ids are UUIDs; anything else names none (and the database would refuse to compare it).
  if (!UUID.test(eventId)) return undefined;
  const event = await findEvent(db, eventId);
  const ret = (event?.data as { return?: PresentedReturn } | undefined)?.return;
  if (!ret) return undefined;
  return {
    id: ret.id,
    lines: ret.lines.map((l) => ({ name: l.name, quantity: l.quantity })),
    amount: ret.refund?.amount ?? null,
    rejectReason: ret.reject_reason,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether a refunded return's money went back: the "we have refunded" email says so only then. A refund a gateway has
 * not answered yet makes the email wait (its job runs again); one it refused sends no email (the order shows the money
 * as refund due, and an admin refunds it by hand).
 */
async function refundOutcome(db: Db, returnId: number): Promise<'made' | 'pending' | 'failed'> {
  const states = await refundStatesOfReturn(db, returnId);
  if (states.includes('pending')) return 'pending';
  return states.includes('failed') ? 'failed' : 'made';
}

/** What a return email reads of the return in its event's data. */
interface PresentedReturn {
  id: number;
  lines: { name: string; quantity: number }[];
  refund: { amount: string } | null;
  reject_reason: string | null;
}

/**
 * Without SMTP_URL no email job is queued: the email an event calls for is logged as not sent, with the fields
 * `sendOrderEmail` logs, by the process that recorded the event once it has committed (`Outbox.onCommitted`).
 * `event.data` is the order as the admin API shows it, so its email is the address the email would have gone to.
 */
export function logEmailNotSent(
  log: { info(fields: Record<string, unknown>, message: string): void },
  event: EventRef,
): OrderEmailResult | undefined {
  const kind = event.orderAlias === null ? null : emailKindForEvent(event.type, event.data);
  if (kind === null) return undefined;
  const about = { kind, order_alias: event.orderAlias, event_id: event.id };
  const email = (event.data as { email?: unknown }).email;
  if (typeof email !== 'string' || email === '') {
    log.info(about, NOT_SENT.no_recipient);
    return { status: 'not_sent', reason: 'no_recipient' };
  }
  log.info({ ...about, recipient_domain: domainOf(email) }, NOT_SENT.smtp_not_configured);
  return { status: 'not_sent', reason: 'smtp_not_configured' };
}

/** The email an event calls for, if any: `data` is the order as the admin API shows it. */
export function emailKindForEvent(type: string, data: unknown): OrderEmailKind | null {
  switch (type) {
    case 'order.placed':
      return 'order_confirmation';
    case 'order.paid':
      return 'payment_received';
    case 'order.status_changed': {
      // Other status changes are told by their own events (order.cancelled) or not at all. An order shipped through
      // its fulfillments had each shipment told by its fulfillment.shipped: only a move by hand is told here.
      const order = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
      const byHand = order.fulfillment_status === undefined || order.fulfillment_status === 'unfulfilled';
      return order.status === 'shipped' && byHand ? 'order_shipped' : null;
    }
    case 'fulfillment.shipped':
      return 'order_shipped';
    case 'order.cancelled':
      return 'order_cancelled';
    case 'order.expired':
      return 'order_expired';
    case 'order.edited':
      return 'order_changed';
    case 'return.requested':
      return 'return_requested';
    case 'return.received':
      return 'return_received';
    case 'return.refunded':
      return 'return_refunded';
    case 'return.rejected':
      return 'return_rejected';
    default:
      return null;
  }
}
