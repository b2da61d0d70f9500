import { type SQL, sql } from 'drizzle-orm';
import type { Db, Statement, Tx } from './client.js';

/**
 * A fixed statement (text with `$1`, `$2`… placeholders, as `Database.run` and `RunStatement` take it) as Drizzle
 * SQL with its values bound, so the same statement can run inside a Drizzle transaction. The text must not hold `$n`
 * outside placeholders (in a string literal, say).
 */
export function boundStatement(statement: Pick<Statement, 'text'>, values: readonly unknown[]): SQL {
  const parts = statement.text.split(/\$(\d+)/);
  const chunks: SQL[] = [];
  parts.forEach((part, i) => {
    if (i % 2 === 0) {
      if (part !== '') chunks.push(sql.raw(part));
      return;
    }
    const n = Number(part);
    if (n < 1 || n > values.length) throw new RangeError(`statement refers to $${n}; ${values.length} values given`);
    chunks.push(sql`${values[n - 1]}`);
  });
  return sql.join(chunks);
}

/** Runs a fixed statement through Drizzle (in a transaction, or alone on `db`) and answers its rows. */
export async function runStatement<R>(db: Db | Tx, statement: Statement, values: readonly unknown[]): Promise<R[]> {
  const result = await db.execute(boundStatement(statement, values));
  // Both drivers (node-postgres, PGlite) answer an object with `rows`; Drizzle types it per driver.
  return (result as unknown as { rows: R[] }).rows;
}
