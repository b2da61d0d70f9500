import { timingSafeEqual } from 'node:crypto';
import type { LinkCheck } from '../auth/tokens.js';
import type { Principal } from '../http/auth.js';
import type { Db, Tx } from '../db/client.js';
import { type NewEvent, type Outbox, recordEvents } from '../events/outbox.js';
import { runStatement } from '../db/statement-sql.js';
import { DomainError } from '../shared/errors.js';
import { orderEvents } from './order-events.js';
import { type OrderStatus, orderStates, statusChangeEvents } from './order-states.js';
import { fulfillmentEventTypes } from './fulfillment-states.js';
import { presentFulfillment } from './fulfillment.presenter.js';
import { type FulfillmentWithLines, fulfillmentsOf, saveFulfillmentState } from './fulfillments.repository.js';
import { presentOrder } from './order.presenter.js';
import {
  findOrderByAlias,
  linesOf,
  lockOrder,
  type OrderRow,
  releasePromotionUses,
  restoreStock,
  setOrderCancelled,
  setOrderStatus,
} from './orders.repository.js';
import { hashOrderToken } from './order-token.js';
import { orderLinkVerdict } from './order-link.js';
import { nothingShipped, statusesByHand } from './fulfillment.decide.js';

const notFound = (alias: string) => new DomainError('order_not_found', { detail: `order ${alias} not found` });

