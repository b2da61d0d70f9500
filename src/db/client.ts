import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { type ChangeFeed, pgliteChangeFeed, postgresChangeFeed } from './change-feed.js';
import { lockDataDir } from './data-dir-lock.js';
import { asOpenError } from './open-errors.js';
import * as schema from './schema.js';
import { pgliteTransaction, postgresTransaction, type Statement, type Transaction } from './transaction.js';

export type { RowsOf, Statement, StatementCall, StatementCalls, Transaction } from './transaction.js';

/** The Drizzle database, whichever driver is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle; it has the query API of Db. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Changes to reference data, for the caches that hold it. */
  changes: ChangeFeed;
  /** Throws if the database does not answer. */
  ping(): Promise<void>;
  /**
   * Runs one parameterised statement outside any transaction (it is its own), prepared once per
   * connection under `name` on PostgreSQL: for hot statements that do their work in one round trip.
   */
  run<R>(statement: Statement, values: unknown[]): Promise<R[]>;
  /**
   * Runs `work` in one transaction on one connection, its statements prepared once per connection on PostgreSQL;
   * commits when `work` resolves (unless it committed with `commitWith`), rolls back when it throws. BEGIN goes with
   * the first statements sent, so a transaction that sends nothing costs nothing.
   */
  transaction<T>(work: (tx: Transaction) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** The pool's connections right now; undefined on the embedded database (one connection, no pool). */
  connections(): { max: number; open: number; idle: number; waiting: number } | undefined;
  close(): Promise<void>;
}

export interface TransactionOptions {
  /**
   * Epoch ms by which the transaction must have begun: if no connection is free before it, the answer is
   * `DeadlineExceeded` at the deadline and nothing is sent (a connection that comes later goes back unused). Once
   * begun, each lock wait is bounded by the time left (`lock_timeout`, SQLSTATE 55P03 past it), and the database's
   * answer is awaited whatever the time: it alone knows whether the work committed.
   */
  deadline?: number;
}

/** A deadline passed before the transaction began: nothing of it ran. */
export class DeadlineExceeded extends Error {
  constructor() {
    super('no database connection was free before the deadline');
    this.name = 'DeadlineExceeded';
  }
}

/**
 * Runs `work`, which waits for a connection and then calls `begin()` right before it sends anything: `begin`
 * answers the milliseconds left, or undefined when the deadline has passed (then `work` must send nothing and
 * throw). If the deadline passes while `work` still waits, the answer is `DeadlineExceeded` at once.
 */
