import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, DeadlineExceeded, openDatabase, type Transaction } from '../src/db/client.js';
import { pgError } from '../src/db/errors.js';
import { createTestDatabase, onPostgres, type TestDatabase } from './helpers.js';

let test: TestDatabase;
/** The handle under test: on PostgreSQL one with a single connection, so that holding it stalls the next statement. */
let database: Database;

beforeAll(async () => {
  test = await createTestDatabase();
  database =
    onPostgres && test.url ? await openDatabase({ kind: 'postgres', url: test.url, poolSize: 1 }) : test.database;
  await database.db.execute(sql`create table deadline_probe (n integer not null)`);
});
afterAll(async () => {
  if (database !== test.database) await database.close();
  await test.drop();
});

const insert = { name: 'deadline_probe_insert', text: 'insert into deadline_probe (n) values ($1) returning n' };
const list = { name: 'deadline_probe_list', text: 'select n from deadline_probe order by n' };
const probes = async () => (await database.run<{ n: number }>(list, [])).map((r) => r.n);

/** Holds the handle's only connection (PostgreSQL: its pool of one; embedded: its one connection) until released. */
async function holdConnection(): Promise<() => Promise<void>> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held = () => {};
  const isHeld = new Promise<void>((resolve) => {
    held = resolve;
  });
  const transaction = database.db.transaction(async (tx) => {
    await tx.execute(sql`select 1`);
    held();
    await released;
  });
  await isHeld;
  return async () => {
    release();
    await transaction;
  };
}

describe('a transaction with a deadline', () => {
  const insertIn = (n: number) => (tx: Transaction) => tx.run<{ n: number }>(insert, [n]);

  it('begins when a connection is free, its lock waits bounded by the time left', async () => {
    const rows = await database.transaction(
      async (tx) => {
        const inserted = await insertIn(1)(tx);
        const [setting] = await tx.run<{ lock_timeout: string }>(
          { name: 'deadline_probe_lt', text: 'show lock_timeout' },
          [],
        );
        return { inserted, lockTimeout: setting?.lock_timeout };
      },
      { deadline: Date.now() + 5_000 },
    );
    expect(rows.inserted).toEqual([{ n: 1 }]);
    // PGlite has one connection and nothing to wait for; PostgreSQL's waits end with the deadline.
    if (onPostgres) expect(rows.lockTimeout).toMatch(/^(4\d{3}ms|5s)$/);
  });

  it('answers DeadlineExceeded at the deadline while no connection is free, and never runs it after', async () => {
    const release = await holdConnection();
    const started = Date.now();
    let outcome: unknown;
    try {
      outcome = await database.transaction(insertIn(2), { deadline: started + 200 }).catch((err: unknown) => err);
    } finally {
      await release();
    }
    expect(outcome).toBeInstanceOf(DeadlineExceeded);
    expect(Date.now() - started).toBeLessThan(1_000);
    // The connection, free again, comes to the abandoned transaction: it must go back unused.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await probes()).not.toContain(2);
    await expect(database.transaction(insertIn(3), { deadline: Date.now() + 5_000 })).resolves.toEqual([{ n: 3 }]);
  });

  it("waits for the database's answer once begun, past the deadline", async () => {
    const started = Date.now();
    const sleepThenInsert = {
      name: 'deadline_probe_slow',
      text: 'insert into deadline_probe (n) select $1::integer from pg_sleep(0.3) returning n',
    };
    const work = (tx: Transaction) => tx.run(sleepThenInsert, [4]);
    await expect(database.transaction(work, { deadline: started + 50 })).resolves.toEqual([{ n: 4 }]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(await probes()).toContain(4);
  });

  it.runIf(onPostgres)('rolls back with 55P03 when a lock wait outlasts the deadline', async () => {
    const holder = await test.database.db.transaction(async (tx) => {
      await tx.execute(sql`lock table deadline_probe in exclusive mode`);
      const started = Date.now();
      const outcome = await database.transaction(insertIn(5), { deadline: started + 300 }).catch((err: unknown) => err);
      return { outcome, waited: Date.now() - started };
    });
    expect(pgError(holder.outcome)?.code).toBe('55P03');
    expect(holder.waited).toBeLessThan(2_000);
    expect(await probes()).not.toContain(5);
  });
});
