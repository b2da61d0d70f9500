import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { users } from '../db/schema.js';
import { hashPassword } from './passwords.js';
import { findUserByEmail, insertUser } from './users.repository.js';

/** The demo store's admin: made at its first start when no admin is configured (docs/operations.md, Admins). */
export const DEMO_ADMIN_EMAIL = 'admin@example.com';

/** 20 characters of base64url (120 random bits): never a password anyone else knows. */
export function generatePassword(): string {
  return randomBytes(15).toString('base64url');
}

/** The demo admin as a start reports it: with its password only at the start that made it. */
export interface DemoAdmin {
  email: string;
  password?: string;
}

/**
 * The demo admin with a generated password, on a store that has no admin yet; undefined if it has one. An existing
 * account is never changed: if another process made the demo admin first, this one reports nothing.
 */
export async function createDemoAdmin(db: Db): Promise<DemoAdmin | undefined> {
  const [anyAdmin] = await db.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).limit(1);
  if (anyAdmin) return undefined;
  const password = generatePassword();
  const created = await insertUser(db, {
    email: DEMO_ADMIN_EMAIL,
    passwordHash: await hashPassword(password),
    role: 'admin',
  });
  return created ? { email: DEMO_ADMIN_EMAIL, password } : undefined;
}

/** The demo admin made at an earlier start, if it is still an admin. */
export async function existingDemoAdmin(db: Db): Promise<DemoAdmin | undefined> {
  const user = await findUserByEmail(db, DEMO_ADMIN_EMAIL);
  return user?.role === 'admin' ? { email: user.email } : undefined;
}

/**
 * What the terminal shows about the dashboard at start: the demo admin's password the one time it exists in clear
 * (printed, never logged: docs/operations.md, Logs), and afterwards how to set another.
 */
export function dashboardNotice(admin: DemoAdmin, publicBaseUrl: string): string {
  const dashboard = `Dashboard: ${publicBaseUrl}/admin/`;
  const reset = `npm run cli -- create-admin --email ${admin.email} --generate-password`;
  if (admin.password !== undefined) {
    return `${dashboard} — ${admin.email} / ${admin.password} (shown once; \`${reset}\` sets another)`;
  }
  return (
    `${dashboard} — ${admin.email} (its password was shown at the first start; to set another, stop the service `
    + `and run \`${reset}\`)`
  );
}
