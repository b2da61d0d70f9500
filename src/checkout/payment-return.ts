import { eq } from 'drizzle-orm';
import type { TokenService } from '../auth/tokens.js';
import type { Db } from '../db/client.js';
import { orders, payments } from '../db/schema.js';
import { type PaymentOutcome, paymentOutcome } from '../payments/payment-states.js';
import { RETURN_LINK_PURPOSE } from '../payments/return-links.js';
import type { LinkRefusal } from '../orders/order-link.js';
import { ORDER_PAGE_LINK_SECONDS, orderPageLink } from './order-page-link.js';

/**
 * The payer back from a gateway, through a return link (src/payments/return-links.ts): with a storefront return_url
 * the payer goes on there with `order_alias` and `payment_status`; without one, to the order's HTML page through a
 * fresh short-lived link.
 */

export interface ReturnDeps {
  db: Db;
  tokens: TokenService;
  publicBaseUrl: string;
}

/** The storefront's URL with the order and the outcome added; a query it already has is kept. */
export function storefrontReturn(url: string, result: { orderAlias: string; outcome: PaymentOutcome }): string {
  const target = new URL(url);
  target.searchParams.set('order_alias', result.orderAlias);
  target.searchParams.set('payment_status', result.outcome);
  return target.toString();
}

/**
 * Where the payer holding a return link goes next, or why the link is refused. Once the attempt
 * has settled the link only works for ORDER_PAGE_LINK_SECONDS more, so a return link left in a
 * browser's history or a gateway's records stops opening the order soon after the payer is back.
 */
export async function resolveReturn(
  deps: ReturnDeps,
  token: string | undefined,
): Promise<{ ok: true; location: string } | ({ ok: false } & LinkRefusal)> {
  const invalid = { ok: false as const, code: 'order_link_invalid' as const, detail: 'this return link is not valid' };
  const expired = {
    ok: false as const,
    code: 'order_link_expired' as const,
    detail: 'this return link has expired; the store has your order and its payment',
  };
  if (!token) return invalid;
  const check = await deps.tokens.verifyLink(token, RETURN_LINK_PURPOSE);
  if (!check.ok) return check.reason === 'expired' ? expired : invalid;
  const { end } = check.claims;
  if (end !== 'return' && end !== 'cancel') return invalid;
  const [found] = await deps.db
    .select({ payment: payments, orderAlias: orders.alias })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(eq(payments.reference, check.subject));
  if (!found) return invalid;
  const { payment, orderAlias } = found;
  const settledMs = Date.now() - payment.updatedAt.getTime();
  if (payment.status !== 'pending' && settledMs > ORDER_PAGE_LINK_SECONDS * 1000) return expired;

  const storefront = end === 'cancel' ? (payment.cancelUrl ?? payment.returnUrl) : payment.returnUrl;
  if (storefront) {
    const outcome = paymentOutcome(payment.status, end);
    return { ok: true, location: storefrontReturn(storefront, { orderAlias, outcome }) };
  }
  const page = await orderPageLink(deps, { alias: orderAlias, payment: { reference: payment.reference, end } });
  return { ok: true, location: page };
}
