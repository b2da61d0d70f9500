import { sql } from 'drizzle-orm';
import { escapeLiteral } from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Database, openDatabase, type Statement, type Transaction } from '../src/db/client.js';
import { pgError } from '../src/db/errors.js';
import { sqlLiteral } from '../src/db/sql-literal.js';
import { isConflict } from '../src/placement/placement.write.js';
import { createTestDatabase, onPostgres, type TestDatabase } from './helpers.js';

let test: TestDatabase;
/** On PostgreSQL a handle with one connection: each transaction gets the connection the one before it used. */
let database: Database;

beforeAll(async () => {
  test = await createTestDatabase();
  database =
    onPostgres && test.url ? await openDatabase({ kind: 'postgres', url: test.url, poolSize: 1 }) : test.database;
  await database.db.execute(sql`create table together_probe (n integer primary key, note text)`);
});
afterAll(async () => {
  if (database !== test.database) await database.close();
  await test.drop();
});
beforeEach(async () => {
  await database.db.execute(sql`delete from together_probe`);
});

const insert: Statement = {
  name: 'together_insert',
  text: 'insert into together_probe (n, note) values ($1, $2) returning n',
};
const list: Statement = { name: 'together_list', text: 'select n from together_probe order by n' };
/** Fails with division by zero (22012) when $1 is 0. */
const divide: Statement = { name: 'together_divide', text: 'select 1 / $1::integer as q' };
const backendPid: Statement = { name: 'together_pid', text: 'select pg_backend_pid() as pid' };
const stored = async () => (await database.run<{ n: number }>(list, [])).map((r) => r.n);

describe('statements sent together in a transaction', () => {
  it("answers each one's rows in order, each seeing those before it; a call left undefined answers none", async () => {
    const answers = await database.transaction((tx) =>
      tx.runTogether<[{ n: number }, { n: number }, { n: number }, { n: number }]>([
        { statement: insert, values: [1, 'one'] },
        undefined,
        { statement: insert, values: [2, null] },
        { statement: list, values: [] },
      ]),
    );
    expect(answers).toEqual([[{ n: 1 }], [], [{ n: 2 }], [{ n: 1 }, { n: 2 }]]);
    expect(await stored()).toEqual([1, 2]);
  });

  it('commits with the last statements, after which nothing more can be sent in the transaction', async () => {
    let afterCommit: unknown;
    const written = await database.transaction(async (tx) => {
      await tx.runTogether([{ statement: insert, values: [1, 'first'] }]);
      const [rows] = await tx.commitWith<[{ n: number }]>([{ statement: insert, values: [2, 'with the commit'] }]);
      afterCommit = await tx.run(list, []).catch((err: unknown) => err);
      return rows;
    });
    expect(written).toEqual([{ n: 2 }]);
    expect(afterCommit).toBeInstanceOf(Error);
    expect((afterCommit as Error).message).toMatch(/transaction has ended/);
    expect(await stored()).toEqual([1, 2]);
  });

  it('rolls back everything when one fails, runs none after it, and the connection serves the next', async () => {
    const [before] = await database.transaction((tx) => tx.run<{ pid: number }>(backendPid, []));
    const outcome = await database
      .transaction((tx) =>
        tx.runTogether([
          { statement: insert, values: [1, 'before the failure'] },
          { statement: divide, values: [0] },
          { statement: insert, values: [2, 'after the failure'] },
        ]),
      )
      .catch((err: unknown) => err);
    expect(pgError(outcome)?.code).toBe('22012');
    expect(await stored()).toEqual([]);
    // The same connection, its statements still prepared, takes the next transaction.
    const answers = await database.transaction((tx) =>
      tx.runTogether<[{ n: number }, { q: number }, { pid: number }]>([
        { statement: insert, values: [3, 'next'] },
        { statement: divide, values: [1] },
        { statement: backendPid, values: [] },
      ]),
    );
    expect(answers.slice(0, 2)).toEqual([[{ n: 3 }], [{ q: 1 }]]);
    if (onPostgres) expect(answers[2]).toEqual([before]);
    expect(await stored()).toEqual([3]);
  });

  it('rolls back when a statement sent with the commit fails, even if the work catches it', async () => {
    const outcome = await database
      .transaction(async (tx) => {
        await tx.runTogether([{ statement: insert, values: [1, 'first message'] }]);
        await tx
          .commitWith([
            { statement: insert, values: [2, 'with the commit'] },
            { statement: insert, values: [1, 'a duplicate key'] },
          ])
          .catch(() => {});
        return 'the work carried on';
      })
      .catch((err: unknown) => err);
    expect(pgError(outcome)?.code).toBe('23505');
    expect(await stored()).toEqual([]);
    await database.transaction((tx) => tx.commitWith([{ statement: insert, values: [4, 'next'] }]));
    expect(await stored()).toEqual([4]);
  });

  it('keeps the connection usable when the message that prepared its statements failed', async () => {
    // Statements this connection has never prepared: their PREPAREs go in the failing message.
    const fresh = (name: string, text: string): Statement => ({ name: `together_fresh_${name}`, text });
    const insertFresh = fresh('insert', insert.text);
    const failFresh = fresh('divide', divide.text);
    const outcome = await database
      .transaction((tx) =>
        tx.runTogether([
          { statement: insertFresh, values: [1, null] },
          { statement: failFresh, values: [0] },
        ]),
      )
      .catch((err: unknown) => err);
    expect(pgError(outcome)?.code).toBe('22012');
    await database.transaction((tx) =>
      tx.commitWith([
        { statement: insertFresh, values: [2, null] },
        { statement: failFresh, values: [2] },
      ]),
    );
    expect(await stored()).toEqual([2]);
  });

  it('sends nothing and commits nothing for a transaction whose calls are all left undefined', async () => {
    const answers = await database.transaction((tx) => tx.commitWith<[unknown, unknown]>([undefined, undefined]));
    expect(answers).toEqual([[], []]);
  });
});

