import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { onPostgres, testDatabaseUrl } from './helpers.js';

const headFolder = fileURLToPath(new URL('../src/db/migrations', import.meta.url));
/** The first version of 0010 (edited afterwards): a database migrated then runs that text of sf_place_orders. */
const OLD_COMMIT = '0e8cb93';
const scratch = mkdtempSync(path.join(tmpdir(), 'sf-migrations-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The migrations folder as it was at `commit`, written out to a scratch directory. */
function migrationsAt(commit: string): string {
  const dir = path.join(scratch, commit);
  const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: headFolder, encoding: 'utf8' }).trim();
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  for (const file of git('ls-tree', '-r', '--name-only', commit, '--', 'src/db/migrations')
    .split('\n')
    .filter(Boolean)) {
    const target = path.join(dir, path.relative('src/db/migrations', file));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, execFileSync('git', ['show', `${commit}:${file}`], { cwd: root, maxBuffer: 64 << 20 }));
  }
  return dir;
}

/** The functions (with a digest of their text) and triggers of the public schema. */
const shapeQuery = `
  select 'function ' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ') ' || md5(p.prosrc) as item
    from pg_proc p where p.pronamespace = 'public'::regnamespace
  union all
  select 'trigger ' || pg_get_triggerdef(t.oid) from pg_trigger t where not t.tgisinternal
  order by 1`;

interface Target {
  migrate(folder: string): Promise<void>;
  shape(): Promise<string[]>;
  close(): Promise<void>;
}

async function pgliteTarget(): Promise<Target> {
  const client = await PGlite.create();
  return {
    migrate: (folder) => migratePglite(drizzlePglite(client), { migrationsFolder: folder }),
    shape: async () => (await client.query<{ item: string }>(shapeQuery)).rows.map((r) => r.item),
    close: () => client.close(),
  };
}

async function postgresTarget(url: string): Promise<Target> {
  const name = `sf_migr_${process.pid}_${Math.random().toString(16).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: parsed.toString() });
  await client.connect();
  return {
    migrate: (folder) => migrateNodePg(drizzleNodePg(client), { migrationsFolder: folder }),
    shape: async () => (await client.query<{ item: string }>(shapeQuery)).rows.map((r) => r.item),
    close: async () => {
      await client.end();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

const open = () => (onPostgres && testDatabaseUrl ? postgresTarget(testDatabaseUrl) : pgliteTarget());

describe('migrations', () => {
  it(`bring a database migrated at ${OLD_COMMIT} to the same functions and triggers as a new one`, {
    timeout: 180_000,
  }, async () => {
    const [old, fresh] = [await open(), await open()];
    try {
      await old.migrate(migrationsAt(OLD_COMMIT));
      const before = await old.shape();
      expect(before.some((item) => item.startsWith('function sf_place_orders(batch jsonb)'))).toBe(true);
      await old.migrate(headFolder);
      await fresh.migrate(headFolder);
      const after = await old.shape();
      expect(after).toEqual(await fresh.shape());
      expect(after.filter((item) => /sf_place_order|sf_take_stock/.test(item))).toEqual([]);
    } finally {
      await old.close();
      await fresh.close();
    }
  });
});
