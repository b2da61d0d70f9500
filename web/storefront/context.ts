import { createContext } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import { type Api, createApi } from '../api/client';
import { browserSession, type Session, type SessionStore } from '../shared/session';
import { type Cart, type CartStore, createCartStore } from './cart';
import type { StorefrontMarket } from './market';
import { browserMarket, type MarketStore } from './market-store';

/** What every storefront page shares: the API client, who is signed in, their cart and market. */
export interface Shop {
  api: Api;
  session: SessionStore;
  cart: CartStore;
  /** The market chosen (its code), sent as `X-Market` on every call. */
  market: MarketStore;
  /** The store's markets (`GET /market/storefront/api/markets/`), the default first; empty until they are read. */
  markets: StorefrontMarket[];
  /** The store currency: what answers without their own `currency` (the catalog's) are in. */
  currency: string;
}

export function createShop(): Omit<Shop, 'currency' | 'markets'> {
  const session = browserSession('storefront.session');
  const market = browserMarket();
  const api = createApi({ session, market: market.get });
  const cart = createCartStore({ api, session });
  // Another market prices the cart again: read it in the new one.
  market.subscribe(() => void cart.load().catch(() => undefined));
  return { api, session, cart, market };
}

export const ShopContext = createContext<Shop | undefined>(undefined);

export function useShop(): Shop {
  const shop = useContext(ShopContext);
  if (shop === undefined) throw new Error('useShop outside <ShopContext.Provider>');
  return shop;
}

/** The cart as it is now, re-rendering on every change. */
export function useCart(): Cart | undefined {
  const { cart } = useShop();
  const [current, setCurrent] = useState(cart.get());
  useEffect(() => cart.subscribe(setCurrent), [cart]);
  return current;
}

/** The code of the market chosen (undefined: none yet), re-rendering when it changes. */
export function useMarketCode(): string | undefined {
  const { market } = useShop();
  const [current, setCurrent] = useState(market.get());
  useEffect(() => market.subscribe(setCurrent), [market]);
  return current;
}

/** Who is signed in, re-rendering when that changes. */
export function useSession(): Session | undefined {
  const { session } = useShop();
  const [current, setCurrent] = useState(session.get());
  useEffect(() => session.subscribe(setCurrent), [session]);
  return current;
}
