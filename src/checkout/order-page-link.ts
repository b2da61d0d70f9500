import type { TokenService } from '../auth/tokens.js';
import type { ReturnEnd } from '../payments/payment-states.js';
import { type LinkRefusal, ORDER_LINK_PURPOSE, orderLinkVerdict } from '../orders/order-link.js';

/**
 * The link to an order's page in a browser, for someone who holds no account and no order token
 * there (a guest back from paying, a customer reading an order email). The link carries no lasting
 * secret: a token signed with the service's token key, for this order alone, that expires after
 * ORDER_PAGE_LINK_SECONDS, or the longer lifetime an email asks for (ORDER_EMAIL_LINK_DAYS).
 */

export const ORDER_PAGE_PATH = '/order/storefront/orders/';

/** As long as an access token: enough to read the page after paying, short enough for a URL. */
export const ORDER_PAGE_LINK_SECONDS = 15 * 60;

/** The attempt a payer came back from, so the page can say how it went. */
export interface ReturnedPayment {
  reference: string;
  end: ReturnEnd;
}

export async function orderPageLink(
  deps: { tokens: TokenService; publicBaseUrl: string },
  visit: { alias: string; payment?: ReturnedPayment; ttlSeconds?: number },
): Promise<string> {
  const claims = visit.payment ? { pay: visit.payment.reference, end: visit.payment.end } : undefined;
  const token = await deps.tokens.signLink({
    purpose: ORDER_LINK_PURPOSE,
    subject: visit.alias,
    claims,
    ttlSeconds: visit.ttlSeconds ?? ORDER_PAGE_LINK_SECONDS,
  });
  return `${deps.publicBaseUrl}${ORDER_PAGE_PATH}${encodeURIComponent(visit.alias)}/?token=${token}`;
}

/** Whether `token` opens the page of the order `alias`, and which payment it came back from. */
export async function checkOrderPageLink(
  tokens: TokenService,
  input: { alias: string; token: string | undefined },
): Promise<{ ok: true; payment?: ReturnedPayment } | ({ ok: false } & LinkRefusal)> {
  if (!input.token) return { ok: false, code: 'order_link_invalid', detail: 'this order link has no token' };
  const verdict = orderLinkVerdict(await tokens.verifyLink(input.token, ORDER_LINK_PURPOSE), input.alias);
  if (!verdict.ok) return verdict;
  const { pay, end } = verdict.claims;
  if (typeof pay === 'string' && (end === 'return' || end === 'cancel')) {
    return { ok: true, payment: { reference: pay, end } };
  }
  return { ok: true };
}
