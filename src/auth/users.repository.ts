import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import { users } from '../db/schema.js';

export type UserRow = typeof users.$inferSelect;

export async function findUserByEmail(db: Db | Tx, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return row;
}

export async function findUserById(db: Db | Tx, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** Inserts a user; returns undefined when the email is taken (unique constraint). */
export async function insertUser(db: Db | Tx, values: typeof users.$inferInsert): Promise<UserRow | undefined> {
  const [row] = await db.insert(users).values(values).onConflictDoNothing({ target: users.email }).returning();
  return row;
}

export function publicUser(user: UserRow) {
  return { id: user.id, email: user.email, first_name: user.firstName, last_name: user.lastName, role: user.role };
}
