// The shopper's cart, shared by the header ("Cart (n)"), the product page, the cart page and the checkout. A guest's
// cart goes by the token the service gave it (kept in localStorage, so a reload keeps the cart); a signed-in
// customer's by the Bearer token alone (docs/api.md, "Whose cart").
import { type Answer, type Api, ok } from '../api/client';
import { isProblem } from '../shared/problem';
import type { SessionStore } from '../shared/session';

export type Cart = Answer<'/cart/storefront/api/carts/', 'get'>;
export type CartLine = Cart['items'][number];

const TOKEN_KEY = 'storefront.cartToken';

type Listener = (cart: Cart | undefined) => void;

export interface CartStore {
  /** The cart as last read or changed; undefined before the first read (and for a guest with no cart yet). */
  get(): Cart | undefined;
  subscribe(listener: Listener): () => void;
  /** Reads the cart again (a guest without a token has none: nothing is created just to look). */
  load(): Promise<Cart | undefined>;
  add(line: { variantId: number; quantity: number }): Promise<Cart>;
  /** Sets a line's quantity (0 removes it). */
  setQuantity(line: { variantId: number; quantity: number }): Promise<Cart>;
  remove(variantId: number): Promise<Cart>;
  /** The guest cart's token, to send as `X-Cart-Token` (sign-in merges it, a guest order empties it). */
  guestToken(): string | undefined;
  /** After a merge: the guest cart is closed, its token no longer works. */
  forgetGuestToken(): void;
}

function readToken(): string | undefined {
  try {
    return localStorage.getItem(TOKEN_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

export function createCartStore(options: { api: Api; session: SessionStore }): CartStore {
  const { api, session } = options;
  let current: Cart | undefined;
  const listeners = new Set<Listener>();

  const publish = (cart: Cart | undefined) => {
    current = cart;
    for (const listener of listeners) listener(cart);
  };
  const signedIn = () => session.get() !== undefined;
  const guestToken = () => (signedIn() ? undefined : readToken());
  const forgetGuestToken = () => localStorage.removeItem(TOKEN_KEY);

  /**
   * Runs a cart call with the guest token; a token that names no open cart any more is dropped and the call retried.
   */
  async function withToken(call: (header: { 'x-cart-token'?: string }) => Promise<Cart>): Promise<Cart> {
    const token = guestToken();
    let cart: Cart;
    try {
      cart = await call(token === undefined ? {} : { 'x-cart-token': token });
    } catch (err) {
      const stale = isProblem(err) && (err.code === 'cart_not_found' || err.code === 'invalid_cart_token');
      if (!stale || token === undefined) throw err;
      forgetGuestToken();
      cart = await call({});
    }
    if (!signedIn() && cart.cart_token !== undefined) localStorage.setItem(TOKEN_KEY, cart.cart_token);
    publish(cart);
    return cart;
  }

  // Signing in or out changes whose cart this is (a token refresh, which also sets the session, does not).
  let userId = session.get()?.user.id;
  session.subscribe((next) => {
    if (next?.user.id === userId) return;
    userId = next?.user.id;
    publish(undefined);
    void load().catch(() => undefined);
  });

  async function load(): Promise<Cart | undefined> {
    if (!signedIn() && readToken() === undefined) {
      publish(undefined);
      return undefined;
    }
    return withToken((header) => ok(api.GET('/cart/storefront/api/carts/', { params: { header } })));
  }

  return {
    get: () => current,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    load,
    add: ({ variantId, quantity }) =>
      withToken((header) =>
        ok(
          api.POST('/cart/storefront/api/carts/add/', {
            params: { header },
            body: { product_variant_id: variantId, quantity },
          }),
        ),
      ),
    setQuantity: ({ variantId, quantity }) =>
      withToken((header) =>
        ok(
          api.PUT('/cart/storefront/api/carts/update/', {
            params: { header },
            body: { product_variant_id: variantId, quantity },
          }),
        ),
      ),
    remove: (variantId) =>
      withToken((header) =>
        ok(
          api.DELETE('/cart/storefront/api/carts/remove/{product_variant_id}/', {
            params: { header, path: { product_variant_id: variantId } },
          }),
        ),
      ),
    guestToken,
    forgetGuestToken,
  };
}
