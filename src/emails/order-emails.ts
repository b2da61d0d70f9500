import type { FastifyBaseLogger } from 'fastify';
import type { TokenService } from '../auth/tokens.js';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { orderPageLink } from '../orders/order-page-link.js';
import { findOrderByAlias, linesOf } from '../orders/orders.repository.js';
import { type Mailer, messageIdFor } from './mailer.js';
import { carriesOrderLink, type OrderEmailKind, renderOrderEmail } from './order-email.templates.js';

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
  config: Pick<Config, 'storeName' | 'publicBaseUrl' | 'orderEmailLinkDays'>;
}

export interface OrderEmailJob {
  kind: OrderEmailKind;
  orderAlias: string;
  /** The event the email tells of: the same event gives the same Message-ID. */
  eventId: string;
}

export type OrderEmailResult =
  | { status: 'sent'; messageId: string }
  | { status: 'not_sent'; reason: 'smtp_not_configured' | 'no_recipient' | 'order_not_found' };

const DAY_SECONDS = 86_400;

/** What the logs may say about a recipient: the domain only. */
const domainOf = (email: string): string => email.slice(email.lastIndexOf('@') + 1);

export async function sendOrderEmail(deps: OrderEmailDeps, job: OrderEmailJob): Promise<OrderEmailResult> {
  const about = { kind: job.kind, order_alias: job.orderAlias, event_id: job.eventId };
  const order = await findOrderByAlias(deps.db, job.orderAlias);
  if (!order) {
    deps.log.warn(about, 'email not sent (no such order)');
    return { status: 'not_sent', reason: 'order_not_found' };
  }
  if (!order.email) {
    deps.log.info(about, 'email not sent (the order has no email address)');
    return { status: 'not_sent', reason: 'no_recipient' };
  }
  const lines = await linesOf(deps.db, order.id);
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
  const email = renderOrderEmail({ kind: job.kind, storeName: deps.config.storeName, order, lines, link });
  const messageId = messageIdFor({
    key: `${job.eventId}\u0000${job.kind}`,
    label: job.kind,
    fromAddress: deps.mailer.from.address,
  });
  const logged = { ...about, recipient_domain: domainOf(order.email) };
  const outcome = await deps.mailer.send({ to: order.email, messageId, ...email });
  if (!outcome.sent) {
    // Never the address or the content: the domain says where it would have gone.
    deps.log.info(logged, 'email not sent (SMTP_URL not set)');
    return { status: 'not_sent', reason: outcome.reason };
  }
  deps.log.info({ ...logged, message_id: outcome.messageId }, 'email sent');
  return { status: 'sent', messageId: outcome.messageId };
}

/** The email an event calls for, if any: `data` is the order as the admin API shows it. */
export function emailKindForEvent(type: string, data: unknown): OrderEmailKind | null {
  switch (type) {
    case 'order.placed':
      return 'order_confirmation';
    case 'order.paid':
      return 'payment_received';
    case 'order.status_changed':
      // Other status changes are told by their own events (order.cancelled) or not at all.
      return typeof data === 'object' && data !== null && (data as { status?: unknown }).status === 'shipped'
        ? 'order_shipped'
        : null;
    case 'order.cancelled':
      return 'order_cancelled';
    case 'order.expired':
      return 'order_expired';
    default:
      return null;
  }
}
