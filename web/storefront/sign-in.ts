import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import type { Answer } from '../api/client';
import { asProblem, type Problem } from '../shared/problem';
import type { SessionStore } from '../shared/session';
import type { CartStore } from './cart';
import { useShop } from './context';

type SignedIn = Answer<'/user/storefront/api/login/', 'post'>;

/**
 * The `X-Cart-Token` to send with login/ or signup/, so the service merges the guest cart into the customer's
 * (docs/api.md, "Merging"). Sent as a plain header: the generated schema does not declare it on these routes yet.
 */
function mergeHeaders(cart: CartStore): Record<string, string> {
  const token = cart.guestToken();
  return token === undefined ? {} : { 'X-Cart-Token': token };
}

/** Keeps the new session; the guest cart was merged (or had nothing to merge), so its token is done with. */
function startSession(options: { signedIn: SignedIn; session: SessionStore; cart: CartStore }): void {
  options.cart.forgetGuestToken();
  const { user, access, refresh } = options.signedIn;
  options.session.set({ user, access, refresh });
}

/** Where to go after signing in: the `next` the page was opened with, when it is a path of this shop. */
function nextPath(query: Record<string, string>): string {
  const next = query.next;
  return next?.startsWith('/') && !next.startsWith('//') ? next : '/';
}

/**
 * The sign-in and sign-up pages' submit: `signIn` sends the request with `mergeHeaders`, keeps the session and goes
 * on to `nextPath`; a refusal is kept as `problem`, shown beside the fields it names.
 */
export function useSignIn() {
  const { session, cart } = useShop();
  const { query, route } = useLocation();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem>();

  async function signIn(send: (headers: Record<string, string>) => Promise<SignedIn>) {
    setBusy(true);
    setProblem(undefined);
    try {
      startSession({ signedIn: await send(mergeHeaders(cart)), session, cart });
      route(nextPath(query));
    } catch (err) {
      setProblem(asProblem(err));
      setBusy(false);
    }
  }

  return { busy, problem, signIn, next: query.next };
}
