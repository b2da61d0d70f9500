import type { Answer } from '../api/client';
import type { CartStore } from './cart';
import type { SessionStore } from '../shared/session';

type SignedIn = Answer<'/user/storefront/api/login/', 'post'>;

/**
 * The `X-Cart-Token` to send with login/ or signup/, so the service merges the guest cart into the customer's
 * (docs/api.md, "Merging"). Sent as a plain header: the generated schema does not declare it on these routes yet.
 */
export function mergeHeaders(cart: CartStore): Record<string, string> {
  const token = cart.guestToken();
  return token === undefined ? {} : { 'X-Cart-Token': token };
}

/** Keeps the new session; the guest cart was merged (or had nothing to merge), so its token is done with. */
export function startSession(options: { signedIn: SignedIn; session: SessionStore; cart: CartStore }): void {
  options.cart.forgetGuestToken();
  const { user, access, refresh } = options.signedIn;
  options.session.set({ user, access, refresh });
}

/** Where to go after signing in: the `next` the page was opened with, when it is a path of this shop. */
export function nextPath(query: Record<string, string>): string {
  const next = query.next;
  return next?.startsWith('/') && !next.startsWith('//') ? next : '/';
}
