import { randomUUID } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { refreshTokens, users } from '../db/schema.js';
import { DomainError, invalidField } from '../shared/errors.js';
import { normaliseEmail } from './email.js';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './passwords.js';
import { REFRESH_TOKEN_TTL_SECONDS, type TokenService } from './tokens.js';
import { findUserByEmail, findUserById, insertUser, type UserRow } from './users.repository.js';

export interface AuthDeps {
  db: Db;
  tokens: TokenService;
}

export interface Session {
  user: UserRow;
  access: string;
  refresh: string;
}

export const PASSWORD_MIN_LENGTH = 8;

async function issueTokens(deps: AuthDeps, user: UserRow, familyId: string = randomUUID()) {
  const tokenId = randomUUID();
  await deps.db.insert(refreshTokens).values({
    id: tokenId,
    userId: user.id,
    familyId,
    expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_SECONDS * 1000),
  });
  const [access, refresh] = await Promise.all([
    deps.tokens.signAccess({ userId: user.id, role: user.role }),
    deps.tokens.signRefresh({ userId: user.id, tokenId, familyId }),
  ]);
  return { access, refresh };
}

export async function signUp(
  deps: AuthDeps,
  input: { email: string; password: string; firstName?: string; lastName?: string },
): Promise<Session> {
  const email = normaliseEmail(input.email);
  const user = await insertUser(deps.db, {
    email,
    passwordHash: await hashPassword(input.password),
    firstName: input.firstName?.trim() ?? '',
    lastName: input.lastName?.trim() ?? '',
  });
  if (!user)
    throw new DomainError('email_taken', {
      detail: 'an account with this email already exists',
      errors: [{ field: 'email', message: 'is already registered' }],
    });
  return { user, ...(await issueTokens(deps, user)) };
}

export async function logIn(deps: AuthDeps, input: { email: string; password: string }): Promise<Session> {
  const email = input.email.trim().toLowerCase();
  const user = await findUserByEmail(deps.db, email);
  // An unknown email costs one hash too, so timing does not tell which emails exist.
  const ok = user ? await verifyPassword(user.passwordHash, input.password) : await verifyAgainstDummy(input.password);
  if (!user || !ok) throw new DomainError('invalid_credentials', { detail: 'the email or password is wrong' });
  return { user, ...(await issueTokens(deps, user)) };
}

/**
 * Rotates a refresh token: the presented token is marked used in the same statement that checks
 * it is unused, so two concurrent refreshes with one token cannot both succeed. Presenting a used
 * token again means it leaked, and revokes every token of its family.
 */
export async function refreshSession(deps: AuthDeps, token: string): Promise<{ access: string; refresh: string }> {
  const claims = await deps.tokens.verifyRefresh(token);
  const now = new Date();
  const [row] = await deps.db
    .update(refreshTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(refreshTokens.id, claims.tokenId),
        isNull(refreshTokens.usedAt),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, now),
      ),
    )
    .returning({ userId: refreshTokens.userId, familyId: refreshTokens.familyId });
  if (!row) {
    await deps.db
      .update(refreshTokens)
      .set({ revokedAt: now })
      .where(and(eq(refreshTokens.familyId, claims.familyId), isNull(refreshTokens.revokedAt)));
    throw new DomainError('invalid_token', {
      detail: 'the refresh token was already used, revoked or has expired; sign in again',
    });
  }
  const user = await findUserById(deps.db, row.userId);
  if (!user) throw new DomainError('invalid_token', { detail: 'the account no longer exists' });
  return issueTokens(deps, user, row.familyId);
}

/**
 * Makes sure an admin with this email exists and can sign in with this password: creates it,
 * or promotes the existing user and resets its password when the given one does not match.
 */
export async function ensureAdmin(
  db: Db,
  input: { email: string; password: string },
): Promise<{ user: UserRow; created: boolean }> {
  const email = normaliseEmail(input.email);
  if (input.password.length < PASSWORD_MIN_LENGTH)
    throw invalidField('password', `must be at least ${PASSWORD_MIN_LENGTH} characters long`);
  const existing = await findUserByEmail(db, email);
  if (!existing) {
    const created = await insertUser(db, { email, passwordHash: await hashPassword(input.password), role: 'admin' });
    if (created) return { user: created, created: true };
    return ensureAdmin(db, input); // created concurrently by another process
  }
  const passwordMatches = await verifyPassword(existing.passwordHash, input.password);
  const [user] = await db
    .update(users)
    .set({
      role: 'admin',
      updatedAt: new Date(),
      ...(passwordMatches ? {} : { passwordHash: await hashPassword(input.password) }),
    })
    .where(eq(users.id, existing.id))
    .returning();
  return { user: user ?? existing, created: false };
}