describe('values sent as literals', () => {
  const hostileTexts = [
    "it's",
    "''",
    '\\',
    "\\'",
    "\\\\'); drop table together_probe; --",
    '"double" and \\"escaped\\"',
    '$$ dollar $tag$',
    "E'\\x41'",
    'new\nline\ttab\rreturn',
    'émoji 🛒 and 漢字',
    '',
    'NULL',
    '{not,an,array}',
  ];
  const roundTrip: Statement = {
    name: 'together_round_trip',
    text: 'select $1::text as text, $2::text[] as texts, $3::jsonb as json, $4::integer[] as ints, $5::boolean as yes',
  };

  it.each(hostileTexts)('carries %j unchanged, alone, in an array and in JSON', async (text) => {
    const values = [text, [text, null, 'NULL', ',', '{}', text], JSON.stringify({ text, list: [text] }), [1, -2], true];
    const [[together]] = await database.transaction((tx) =>
      tx.runTogether<[Record<string, unknown>]>([{ statement: roundTrip, values }]),
    );
    expect(together).toEqual({
      text,
      texts: [text, null, 'NULL', ',', '{}', text],
      json: { text, list: [text] },
      ints: [1, -2],
      yes: true,
    });
    // As the same statement answers with its values sent as parameters.
    const [alone] = await database.run<Record<string, unknown>>(roundTrip, values);
    expect(together).toEqual(alone);
  });

  it.each(hostileTexts)('writes %j as a literal PostgreSQL reads back unchanged', async (text) => {
    // The same constant node-postgres's escapeLiteral writes (it puts a space before E'...').
    expect(sqlLiteral(text)).toBe(escapeLiteral(text).trim());
    // Both drivers answer { rows }; Drizzle's type for it differs between them.
    const { rows } = (await database.db.execute(
      sql.raw(`select ${sqlLiteral(text)}::text as text, ${sqlLiteral([[text], [null]])}::text[] as texts`),
    )) as unknown as { rows: unknown[] };
    expect(rows).toEqual([{ text, texts: [[text], [null]] }]);
  });

  it('writes null as NULL, numbers, bigints, booleans and dates as their text, objects as JSON', () => {
    expect(sqlLiteral(null)).toBe('NULL');
    expect(sqlLiteral(undefined)).toBe('NULL');
    expect(sqlLiteral(-12.5)).toBe("'-12.5'");
    expect(sqlLiteral(2n ** 70n)).toBe("'1180591620717411303424'");
    expect(sqlLiteral(false)).toBe("'false'");
    expect(sqlLiteral(new Date('2026-11-23T10:00:00Z'))).toBe("'2026-11-23T10:00:00.000Z'");
    expect(sqlLiteral({ a: "it's" })).toBe(`'{"a":"it''s"}'`);
    expect(sqlLiteral([])).toBe("'{}'");
  });

  it('refuses NUL, non-finite numbers and values without a text before anything is sent', async () => {
    expect(() => sqlLiteral('a\u0000b')).toThrow(TypeError);
    expect(() => sqlLiteral(['a\u0000b'])).toThrow(TypeError);
    expect(() => sqlLiteral(Number.NaN)).toThrow(TypeError);
    expect(() => sqlLiteral(Number.POSITIVE_INFINITY)).toThrow(TypeError);
    expect(() => sqlLiteral(() => 1)).toThrow(TypeError);
    expect(() => sqlLiteral(Symbol('s'))).toThrow(TypeError);
    expect(() => sqlLiteral(new Uint8Array([1]))).toThrow(TypeError);
    const outcome = await database
      .transaction((tx) =>
        tx.runTogether([
          { statement: insert, values: [1, 'fine'] },
          { statement: insert, values: [2, 'a\u0000b'] },
        ]),
      )
      .catch((err: unknown) => err);
    expect(outcome).toBeInstanceOf(Error);
    const withCommit = await database
      .transaction(async (tx) => {
        await tx.runTogether([{ statement: insert, values: [3, 'fine'] }]);
        return tx.commitWith([{ statement: insert, values: [4, 'a\u0000b'] }]);
      })
      .catch((err: unknown) => err);
    expect(withCommit).toBeInstanceOf(Error);
    await database.transaction((tx) => tx.commitWith([{ statement: insert, values: [5, 'next'] }]));
    expect(await stored()).toEqual([5]);
  });
});

