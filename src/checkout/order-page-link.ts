import type { TokenService } from '../auth/tokens.js';
import type { ReturnEnd } from '../payments/payment-states.js';
import type { ErrorCode } from '../shared/errors.js';

/**
 * The link to an order's page in a browser, for someone who holds no account and no order token
 * there (a guest back from paying, a customer reading an order email). The link carries no lasting
 * secret: a token signed with the service's token key, for this order alone, that expires after
 * ORDER_PAGE_LINK_SECONDS, or the longer lifetime an email asks for (ORDER_EMAIL_LINK_DAYS).
 */

export const ORDER_PAGE_PATH = '/order/storefront/orders/';

/** As long as an access token: enough to read the page after paying, short enough for a URL. */
export const ORDER_PAGE_LINK_SECONDS = 15 * 60;

const PURPOSE = 'order-page';

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
    purpose: PURPOSE,
    subject: visit.alias,
    claims,
    ttlSeconds: visit.ttlSeconds ?? ORDER_PAGE_LINK_SECONDS,
  });
  return `${deps.publicBaseUrl}${ORDER_PAGE_PATH}${encodeURIComponent(visit.alias)}/?token=${token}`;
}

export type LinkRefusal = { code: ErrorCode; detail: string };

/** 900 → "15 minutes", 604800 → "7 days". */
function lifetimeInWords(seconds: number): string {
  const [count, unit] =
    seconds % 86_400 === 0
      ? [seconds / 86_400, 'day']
      : seconds % 3600 === 0
        ? [seconds / 3600, 'hour']
        : [Math.round(seconds / 60), 'minute'];
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** Whether `token` opens the page of the order `alias`, and which payment it came back from. */
export async function checkOrderPageLink(
  tokens: TokenService,
  input: { alias: string; token: string | undefined },
): Promise<{ ok: true; payment?: ReturnedPayment } | ({ ok: false } & LinkRefusal)> {
  const invalid = { ok: false as const, code: 'order_link_invalid' as const, detail: 'this order link is not valid' };
  if (!input.token) return { ...invalid, detail: 'this order link has no token' };
  const check = await tokens.verifyLink(input.token, PURPOSE);
  if (!check.ok) {
    if (check.reason !== 'expired') return invalid;
    const lifetime = lifetimeInWords(check.lifetimeSeconds ?? ORDER_PAGE_LINK_SECONDS);
    return { ok: false, code: 'order_link_expired', detail: `this order link has expired; it worked ${lifetime}` };
  }
  // Signed for another order: refused like a forged one, saying nothing about this order.
  if (check.subject !== input.alias) return invalid;
  const { pay, end } = check.claims;
  if (typeof pay === 'string' && (end === 'return' || end === 'cancel')) {
    return { ok: true, payment: { reference: pay, end } };
  }
  return { ok: true };
}