function tokenMatches(order: OrderRow, token: string | undefined): boolean {
  if (!token || !order.orderTokenHash) return false;
  const given = Buffer.from(hashOrderToken(token), 'hex');
  const stored = Buffer.from(order.orderTokenHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/** Who asks for an order: the signed-in principal, and the guest's proof from `X-Order-Token` (order-caller.ts). */
export interface OrderCaller {
  principal: Principal | null;
  /** The order token placement gave a guest. */
  orderToken?: string;
  /** Or the token of an order link (an order email's), already checked: signature, purpose, expiry. */
  orderLink?: LinkCheck;
}

/**
 * The order if the caller may see it: its owner, an admin, whoever holds its order token, or whoever holds a link to
 * it (decision 0030). Anyone else gets the same 404 as for an order that does not exist. A link's refusal (404
 * `order_link_invalid`, 410 `order_link_expired`) is decided before the order is read, so it says nothing about
 * whether the order exists; the owner or an admin is not refused for a stale link their browser kept.
 */
export async function findVisibleOrder(db: Db, alias: string, caller: OrderCaller): Promise<OrderRow> {
  const link = caller.orderLink && orderLinkVerdict(caller.orderLink, alias);
  const order = await findOrderByAlias(db, alias);
  const { principal } = caller;
  const byAccount =
    order !== undefined
    && principal !== null
    && (principal.role === 'admin' || (order.userId !== null && order.userId === principal.userId));
  if (order && byAccount) return order;
  if (link && !link.ok) throw new DomainError(link.code, { detail: link.detail });
  if (!order) throw notFound(alias);
  if (link?.ok || tokenMatches(order, caller.orderToken)) return order;
  throw notFound(alias);
}

/**
 * Money an order's payments kept (captured less refunded), in minor units: from the ledger's totals on its row, which
 * every change of its payments keeps in the same transaction (read with the row locked).
 */
function moneyKept(order: OrderRow): number {
  return order.amountCaptured - order.amountRefunded;
}

/**
 * Cancels a locked order, only while nothing of it has shipped (`nothingShipped`; 409 `invalid_transition` else):
 * cancels its pending shipments (each a fulfillment.cancelled), gives back the stock it took and its promotion uses,
 * sets it cancelled (with the reason
 * when the service does it: `expired`), and records its events (order.status_changed, then order.cancelled, or
 * order.expired for an expiry). Shared by the admin's cancel and unpaid-order expiry (src/orders/order-expiry.ts).
 */
export async function cancelLockedOrder(
  tx: Tx,
  outbox: Outbox,
  cancel: { order: OrderRow; reason: OrderRow['cancelReason'] },
): Promise<OrderRow> {
  const { order } = cancel;
  if (!nothingShipped(order.fulfillmentStatus)) {
    throw new DomainError('invalid_transition', {
      detail:
        `order ${order.alias} is ${order.fulfillmentStatus}: `
        + 'what has shipped comes back as a return, not a cancel',
      extra: { from: order.status, to: 'cancelled', allowed: [] },
    });
  }
  // Promotions, then variants: the order placements lock them in, so the two don't deadlock.
  await releasePromotionUses(tx, order.id);
  await restoreStock(tx, order.id);
  const fulfillments = order.fulfillmentStatus === 'unfulfilled' ? [] : await fulfillmentsOf(tx, order.id);
  const now = new Date();
  const dropped = fulfillments
    .filter((f) => f.status === 'pending')
    .map((f): FulfillmentWithLines => ({ ...f, status: 'cancelled', cancelledAt: now, updatedAt: now }));
  for (const f of dropped) await runStatement(tx, saveFulfillmentState, [JSON.stringify(f)]);
  const changed = await setOrderCancelled(tx, order.id, cancel.reason);
  const lines = await linesOf(tx, order.id);
  const types =
    cancel.reason === 'expired'
      ? (['order.status_changed', 'order.expired'] as const)
      : statusChangeEvents('cancelled');
  const after = fulfillments.map((f) => dropped.find((d) => d.id === f.id) ?? f).map(presentFulfillment);
  // Each pending shipment cancelled with the order records its fulfillment.cancelled, as a cancel of it alone does.
  const shipmentEvents: NewEvent[] = dropped.map((f) => ({
    type: fulfillmentEventTypes.cancelled,
    order: { id: order.id, alias: order.alias },
    data: { ...presentOrder(changed, lines), fulfillments: after, fulfillment: presentFulfillment(f) },
  }));
  await recordEvents(tx, outbox, [...shipmentEvents, ...orderEvents(types, changed, lines)]);
  return changed;
}

/**
 * Moves an order along its state machine. Cancelling gives back the stock it took and its
 * promotion uses, in the same transaction as the status change and its events (order.status_changed, and
 * order.cancelled on cancel). An order whose payments kept money is not cancelled (409 `refund_required`): refund it
 * first (`cancelOrderWithRefund`, src/payments/payments.admin.ts).
 */
export function changeOrderStatus(deps: { db: Db; outbox: Outbox }, alias: string, to: OrderStatus): Promise<OrderRow> {
  return deps.outbox.jobs.transaction(deps.db, async (tx) => {
    const order = await lockOrder(tx, alias);
    if (!order) throw notFound(alias);
    orderStates.assert(order.status, to, `order ${alias}`);
    const byHand = statusesByHand(orderStates.transitions[order.status], order.fulfillmentStatus);
    if (!byHand.includes(to))
      throw new DomainError('invalid_transition', {
        detail:
          to === 'cancelled'
            ? `order ${alias} is ${order.fulfillmentStatus}: what has shipped comes back as a return, not a cancel`
            : `order ${alias} is ${order.fulfillmentStatus}: its status follows its fulfillments, `
              + 'ship or deliver them (/fulfillments/{id}/ship/, /deliver/)',
        extra: { from: order.status, to, allowed: byHand },
      });
    if (to === 'cancelled') {
      if (moneyKept(order) > 0) {
        throw new DomainError('refund_required', {
          detail: `order ${alias} has money paid; send {"status": "cancelled", "refund": true} to refund it and cancel`,
        });
      }
      return cancelLockedOrder(tx, deps.outbox, { order, reason: null });
    }
    const changed = await setOrderStatus(tx, order.id, to);
    await recordEvents(tx, deps.outbox, orderEvents(statusChangeEvents(to), changed, await linesOf(tx, order.id)));
    return changed;
  });
}
