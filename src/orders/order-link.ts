import type { LinkCheck } from '../auth/tokens.js';
import type { ErrorCode } from '../shared/errors.js';

/**
 * An order link's token: what the link of an order email (and of the payment return) carries, signed with the
 * service's token key for one order and expiring (src/checkout/order-page-link.ts makes it). It opens the order's HTML
 * page, and the storefront API sends it as `X-Order-Token` like the order token placement gave a guest, so a guest
 * from an email reads the order, returns items and pays what is due (decision 0030).
 */

/** The purpose links to an order are signed for: a token signed for another purpose is refused. */
export const ORDER_LINK_PURPOSE = 'order-page';

/**
 * Whether an `X-Order-Token` is a link's token rather than an order token: a signed token has three dot-separated
 * parts, an order token (32 random bytes in base64url) none.
 */
export const isOrderLinkToken = (token: string): boolean => token.split('.').length === 3;

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

const INVALID = { code: 'order_link_invalid', detail: 'this order link is not valid' } as const;

/**
 * Whether a checked link token opens the order `alias`, with the claims it carries; otherwise why not: 404
 * `order_link_invalid` (forged, tampered, of another kind, or signed for another order: nothing said about this
 * order), 410 `order_link_expired` (this order's link, past its expiry).
 */
export function orderLinkVerdict(
  check: LinkCheck,
  alias: string,
): { ok: true; claims: Record<string, unknown> } | ({ ok: false } & LinkRefusal) {
  if (check.ok) return check.subject === alias ? { ok: true, claims: check.claims } : { ok: false, ...INVALID };
  if (check.reason !== 'expired' || (check.subject !== undefined && check.subject !== alias)) {
    return { ok: false, ...INVALID };
  }
  const detail =
    check.lifetimeSeconds === undefined
      ? 'this order link has expired'
      : `this order link has expired; it worked ${lifetimeInWords(check.lifetimeSeconds)}`;
  return { ok: false, code: 'order_link_expired', detail };
}
