/*
 * Which market a request is in (issue #28 item 3, decision 0031), in this order: the `X-Market` header (a market
 * code), the payload's `market`, the market of the shipping address's country, the default market. A code that names
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
export type MarketSource = 'header' | 'payload' | 'shipping_country' | 'default';

export type MarketResolution<M extends MarketRef> =
  | { ok: true; market: M; source: MarketSource }
  | { ok: false; source: 'header' | 'payload'; code: string };

/** What a request says about its market; each optional. */
export interface MarketHints {
  /** The X-Market header, as sent. */
  header?: string;
  /** The payload's `market`. */
  payload?: string;
  /** ISO 3166-1 alpha-2 of the shipping address, any case. */
  shippingCountry?: string;
}

export function resolveMarket<M extends MarketRef>(markets: readonly M[], hints: MarketHints): MarketResolution<M> {
  const byCode = (code: string) => markets.find((market) => market.code === code.trim().toLowerCase());
  for (const source of ['header', 'payload'] as const) {
    const code = hints[source];
    if (code === undefined || code.trim() === '') continue;
    const market = byCode(code);
    return market ? { ok: true, market, source } : { ok: false, source, code };
  }
  const country = hints.shippingCountry?.trim().toUpperCase();
  const served = country ? markets.find((market) => market.countries.includes(country)) : undefined;
  if (served) return { ok: true, market: served, source: 'shipping_country' };
  const fallback = markets.find((market) => market.isDefault);
  if (!fallback) throw new Error('a store always has a default market (migration 0027)');
  return { ok: true, market: fallback, source: 'default' };
}