function beforeDeadline<T>(
  deadline: number | undefined,
  work: (begin: () => number | undefined) => Promise<T>,
): Promise<T> {
  if (deadline === undefined || !Number.isFinite(deadline)) return work(() => 0);
  return new Promise<T>((resolve, reject) => {
    let state: 'waiting' | 'begun' | 'abandoned' = 'waiting';
    const timer = setTimeout(
      () => {
        if (state !== 'waiting') return;
        state = 'abandoned';
        reject(new DeadlineExceeded());
      },
      Math.max(0, deadline - Date.now()),
    );
    const begin = () => {
      if (state !== 'waiting') return undefined;
      clearTimeout(timer);
      const left = Math.floor(deadline - Date.now());
      state = left >= 1 ? 'begun' : 'abandoned';
      return left >= 1 ? left : undefined;
    };
    work(begin).then(resolve, (err: unknown) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

export type DatabaseTarget =
  | { kind: 'postgres'; url: string; poolSize?: number }
  | { kind: 'pglite'; dataDir: string }
  /**
   * In memory, empty, or started from `image`: a data directory as `pgliteImage` makes it (PGlite's `dumpDataDir`),
   * which loads in about a fifth of the time a new one takes to create and migrate (the tests open hundreds).
   */
  | { kind: 'pglite-memory'; image?: Blob };

/** The extensions the migrations create (`CREATE EXTENSION`), loaded with the embedded database: pg_trgm (search). */
export const PGLITE_EXTENSIONS = { pg_trgm };

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
/** Arbitrary constant key of the advisory lock that serialises migrations across processes. */
const MIGRATION_LOCK_KEY = 7_236_184_611;

/** Opens the database and brings its schema up to date. */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  return target.kind === 'postgres' ? openPostgres(target.url, target.poolSize) : openPglite(target);
}

/** An empty embedded database, migrated, as a data directory image for `{ kind: 'pglite-memory', image }`. */
export async function pgliteImage(): Promise<Blob> {
  const client = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  try {
    await migratePglite(drizzlePglite(client), { migrationsFolder });
    // Written to the data files first: a sequence's value is otherwise read back from the log, 32 ahead of where a
    // new database's is (a first market numbered 34, not 2).
    await client.exec('checkpoint');
    return await client.dumpDataDir('none');
  } finally {
    await client.close();
  }
}

async function openPglite(
  target: { kind: 'pglite'; dataDir: string } | { kind: 'pglite-memory'; image?: Blob },
): Promise<Database> {
  let release = () => {};
  let client: PGlite;
  if (target.kind === 'pglite') {
    release = lockDataDir(target.dataDir);
    try {
      const dir = path.join(target.dataDir, 'pglite');
      mkdirSync(dir, { recursive: true });
      client = await PGlite.create(dir, { extensions: PGLITE_EXTENSIONS });
    } catch (err) {
      release();
      throw err;
    }
  } else {
    client = await PGlite.create({ extensions: PGLITE_EXTENSIONS, loadDataDir: target.image });
  }
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  let changes: ChangeFeed;
  try {
    await migratePglite(drizzlePglite(client), { migrationsFolder });
    changes = await pgliteChangeFeed(client);
  } catch (err) {
    await client.close();
    release();
    throw err;
  }
  return {
    db,
    kind: 'pglite',
    changes,
    run: async <R>(statement: { text: string }, values: unknown[]) =>
      (await client.query<R>(statement.text, values)).rows,
    // A transaction holds PGlite's one connection: the callback runs when the connection is ours.
    transaction: (work, options) =>
      beforeDeadline(options?.deadline, (begin) =>
        pgliteTransaction({
          client,
          work,
          begin: () => {
            if (begin() === undefined) throw new DeadlineExceeded();
          },
        }),
      ),
    connections: () => undefined,
    ping: async () => {
      await client.query('select 1');
    },
    close: async () => {
      try {
        await changes.close();
        if (!client.closed) await client.close();
      } finally {
        release();
      }
    },
  };
}

async function openPostgres(url: string, poolSize = 20): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5_000 });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  let changes: ChangeFeed;
  try {
    const lockClient = await pool.connect();
    try {
      await lockClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      await migrateNodePg(drizzleNodePg(lockClient), { migrationsFolder });
    } finally {
      await lockClient.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
      lockClient.release();
    }
    changes = await postgresChangeFeed(url);
  } catch (err) {
    await pool.end();
    throw asOpenError(err, url);
  }
  const db = drizzleNodePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    changes,
    run: async <R>(statement: { name: string; text: string }, values: unknown[]) =>
      (await pool.query<R & pg.QueryResultRow>({ name: statement.name, text: statement.text, values })).rows,
    transaction: (work, options) =>
      beforeDeadline(options?.deadline, async (begin) => {
        const client = await pool.connect();
        const left = begin();
        if (left === undefined) {
          client.release();
          throw new DeadlineExceeded();
        }
        const tx = postgresTransaction(client, left);
        try {
          const result = await work(tx.statements);
          await tx.finish();
          return result;
        } catch (err) {
          await tx.abandon();
          throw err;
        } finally {
          client.release(tx.broken());
        }
      }),
    connections: () => ({ max: poolSize, open: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: async () => {
      // A second close (shutdown paths may overlap) has nothing left to do; pg's pool would throw.
      if (pool.ending) return;
      await changes.close();
      await pool.end();
    },
  };
}
