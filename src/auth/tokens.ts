import { randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { DomainError } from '../shared/errors.js';

export type Role = 'customer' | 'admin';

/** Who is calling, as proven by a valid access token. */
export interface Principal {
  userId: number;
  role: Role;
}

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
}

function invalidToken(): DomainError {
  return new DomainError('invalid_token', { detail: 'the token is invalid, expired or of the wrong kind' });
}

export function createTokenService(secret: string): TokenService {
  const key = new TextEncoder().encode(secret);

  async function verify(token: string, audience: string) {
    try {
      const { payload } = await jwtVerify(token, key, { issuer: ISSUER, audience, algorithms: ['HS256'] });
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
    signAccess: ({ userId, role }) =>
      new SignJWT({ role })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(ISSUER)
        .setAudience(ACCESS_AUDIENCE)
        .setSubject(String(userId))
        .setJti(randomUUID())
        .setIssuedAt()
        .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
        .sign(key),

    signRefresh: ({ userId, tokenId, familyId }) =>
      new SignJWT({ fam: familyId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(ISSUER)
        .setAudience(REFRESH_AUDIENCE)
        .setSubject(String(userId))
        .setJti(tokenId)
        .setIssuedAt()
        .setExpirationTime(`${REFRESH_TOKEN_TTL_SECONDS}s`)
        .sign(key),

    async verifyAccess(token) {
      const payload = await verify(token, ACCESS_AUDIENCE);
      const role = payload.role;
      if (role !== 'customer' && role !== 'admin') throw invalidToken();
      return { userId: subject(payload), role };
    },

    async verifyRefresh(token) {
      const payload = await verify(token, REFRESH_AUDIENCE);
      if (typeof payload.jti !== 'string' || typeof payload.fam !== 'string') throw invalidToken();
      return { userId: subject(payload), tokenId: payload.jti, familyId: payload.fam };
    },
  };
}
