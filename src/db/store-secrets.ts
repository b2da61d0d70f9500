import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import type { Database } from './client.js';

const MIN_LENGTH = 32;

/**
 * Inserts the candidate unless the name has a value, and returns the value that stands, in one
 * statement: two processes starting together both get the winner's value. DO UPDATE (a no-op)
 * rather than DO NOTHING because only it returns the row another transaction just committed.
 */
const UPSERT_SECRET = {
  name: 'sf_store_secret',
  text: `insert into store_secrets (name, value) values ($1, $2)
         on conflict (name) do update set value = store_secrets.value
         returning value`,
};

/** Where versions before secrets moved into the database kept them. */
function legacyFile(dataDir: string, name: string): string {
  return path.join(dataDir, 'secrets', name);
}

function readLegacySecret(file: string): string | undefined {
  let value: string;
  try {
    value = readFileSync(file, 'utf8').trim();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw err;
  }
  return value.length >= MIN_LENGTH ? value : undefined;
}

/**
 * The store's secret `name`: 256 random bits created once in its database, the same for every
 * process on that database and different for every other store.
 *
 * A value an earlier version kept in `DATA_DIR/secrets/<name>` is taken over when the database has
 * none yet, so signed-in users stay signed in. The file is then renamed: another store started from
 * the same DATA_DIR (embedded and PostgreSQL from one checkout) makes a key of its own instead.
 */
export async function storeSecret(database: Database, options: { name: string; dataDir: string }): Promise<string> {
  const file = legacyFile(options.dataDir, options.name);
  const legacy = readLegacySecret(file);
  const candidate = legacy ?? randomBytes(32).toString('base64url');
  const [row] = await database.run<{ value: string }>(UPSERT_SECRET, [options.name, candidate]);
  if (!row) throw new Error(`the store secret ${options.name} could not be stored`);
  if (legacy !== undefined && row.value === legacy) {
    try {
      renameSync(file, `${file}.moved-to-database`);
    } catch {
      // A read-only DATA_DIR keeps the file; the database's value is the one used either way.
    }
  }
  return row.value;
}
