// The market the shopper chose, kept in localStorage: its code is sent as `X-Market` on every API call (createApi's
// `market` option), so the service prices in that market and says the currency in its answers. Until the shopper
// chooses (or enters a shipping address), nothing is sent and the service decides (the shipping country's market,
// else the default).

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
