import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, DeadlineExceeded, openDatabase } from '../src/db/client.js';
import { createTestDatabase, onPostgres, type TestDatabase } from './helpers.js';

let test: TestDatabase;
/** The handle under test: on PostgreSQL one with a single connection, so that holding it stalls the next statement. */
let database: Database;

beforeAll(async () => {
  test = await createTestDatabase();
  database = onPostgres && test.url
    ? await openDatabase({ kind: 'postgres', url: test.url, poolSize: 1 })
    : test.database;
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
  const released = new Promise<void>((resolve) => { release = resolve; });
  let held = () => {};
  const isHeld = new Promise<void>((resolve) => { held = resolve; });
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

describe('runBefore', () => {
  it('runs the statement with the milliseconds left when a connection is free', async () => {
    let given = 0;
    const rows = await database.runBefore<{ n: number }>(Date.now() + 5_000, insert, (left) => {
      given = left;
      return [1];
    });
    expect(rows).toEqual([{ n: 1 }]);
    expect(given).toBeGreaterThan(4_000);
    expect(given).toBeLessThanOrEqual(5_000);
  });

  it('answers DeadlineExceeded at the deadline while no connection is free, and never runs it after', async () => {
    const release = await holdConnection();
    const started = Date.now();
    let outcome: unknown;
    try {
      outcome = await database.runBefore(started + 200, insert, () => [2]).catch((err: unknown) => err);
    } finally {
      await release();
    }
    expect(outcome).toBeInstanceOf(DeadlineExceeded);
    expect(Date.now() - started).toBeLessThan(1_000);
    // The connection, free again, comes to the abandoned statement: it must go back unused.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await probes()).not.toContain(2);
    await expect(database.runBefore(Date.now() + 5_000, insert, () => [3])).resolves.toEqual([{ n: 3 }]);
  });

  it('waits for the database\'s answer to a statement it sent, past the deadline', async () => {
    const started = Date.now();
    const sleepThenInsert = {
      name: 'deadline_probe_slow',
      text: 'insert into deadline_probe (n) select $1::integer from pg_sleep(0.3) returning n',
    };
    await expect(database.runBefore(started + 50, sleepThenInsert, () => [4])).resolves.toEqual([{ n: 4 }]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(await probes()).toContain(4);
  });
});
