// The one way the web apps call the service: openapi-fetch over the types generated from /openapi.json
// (web/api/schema.d.ts). It signs requests in, refreshes the access token before it expires, says the shop's market
// (`X-Market`), and turns error answers into thrown problems, so a page handles success and failure in one place.
import createClient from 'openapi-fetch';
import { asProblem, isProblem } from '../shared/problem';
import { type SessionStore, tokenExpiry } from '../shared/session';
import type { paths } from './schema';

export type { components, paths } from './schema';

/** Refresh the access token when it has less than this left. */
const REFRESH_MARGIN_SECONDS = 60;

export function createApi(options: {
  session: SessionStore;
  baseUrl?: string;
  /** The shop's market code, sent as `X-Market` on every call while there is one (docs/markets.md). */
  market?: () => string | undefined;
}) {
  const { session } = options;
  const client = createClient<paths>({ baseUrl: options.baseUrl ?? window.location.origin });
  let refreshing: Promise<string | undefined> | undefined;

  async function freshAccessToken(): Promise<string | undefined> {
    const current = session.get();
    if (current === undefined) return undefined;
    if (tokenExpiry(current.access) - Date.now() / 1000 > REFRESH_MARGIN_SECONDS) return current.access;
    refreshing ??= (async () => {
      const { data } = await plain.POST('/user/storefront/api/token/refresh/', { body: { refresh: current.refresh } });
      if (data === undefined) {
        // The refresh token was used, revoked or expired: the person has to sign in again.
        session.set(undefined);
        return undefined;
      }
      session.set({ ...current, access: data.access, refresh: data.refresh });
      return data.access;
    })().finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  }

  // Token refresh goes through a client without the middleware, so it never waits for itself.
  const plain = createClient<paths>({ baseUrl: options.baseUrl ?? window.location.origin });
  client.use({
    async onRequest({ request }) {
      const token = await freshAccessToken();
      if (token !== undefined && !request.headers.has('authorization')) {
        request.headers.set('authorization', `Bearer ${token}`);
      }
      const market = options.market?.();
      if (market !== undefined && !request.headers.has('x-market')) request.headers.set('x-market', market);
      return request;
    },
  });
  return client;
}

export type Api = ReturnType<typeof createApi>;

/**
 * The data of an answer, or throws its problem: `const cart = await ok(api.GET('/cart/storefront/api/carts/'))`.
 * A network failure is thrown as a problem too (code `network_error`).
 */
export async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: Awaited<typeof call>;
  try {
    result = await call;
  } catch (err) {
    throw asProblem(err);
  }
  if (result.error !== undefined || !result.response.ok) {
    throw isProblem(result.error)
      ? result.error
      : asProblem(new Error(`${result.response.status} ${result.response.statusText}`));
  }
  return result.data as T;
}

type JsonContent<R> = R extends { content: { 'application/json': infer T } } ? T : never;
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The JSON an operation answers with on success: `Answer<'/cart/storefront/api/carts/', 'get'>`. */
export type Answer<P extends keyof paths, M extends Method & keyof paths[P]> = paths[P][M] extends {
  responses: infer Responses;
}
  ? JsonContent<Responses[200 & keyof Responses] | Responses[201 & keyof Responses]>
  : never;

/** The JSON body an operation takes: `RequestBody<'/user/storefront/api/login/', 'post'>`. */
export type RequestBody<P extends keyof paths, M extends Method & keyof paths[P]> = paths[P][M] extends {
  requestBody?: infer B;
}
  ? JsonContent<NonNullable<B>>
  : never;
