import { and, asc, count, eq, ne } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { type AddressSnapshot, addresses, users } from '../db/schema.js';
import { DomainError } from '../shared/errors.js';

export type AddressRow = typeof addresses.$inferSelect;

/** A stored address as the wire and an order's snapshot spell it. */
export function addressSnapshot(row: AddressRow): AddressSnapshot {
  return {
    first_name: row.firstName,
    last_name: row.lastName,
    street_address: row.streetAddress,
    city: row.city,
    postal_code: row.postalCode,
    state: row.state,
    country: row.country,
    email: row.email,
    phone_number: row.phoneNumber,
  };
}
export type AddressValues = Omit<typeof addresses.$inferInsert, 'id' | 'userId' | 'createdAt' | 'updatedAt'>;

export const MAX_ADDRESSES_PER_USER = 50;

export function listAddresses(db: Db, userId: number): Promise<AddressRow[]> {
  return db.select().from(addresses).where(eq(addresses.userId, userId)).orderBy(asc(addresses.id));
}

/** A user's own address; another user's id is indistinguishable from a missing one. */
export async function findOwnAddress(db: Db, userId: number, id: number): Promise<AddressRow | undefined> {
  const [row] = await db
    .select()
    .from(addresses)
    .where(and(eq(addresses.id, id), eq(addresses.userId, userId)));
  return row;
}

function notFound(id: number): DomainError {
  return new DomainError('not_found', { detail: `address ${id} not found` });
}

/**
 * Adds an address. The user row is locked for the transaction so the per-user cap and the single
 * default hold under concurrent requests. A user's first address becomes the default.
 */
export function createAddress(db: Db, userId: number, values: AddressValues): Promise<AddressRow> {
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const [counted] = await tx.select({ n: count() }).from(addresses).where(eq(addresses.userId, userId));
    const existing = counted?.n ?? 0;
    if (existing >= MAX_ADDRESSES_PER_USER) {
      throw new DomainError('address_limit_reached', {
        detail: `a user can keep at most ${MAX_ADDRESSES_PER_USER} addresses`,
      });
    }
    const isDefault = values.isDefault === true || existing === 0;
    if (isDefault) await tx.update(addresses).set({ isDefault: false }).where(eq(addresses.userId, userId));
    const [row] = await tx
      .insert(addresses)
      .values({ ...values, userId, isDefault })
      .returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  });
}

export function updateAddress(
  db: Db,
  { userId, id, values }: { userId: number; id: number; values: Partial<AddressValues> },
): Promise<AddressRow> {
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    if (values.isDefault === true) {
      await tx
        .update(addresses)
        .set({ isDefault: false })
        .where(and(eq(addresses.userId, userId), ne(addresses.id, id)));
    }
    const [row] = await tx
      .update(addresses)
      .set({ ...values, updatedAt: new Date() })
      .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
      .returning();
    if (!row) throw notFound(id);
    return row;
  });
}

/** Deletes an address; when it was the default, the oldest remaining address becomes the default. */
export function deleteAddress(db: Db, userId: number, id: number): Promise<void> {
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const [row] = await tx
      .delete(addresses)
      .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
      .returning();
    if (!row) throw notFound(id);
    if (row.isDefault) {
      const [next] = await tx
        .select({ id: addresses.id })
        .from(addresses)
        .where(eq(addresses.userId, userId))
        .orderBy(asc(addresses.id))
        .limit(1);
      if (next) await tx.update(addresses).set({ isDefault: true }).where(eq(addresses.id, next.id));
    }
  });
}
