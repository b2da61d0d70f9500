import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '../shared/errors.js';

export type Role = 'customer' | 'admin';

/** Who is calling, as proven by a valid access token (src/auth/tokens.ts signs and verifies them). */
export interface Principal {
  userId: number;
  role: Role;
}

/** What reads an access token: the auth module's token service. */
export interface AccessTokenVerifier {
  verifyAccess(token: string): Promise<Principal>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller, or null for a guest. */
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** The route checks Bearer tokens other than access tokens itself (GET /metrics). */
    ownBearerTokens?: boolean;
  }
}

/**
 * Reads `Authorization: Bearer <access token>` on every request. No header means a guest; a
 * header that is not a valid access token is a 401 even where guests are welcome (SPEC 3).
 */
export function registerAuthentication(app: FastifyInstance, tokens: AccessTokenVerifier): void {
  app.decorateRequest('principal', null);
  const authenticate = async (request: FastifyRequest, header: string) => {
    const match = /^Bearer\s+([A-Za-z0-9._~+/=-]+)\s*$/i.exec(header);
    if (!match?.[1]) {
      throw new DomainError('invalid_token', { detail: 'the Authorization header must be "Bearer <access token>"' });
    }
    try {
      request.principal = await tokens.verifyAccess(match[1]);
    } catch (err) {
      if (request.routeOptions.config.ownBearerTokens !== true) throw err;
    }
  };
  // A callback hook: a guest's request (no header) goes on without a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    const header = request.headers.authorization;
    if (header === undefined) done();
    else authenticate(request, header).then(() => done(), done);
  });
}

/** Route onRequest hook: a signed-in user is required. */
export async function requireUser(request: FastifyRequest): Promise<void> {
  if (!request.principal)
    throw new DomainError('unauthorized', { detail: 'sign in and send the access token as a Bearer token' });
}

/** Route onRequest hook: an admin is required (401 without a token, 403 for a customer). */
export async function requireAdmin(request: FastifyRequest): Promise<void> {
  await requireUser(request);
  if (request.principal?.role !== 'admin')
    throw new DomainError('forbidden', { detail: 'this operation is for admins only' });
}

/** The signed-in user's principal; only call after requireUser has run. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new DomainError('unauthorized');
  return request.principal;
}

/**
 * The set-up every admin plugin that edits reference data (catalog, tax, shipping, promo codes) shares: admins only,
 * and once a write has succeeded, `referenceChanged` runs before the answer leaves, so this process's next quote sees
 * the change (other processes hear of it from the database's change feed). A refused or failed request (401, 404,
 * 422, …) changed nothing and clears nothing.
 */
export function adminReferenceScope(app: FastifyInstance, referenceChanged: () => void): void {
  app.addHook('onRequest', requireAdmin);
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400) referenceChanged();
    return payload;
  });
}

/** What an admin plugin that edits reference data is given: what to call after a successful write. */
export interface ReferenceWriter {
  referenceChanged: () => void;
}
