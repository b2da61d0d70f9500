import { createContext } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import { type Api, createApi } from '../api/client';
import { browserSession, type Session, type SessionStore } from '../shared/session';
import { type Cart, type CartStore, createCartStore } from './cart';

/** What every storefront page shares: the API client, who is signed in and their cart. */
export interface Shop {
  api: Api;
  session: SessionStore;
  cart: CartStore;
  currency: string;
}

export function createShop(): Omit<Shop, 'currency'> {
  const session = browserSession('storefront.session');
  const api = createApi({ session });
  return { api, session, cart: createCartStore({ api, session }) };
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

/** Who is signed in, re-rendering when that changes. */
export function useSession(): Session | undefined {
  const { session } = useShop();
  const [current, setCurrent] = useState(session.get());
  useEffect(() => session.subscribe(setCurrent), [session]);
  return current;
}
