import type { Db, Tx } from '../db/client.js';
import { uniqueViolation } from '../db/errors.js';
import { runStatement } from '../db/statement-sql.js';
import { DomainError } from '../shared/errors.js';
import { handleFromName, uniqueHandle } from './handles.js';

/** The tables whose rows have a handle, unique in each, and what their rows are called in messages. */
export const HANDLED = {
  products: { table: 'products', noun: 'product', index: 'products_handle_idx' },
  categories: { table: 'categories', noun: 'category', index: 'categories_handle_idx' },
  collections: { table: 'collections', noun: 'collection', index: 'collections_handle_idx' },
} as const;
export type HandledKind = keyof typeof HANDLED;

/**
 * A handle for a new row of `kind` made from its name (src/catalog/handles.ts): the name's own when free, else the
 * first free `-2`, `-3`, …. Another writer may take it before this transaction commits: the insert then breaks the
 * unique index, and `withFreeHandle` tries again.
 */
export async function freeHandle(db: Db | Tx, kind: HandledKind, name: string): Promise<string> {
  const base = handleFromName(name, HANDLED[kind].noun);
  // A handle is [a-z0-9-] only, so `base-%` needs no escaping.
  const text = `select handle from ${HANDLED[kind].table} where handle = $1 or handle like $2`;
  const rows = await runStatement<{ handle: string }>(db, { name: `${kind}_handles_like`, text }, [base, `${base}-%`]);
  return uniqueHandle(base, new Set(rows.map((r) => r.handle)));
}

/** Whether `err` is a clash on the handle index of `kind`. */
export function handleClash(err: unknown, kind: HandledKind): boolean {
  return uniqueViolation(err)?.includes(HANDLED[kind].index) ?? false;
}

/** The 409 for a handle given by the admin that another row of the kind has. */
export function handleTaken(kind: HandledKind, handle: string): DomainError {
  return new DomainError('handle_taken', {
    detail: `another ${HANDLED[kind].noun} has the handle "${handle}"`,
    errors: [{ field: 'handle', message: 'is already in use' }],
  });
}

/**
 * Runs `write` (a whole transaction) with the handle given, or one made from the name when none is; a clash on a
 * made handle (another writer took it meanwhile) makes a new one and writes again, a clash on a given one is 409.
 */
export async function withFreeHandle<T>(
  db: Db,
  input: { kind: HandledKind; given: string | undefined; name: string },
  write: (handle: string) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    const handle = input.given ?? (await freeHandle(db, input.kind, input.name));
    try {
      return await write(handle);
    } catch (err) {
      if (!handleClash(err, input.kind)) throw err;
      if (input.given !== undefined) throw handleTaken(input.kind, handle);
      if (attempt >= 3) throw err;
    }
  }
}
