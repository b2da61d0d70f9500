// Orders this tab has just placed: their page thanks the shopper, also after a round trip through the payment
// gateway; a later visit (another tab or session, an email's link) shows the order without thanking again.
const KEY = 'storefront.placedOrders';
/** Enough for the orders of one visit. */
const KEEP = 10;

function readAll(): string[] {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((e): e is string => typeof e === 'string') : [];
  } catch {
    return [];
  }
}

/** Notes that this tab has just placed the order. */
export function notePlaced(alias: string): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify([...readAll().filter((a) => a !== alias), alias].slice(-KEEP)));
  } catch {
    // Storage refused (private mode, full): the page then shows the order without thanks.
  }
}

/** Whether this tab placed the order. */
export function placedHere(alias: string): boolean {
  return readAll().includes(alias);
}
