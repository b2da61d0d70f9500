// The shop's market: the country/currency the shopper buys in (issue #28). The chosen market's code is kept in
// localStorage and sent as `X-Market` on every API call (createApi's `market` option); the service prices in that
// market and says the currency in its answers. Until the shopper chooses (or enters a shipping address), nothing is
// sent and the service decides (the shipping country's market, else the default).
import type { Answer } from '../api/client';

export type StorefrontMarket = Answer<'/market/storefront/api/markets/', 'get'>[number];

const MARKET_KEY = 'storefront.market';

type Listener = (code: string | undefined) => void;

export interface MarketStore {
  /** The code of the market chosen (by the shopper or their shipping country); undefined: none yet. */
  get(): string | undefined;
  set(code: string | undefined): void;
  /** Called with the new code after every change; returns the unsubscribe. */
  subscribe(listener: Listener): () => void;
}

/** The market chosen in this browser, kept under `storefront.market`. */
export function browserMarket(): MarketStore {
  let current: string | undefined;
  try {
    current = localStorage.getItem(MARKET_KEY) ?? undefined;
  } catch {
    current = undefined;
  }
  const listeners = new Set<Listener>();
  return {
    get: () => current,
    set(code) {
      if (code === current) return;
      current = code;
      try {
        if (code === undefined) localStorage.removeItem(MARKET_KEY);
        else localStorage.setItem(MARKET_KEY, code);
      } catch {
        // Storage refused (a private window's quota): the choice holds for this page.
      }
      for (const listener of listeners) listener(code);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The market the shop shows as chosen: the one chosen, if the store still has it, else the default market. */
export function shownMarket(
  markets: readonly StorefrontMarket[],
  chosen: string | undefined,
): StorefrontMarket | undefined {
  return markets.find((m) => m.code === chosen) ?? markets.find((m) => m.is_default) ?? markets[0];
}

/** The market that serves `country`: the one listing it, else the default market (it serves every other country). */
export function marketOfCountry(markets: readonly StorefrontMarket[], country: string): StorefrontMarket | undefined {
  const code = country.toUpperCase();
  return markets.find((m) => m.countries.includes(code)) ?? markets.find((m) => m.is_default);
}

/** "Europe · EUR": how the selector names a market. */
export function marketLabel(market: Pick<StorefrontMarket, 'name' | 'currency'>): string {
  return `${market.name} · ${market.currency}`;
}

/**
 * The currency an answer's amounts are in: the one it carries (`currency`), else `fallback` (the store's, for
 * answers that carry none: the catalog's, until it is priced per market).
 */
export function answerCurrency(answer: object, fallback: string): string {
  const carried = (answer as { currency?: unknown }).currency;
  return typeof carried === 'string' && carried !== '' ? carried : fallback;
}