describe.runIf(onPostgres)('waits and conflicts in statements sent together', () => {
  const lockRow: Statement = { name: 'together_lock', text: 'select n from together_probe where n = $1 for update' };

  it('rolls back with 55P03 when a lock wait outlasts the deadline', async () => {
    await database.transaction((tx) => tx.commitWith([{ statement: insert, values: [1, 'held'] }]));
    const holder = await test.database.db.transaction(async (held) => {
      await held.execute(sql`select n from together_probe where n = 1 for update`);
      const started = Date.now();
      const outcome = await database
        .transaction(
          (tx) =>
            tx.runTogether([
              { statement: insert, values: [2, 'before the wait'] },
              { statement: lockRow, values: [1] },
            ]),
          { deadline: started + 300 },
        )
        .catch((err: unknown) => err);
      return { outcome, waited: Date.now() - started };
    });
    expect(pgError(holder.outcome)?.code).toBe('55P03');
    expect(holder.waited).toBeLessThan(2_000);
    expect(await stored()).toEqual([1]);
  });

  it('answers a deadlock as a conflict (40P01), rolled back', async () => {
    await database.transaction((tx) =>
      tx.commitWith([
        { statement: insert, values: [1, null] },
        { statement: insert, values: [2, null] },
      ]),
    );
    // Two connections of the shared handle, each holding one row and then asking for the other's.
    let holding = 0;
    let bothHold = () => {};
    const bothHolding = new Promise<void>((resolve) => {
      bothHold = resolve;
    });
    const crossing = (first: number, second: number) => (tx: Transaction) =>
      tx.runTogether([{ statement: lockRow, values: [first] }]).then(async () => {
        holding += 1;
        if (holding === 2) bothHold();
        await bothHolding;
        return tx.commitWith([
          { statement: lockRow, values: [second] },
          { statement: insert, values: [10 + first, null] },
        ]);
      });
    const outcomes = await Promise.allSettled([
      test.database.transaction(crossing(1, 2)),
      test.database.transaction(crossing(2, 1)),
    ]);
    const failures = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
    expect(failures).toHaveLength(1);
    expect(pgError(failures[0])?.code).toBe('40P01');
    expect(isConflict(failures[0])).toBe(true);
    expect((await stored()).filter((n) => n > 10)).toHaveLength(1);
  });
});
