// A guest reads and pays for an order with the order token placement gave it (`X-Order-Token`); the browser keeps it,
// keyed by the order's alias, so the confirmation page still opens after the payment gateway sends the shopper back.
// A guest who comes by an order email's link keeps the link's token in its place (keepOrderLinkToken).
const KEY = 'storefront.orderTokens';
/** Enough for a shopper's recent orders; the oldest are forgotten first. */
const KEEP = 20;

function readAll(): [string, string][] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(parsed)
      ? parsed.filter(
          (e): e is [string, string] => Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'string',
        )
      : [];
  } catch {
    return [];
  }
}

export function rememberOrderToken(entry: { alias: string; token: string }): void {
  const others = readAll().filter(([alias]) => alias !== entry.alias);
  localStorage.setItem(KEY, JSON.stringify([...others, [entry.alias, entry.token]].slice(-KEEP)));
}

export function orderToken(alias: string): string | undefined {
  return readAll().find(([a]) => a === alias)?.[1];
}

/** The `X-Order-Token` header for an order, when this browser placed it as a guest. */
export function orderTokenHeader(alias: string): { 'x-order-token'?: string } {
  const token = orderToken(alias);
  return token === undefined ? {} : { 'x-order-token': token };
}

/** Whether a kept token is an order link's (signed: three parts between dots), not the order token placement gave. */
const isLinkToken = (token: string) => token.split('.').length === 3;

/**
 * Keeps the token of the order link the shopper came by (`?token=`, from an order email: decision 0030), sent from
 * then on as `X-Order-Token` like an order token, until the link expires. The order token this browser kept when it
 * placed the order stays: it never expires, a link does. A link replaces an older link.
 */
export function keepOrderLinkToken(entry: { alias: string; token: string }): void {
  const kept = orderToken(entry.alias);
  if (kept !== undefined && !isLinkToken(kept)) return;
  rememberOrderToken(entry);
}
