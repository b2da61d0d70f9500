import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { serverSettingWarnings } from '../../src/db/server-settings.js';
import { BenchError } from './errors.js';

export const START_POSTGRES_HINT = 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start';

export interface BenchDatabase {
  name: string;
  /** Connection string of the new database, for the app's DATABASE_URL. */
  url: string;
  /** `select version()` of the server, for the report. */
  serverVersion: string;
  /** Whether the server runs autovacuum (PostgreSQL's default, and every store's): see `autovacuumWarning`. */
  autovacuum: boolean;
  drop(): Promise<void>;
}

async function connect(adminUrl: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => {});
    const reason = err instanceof Error ? err.message : String(err);
    throw new BenchError(
      `PostgreSQL is not reachable at ${redact(adminUrl)} (${reason}).\n`
        + `Start it with:\n\n  ${START_POSTGRES_HINT}\n\n`
        + 'or point BENCH_DATABASE_URL at a server where this user may create databases.',
    );
  }
  return client;
}

function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

/** Creates a throw-away database `sf_bench_<random>` on the server behind `adminUrl`. */
export async function createBenchDatabase(adminUrl: string): Promise<BenchDatabase> {
  const name = `sf_bench_${randomBytes(6).toString('hex')}`;
  const client = await connect(adminUrl);
  let serverVersion: string;
  let autovacuum: boolean;
  try {
    const { rows } = await client.query<{ version: string; autovacuum: string }>(
      "select version() as version, current_setting('autovacuum') as autovacuum",
    );
    serverVersion = rows[0]?.version ?? 'unknown';
    autovacuum = rows[0]?.autovacuum === 'on';
    await client.query(`create database "${name}"`); // name is ours: [a-z0-9_] only
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    serverVersion,
    autovacuum,
    async drop() {
      const admin = await connect(adminUrl);
      try {
        await admin.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await admin.end();
      }
    },
  };
}

/**
 * The service's own warning about a server without autovacuum (`serverSettingWarnings`; this project's VMs come with
 * it off), and what it does to a bench run (docs/benchmarks.md, "Reading the figures").
 */
export function autovacuumWarning(database: Pick<BenchDatabase, 'autovacuum'>): string | undefined {
  const [advice] = serverSettingWarnings({ autovacuum: database.autovacuum ? 'on' : 'off' });
  return (
    advice
    && `Warning: ${advice} In this run: create-shipment and receive-return, which update an order's row in place, `
      + 'slow down the longer they run.'
  );
}

/** Rows a table gave sequential scans, and how many scans (pg_stat_user_tables), by table name. */
export type SequentialReads = Map<string, { scans: number; rows: number }>;

/**
 * Tables that gave this many rows to sequential scans during one measurement, this many per scan at least, are named
 * in the report: a scan of a table of a few hundred rows is what the planner should choose.
 */
export const SEQUENTIAL_READS_WORTH_NAMING = { rows: 100_000, rowsPerScan: 300 };

/**
 * The bench database's sequential reads so far. Its server's statistics lag a second behind (a backend reports them
 * at most once a second), which a 10-second measurement hardly notices.
 */
export async function sequentialReads(
  sql: (text: string) => Promise<Record<string, unknown>[]>,
): Promise<SequentialReads> {
  const rows = await sql(
    `select relname, seq_scan::text as scans, seq_tup_read::text as rows
       from pg_stat_user_tables, pg_stat_clear_snapshot()`,
  );
  return new Map(rows.map((r) => [String(r.relname), { scans: Number(r.scans), rows: Number(r.rows) }]));
}

/**
 * What sequential scans read between two readings, of the tables that gave many rows (`SEQUENTIAL_READS_WORTH_NAMING`),
 * most first: a statement planned for a table smaller than it has grown (a prepared statement keeps its generic plan
 * until the table's statistics change, which autovacuum's ANALYZE does).
 */
export function sequentialReadsBetween(
  before: SequentialReads,
  after: SequentialReads,
): { table: string; scans: number; rows: number }[] {
  return [...after]
    .map(([table, now]) => {
      const then = before.get(table) ?? { scans: 0, rows: 0 };
      return { table, scans: now.scans - then.scans, rows: now.rows - then.rows };
    })
    .filter(
      (t) =>
        t.rows >= SEQUENTIAL_READS_WORTH_NAMING.rows && t.rows >= t.scans * SEQUENTIAL_READS_WORTH_NAMING.rowsPerScan,
    )
    .sort((a, b) => b.rows - a.rows);
}
