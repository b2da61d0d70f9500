import { type Answer, type Api, ok } from '../../api/client';
import type { CartStore } from '../cart';
import { rememberOrderToken } from '../order-tokens';
import type { OrderPayload } from './address';

export type PlacedOrder = Answer<'/order/storefront/api/create/', 'post'>;

/** A new Idempotency-Key: 128 random bits in hex (getRandomValues works on plain http too, randomUUID does not). */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Places the order. The same `idempotencyKey` for every try of one checkout, so a retry after a lost answer (or a
 * second click) gets the first order back instead of a second one; `expected_total` so the shopper is never charged
 * a total they were not shown (409 `total_changed`). A guest's order token is kept for the confirmation page, and the
 * guest cart (`X-Cart-Token`) loses what was ordered.
 */
export async function placeOrder(options: {
  api: Api;
  cart: CartStore;
  payload: OrderPayload;
  idempotencyKey: string;
}): Promise<PlacedOrder> {
  const { api, cart, payload } = options;
  const token = cart.guestToken();
  const placed = await ok(
    api.POST('/order/storefront/api/create/', {
      params: {
        header: {
          'idempotency-key': options.idempotencyKey,
          ...(token === undefined ? {} : { 'x-cart-token': token }),
        },
      },
      body: payload,
    }),
  );
  if (placed.order_token !== undefined) rememberOrderToken({ alias: placed.order_alias, token: placed.order_token });
  await cart.load().catch(() => undefined);
  return placed;
}
