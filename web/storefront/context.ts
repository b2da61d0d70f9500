import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { type Api, createApi } from '../api/client';
import { browserSession, type SessionStore } from '../shared/session';

/** What every storefront page shares: the API client and who is signed in. */
export interface Shop {
  api: Api;
  session: SessionStore;
  currency: string;
}

export function createShop(): Omit<Shop, 'currency'> {
  const session = browserSession('storefront.session');
  return { api: createApi({ session }), session };
}

export const ShopContext = createContext<Shop | undefined>(undefined);

export function useShop(): Shop {
  const shop = useContext(ShopContext);
  if (shop === undefined) throw new Error('useShop outside <ShopContext.Provider>');
  return shop;
}
