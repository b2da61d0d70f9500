// The service as `npm start` runs it (dist/main.js with the built web apps and the demo store) on a database of its
// own: for the browser tests (test/browser/harness.ts), the screenshots and the Lighthouse measurement.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { onPostgres, testDatabaseUrl } from './helpers.js';
import { capturedOutput, freePort } from './service-process.js';

const root = path.resolve(import.meta.dirname, '..');

/** The demo store's admin in browser tests (the real first start generates a password; these tests set one). */
export const ADMIN = { email: 'admin@example.com', password: 'browser-test-admin-password' };

export interface Shop {
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  /** What the service printed, for a failing test's message. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts dist/main.js (built by `npm run build`, which `npm run test:browser` runs first) with the demo store, on a
 * fresh embedded database, or a fresh PostgreSQL database when TEST_DATABASE_URL is set.
 */
export async function startShop(env: Record<string, string> = {}): Promise<Shop> {
  if (!existsSync(path.join(root, 'dist', 'main.js')) || !existsSync(path.join(root, 'dist', 'public', 'index.html'))) {
    throw new Error('dist/ is not built: run `npm run build` (npm run test:browser does)');
  }
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sf-browser-'));
  let dropDatabase = async () => {};
  const databaseEnv: Record<string, string> = {};
  if (onPostgres && testDatabaseUrl) {
    const name = `sf_browser_${process.pid}_${port}`;
    const admin = new pg.Client({ connectionString: testDatabaseUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(testDatabaseUrl);
    url.pathname = `/${name}`;
    databaseEnv.DATABASE_URL = url.toString();
    dropDatabase = async () => {
      const client = new pg.Client({ connectionString: testDatabaseUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    };
  }
  const child: ChildProcess = spawn(process.execPath, ['dist/main.js'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: 'true',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      PAYMENT_PLUGINS: 'sandbox,cash_on_delivery',
      UNPAID_ORDER_TTL_MINUTES: '0',
      ...databaseEnv,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = capturedOutput(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
    await dropDatabase();
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`the service exited at start:\n${output()}`);
    }
    const ready = await fetch(`${baseUrl}/readyz`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the service was not ready in 150 s:\n${output()}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { baseUrl, output, stop };
}
