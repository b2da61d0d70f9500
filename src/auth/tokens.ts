import { randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Principal } from '../http/auth.js';
import { DomainError } from '../shared/errors.js';

export interface RefreshClaims {
  userId: number;
  tokenId: string;
  familyId: string;
}

const ISSUER = 'storefront';
// Distinct audiences make access and refresh tokens mutually unacceptable even though both are
// signed with the same key.
const ACCESS_AUDIENCE = 'storefront:access';
const REFRESH_AUDIENCE = 'storefront:refresh';
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

export interface TokenService {
  signAccess(principal: Principal): Promise<string>;
  signRefresh(claims: RefreshClaims): Promise<string>;
  verifyAccess(token: string): Promise<Principal>;
  verifyRefresh(token: string): Promise<RefreshClaims>;
  /** A short-lived link token: what it opens (`subject`), for one purpose only. */
  signLink(link: LinkClaims & { ttlSeconds: number }): Promise<string>;
  verifyLink(token: string, purpose: string): Promise<LinkCheck>;
}

export interface LinkClaims {
  /** What the link is for, e.g. "order-page": a token made for one purpose is refused for another. */
  purpose: string;
  subject: string;
  /** Further string claims the link carries, all covered by the signature. */
  claims?: Record<string, string>;
}

/** A link's check as a value: an expired link and a forged one get different answers. */
export type LinkCheck =
  | { ok: true; subject: string; claims: Record<string, unknown> }
  | { ok: false; reason: 'invalid' }
  /** Signed by this service but past its expiry; what it opened and how long it was valid, when it says. */
  | { ok: false; reason: 'expired'; subject?: string; lifetimeSeconds?: number };

const linkAudience = (purpose: string) => `storefront:link:${purpose}`;

function invalidToken(): DomainError {
  return new DomainError('invalid_token', { detail: 'the token is invalid, expired or of the wrong kind' });
}

/** How many verified access tokens are remembered; beyond that the oldest is forgotten. */
const VERIFIED_CACHE_SIZE = 10_000;

export function createTokenService(secret: string): TokenService {
  // Imported once: jose would otherwise import the raw secret into a CryptoKey on every call,
  // which was the largest single cost of an authenticated request.
  const key = crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
  // A verified access token stays valid until it expires (it is not revocable), so its check is
  // remembered; insertion order makes the Map a simple FIFO bound.
  const verified = new Map<string, { principal: Principal; expiresAt: number }>();

  async function verify(token: string, audience: string) {
    try {
      const { payload } = await jwtVerify(token, await key, { issuer: ISSUER, audience, algorithms: ['HS256'] });
      return payload;
    } catch (err) {
      if (err instanceof joseErrors.JOSEError || err instanceof TypeError) throw invalidToken();
      throw err;
    }
  }

  function subject(payload: { sub?: string }): number {
    const id = Number(payload.sub);
    if (!Number.isSafeInteger(id) || id <= 0) throw invalidToken();
    return id;
  }

  return {
    signAccess: async ({ userId, role }) =>
      new SignJWT({ role })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(ISSUER)
        .setAudience(ACCESS_AUDIENCE)
        .setSubject(String(userId))
        .setJti(randomUUID())
        .setIssuedAt()
        .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
        .sign(await key),

    signRefresh: async ({ userId, tokenId, familyId }) =>
      new SignJWT({ fam: familyId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(ISSUER)
        .setAudience(REFRESH_AUDIENCE)
        .setSubject(String(userId))
        .setJti(tokenId)
        .setIssuedAt()
        .setExpirationTime(`${REFRESH_TOKEN_TTL_SECONDS}s`)
        .sign(await key),

    async verifyAccess(token) {
      const known = verified.get(token);
      if (known) {
        if (known.expiresAt > Date.now()) return known.principal;
        verified.delete(token);
      }
      const payload = await verify(token, ACCESS_AUDIENCE);
      const role = payload.role;
      if (role !== 'customer' && role !== 'admin') throw invalidToken();
      const principal: Principal = { userId: subject(payload), role };
      if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value as string);
      verified.set(token, { principal, expiresAt: (payload.exp ?? 0) * 1000 });
      return principal;
    },

    signLink: async ({ purpose, subject: sub, claims, ttlSeconds }) =>
      new SignJWT({ ...claims })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(ISSUER)
        .setAudience(linkAudience(purpose))
        .setSubject(sub)
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(await key),

    async verifyLink(token, purpose) {
      try {
        // jose checks the signature before the claims: a forged token never reads as merely expired.
        const options = { issuer: ISSUER, audience: linkAudience(purpose), algorithms: ['HS256'] };
        const { payload } = await jwtVerify(token, await key, options);
        if (typeof payload.sub !== 'string') return { ok: false, reason: 'invalid' };
        return { ok: true, subject: payload.sub, claims: payload };
      } catch (err) {
        if (err instanceof joseErrors.JWTExpired) {
          // Only reached once the signature checked out, so the payload's times are the service's own.
          const { iat, exp, sub } = err.payload;
          return {
            ok: false,
            reason: 'expired',
            ...(typeof sub === 'string' ? { subject: sub } : {}),
            ...(typeof iat === 'number' && typeof exp === 'number' ? { lifetimeSeconds: exp - iat } : {}),
          };
        }
        if (err instanceof joseErrors.JOSEError || err instanceof TypeError) return { ok: false, reason: 'invalid' };
        throw err;
      }
    },

    async verifyRefresh(token) {
      const payload = await verify(token, REFRESH_AUDIENCE);
      if (typeof payload.jti !== 'string' || typeof payload.fam !== 'string') throw invalidToken();
      return { userId: subject(payload), tokenId: payload.jti, familyId: payload.fam };
    },
  };
}
