/*
 * Which market a request is in (issue #28 item 3, decision 0031), in this order: the `X-Market` header (a market
 * code), the payload's `market`, the market the cart keeps, the market of the shipping address's country, the default
 * market. A code that names
 * no market is refused where it came from, never replaced by the default: a client that asked for a market and got
 * another would show one currency and be charged in another. Pure: the markets are given.
 */

/** What resolution needs of a market. */
export interface MarketRef {
  code: string;
  isDefault: boolean;
  countries: readonly string[];
}

/** Where the market of a request came from. */
export type MarketSource = 'header' | 'payload' | 'cart' | 'shipping_country' | 'default';

export type MarketResolution<M extends MarketRef> =
  | { ok: true; market: M; source: MarketSource }
  | { ok: false; source: 'header' | 'payload'; code: string };

/** What a request says about its market; each optional. */
export interface MarketHints<M extends MarketRef = MarketRef> {
  /** The X-Market header, as sent. */
  header?: string;
  /** The payload's `market`. */
  payload?: string;
  /** The market the request's cart keeps (`carts.market_id`), when it keeps one that still exists. */
  kept?: M | null;
  /** ISO 3166-1 alpha-2 of the shipping address, any case. */
  shippingCountry?: string;
}

/**
 * A market code as sent, in the only form a market's code has (`markets_code_check`: ASCII letters, digits, `_` and
 * `-`): matched after trimming and ASCII lower-casing only. Unicode case mapping would let another string name a
 * market ("\u212AW", KELVIN SIGN and W, lower-cases to "kw"), so anything else names none.
 */
const CODE_AS_SENT = /^[A-Za-z0-9_-]{1,32}$/;

export function resolveMarket<M extends MarketRef>(markets: readonly M[], hints: MarketHints<M>): MarketResolution<M> {
  const byCode = (sent: string) => {
    const code = sent.trim();
    if (!CODE_AS_SENT.test(code)) return undefined;
    // ASCII only by now: lower-casing it maps A–Z and nothing else.
    return markets.find((market) => market.code === code.toLowerCase());
  };
  for (const source of ['header', 'payload'] as const) {
    const code = hints[source];
    if (code === undefined || code.trim() === '') continue;
    const market = byCode(code);
    return market ? { ok: true, market, source } : { ok: false, source, code };
  }
  if (hints.kept) return { ok: true, market: hints.kept, source: 'cart' };
  const country = hints.shippingCountry?.trim().toUpperCase();
  const served = country ? markets.find((market) => market.countries.includes(country)) : undefined;
  if (served) return { ok: true, market: served, source: 'shipping_country' };
  const fallback = markets.find((market) => market.isDefault);
  if (!fallback) throw new Error('a store always has a default market (migration 0027)');
  return { ok: true, market: fallback, source: 'default' };
}

/** A checkout's market: the one it is priced in, the one the request asked for, and whether they differ. */
export type CheckoutMarketResolution<M extends MarketRef> =
  | { ok: true; market: M; requested: M; changed: boolean }
  | { ok: false; source: 'header' | 'payload'; code: string };

/**
 * The market an estimate or a placement is priced in (issue #28 item 3, decision 0031). The request names one (the
 * header, else the payload, else the cart's kept market, else the default), checked as `resolveMarket` checks it; a
 * shipping address then decides: its country's market (the default for a country no market lists) is the order's,
 * and `changed` says the request asked for another one. Without a shipping address the requested market stands.
 */
export function resolveCheckoutMarket<M extends MarketRef>(
  markets: readonly M[],
  hints: MarketHints<M>,
): CheckoutMarketResolution<M> {
  const requested = resolveMarket(markets, { header: hints.header, payload: hints.payload, kept: hints.kept });
  if (!requested.ok) return requested;
  if (hints.shippingCountry === undefined || hints.shippingCountry.trim() === '') {
    return { ok: true, market: requested.market, requested: requested.market, changed: false };
  }
  const shipped = resolveMarket(markets, { shippingCountry: hints.shippingCountry });
  if (!shipped.ok) throw new Error('a country alone always resolves');
  return {
    ok: true,
    market: shipped.market,
    requested: requested.market,
    changed: shipped.market !== requested.market,
  };
}

/** The field a refused market code came from, in the request's own notation. */
export function marketCodeField(source: 'header' | 'payload'): string {
  return source === 'header' ? 'headers.x-market' : 'market';
}
