import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserByEmail } from '../src/auth/users.repository.js';
import { verifyPassword } from '../src/auth/passwords.js';
import { openDatabase } from '../src/db/client.js';
import { createTestDatabase, onPostgres, type TestDatabase, testDatabaseUrl } from './helpers.js';
import { freePort, type Running, run, waitReady } from './service-process.js';

// These tests run the service as a real process (test/service-process.ts), to check what only a process shows:
// start-up refusal, the data-dir lock, signals.

/** The first match of `pattern` in the process's output, once it has been written. */
async function waitForOutput(proc: Running, pattern: RegExp): Promise<RegExpExecArray> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const match = pattern.exec(proc.output());
    if (match) return match;
    if (proc.child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no ${pattern} in: ${proc.output()}`);
}

async function logIn(port: number, credentials: { email: string; password: string }) {
  const res = await fetch(`http://127.0.0.1:${port}/user/storefront/api/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  return { status: res.status, body: (await res.json()) as { user?: { role: string } } };
}

const dirs: string[] = [];
function dataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sf-proc-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('start-up configuration', () => {
  it('stops with a message naming a wrong variable', async () => {
    const proc = run('main.ts', { STORE_CURRENCY: 'XYZ', DATA_DIR: dataDir() });
    expect(await proc.exited).toBe(1);
    expect(proc.output()).toContain('Configuration error: STORE_CURRENCY');
  });
});

describe('a database that cannot be opened', () => {
  const password = 'pw-never-printed';

  /** The process's whole output, which must be one line. */
  async function oneLine(proc: Running): Promise<string> {
    expect(await proc.exited).toBe(1);
    const lines = proc.output().trim().split('\n');
    expect(lines, proc.output()).toHaveLength(1);
    expect(proc.output()).not.toContain(password);
    return lines[0] ?? '';
  }

  it('stops the service and the CLI with one line naming a refused connection and the masked URL', async () => {
    const port = await freePort();
    const url = `postgres://shop:${password}@127.0.0.1:${port}/shop`;
    const shown = `DATABASE_URL=postgres://shop:****@127.0.0.1:${port}/shop`;
    const service = await oneLine(run('main.ts', { DATABASE_URL: url, DATA_DIR: dataDir() }));
    expect(service).toBe(
      `Cannot start: cannot connect to PostgreSQL at 127.0.0.1:${port}: `
        + `connection refused (is the server running there?); ${shown}`,
    );
    const cli = await oneLine(run('cli.ts', { DATABASE_URL: url, DATA_DIR: dataDir() }, ['migrate']));
    expect(cli).toMatch(/^Cannot open the database: cannot connect to PostgreSQL .* connection refused/);
    expect(cli).toContain(shown);
  }, 60_000);

  it.skipIf(!onPostgres)(
    'stops the service and the CLI with one line naming a missing database',
    async () => {
      const url = new URL(testDatabaseUrl ?? '');
      url.pathname = `/sf_missing_${process.pid}_${Date.now()}`;
      url.password = password;
      const shown = new URL(url);
      shown.password = '****';
      const service = await oneLine(run('main.ts', { DATABASE_URL: url.toString(), DATA_DIR: dataDir() }));
      expect(service).toMatch(/^Cannot start: PostgreSQL at [^ ]+: database "sf_missing_\d+_\d+" does not exist/);
      expect(service).toContain('(SQLSTATE 3D000); create it first; ');
      expect(service).toContain(`DATABASE_URL=${shown.toString()}`);
      const args = ['create-admin', '--email', 'a@example.com', '--password', 'long enough'];
      const cli = await oneLine(run('cli.ts', { DATABASE_URL: url.toString(), DATA_DIR: dataDir() }, args));
      expect(cli).toMatch(/^Cannot open the database: PostgreSQL at .* does not exist/);
    },
    60_000,
  );
});

describe.skipIf(onPostgres)('the embedded database', () => {
  it('refuses a second process on one DATA_DIR, shuts down cleanly on SIGTERM, and recovers a stale lock', async () => {
    const dir = dataDir();
    const port = await freePort();
    const env = {
      DATA_DIR: dir,
      PORT: String(port),
      ADMIN_EMAIL: 'owner@example.com',
      ADMIN_PASSWORD: 'owner password',
    };
    const first = run('main.ts', env);
    await waitReady(port, first);

    const login = await fetch(`http://127.0.0.1:${port}/user/storefront/api/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@example.com', password: 'owner password' }),
    });
    expect(((await login.json()) as { user: { role: string } }).user.role).toBe('admin');

    const second = run('main.ts', { ...env, PORT: String(await freePort()) });
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(/in use by process \d+/);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.output()).toContain('stopped');
    expect(existsSync(path.join(dir, 'storefront.lock'))).toBe(false);
    expect(first.output()).toContain('customer emails not sent (SMTP_URL not set)');
    // An admin is configured (ADMIN_EMAIL): no demo admin is made, none is announced.
    expect(first.output()).not.toContain('admin@example.com');

    // A killed process leaves its lock behind; the next start takes it over.
    const killed = run('main.ts', env);
    await waitReady(port, killed);
    killed.child.kill('SIGKILL');
    await killed.exited;
    expect(existsSync(path.join(dir, 'storefront.lock'))).toBe(true);
    // With SMTP_URL: where emails go is logged at start, its password never.
    const third = run('main.ts', { ...env, SMTP_URL: 'smtp://shop:pw-smtp-never-printed@127.0.0.1:2525' });
    await waitReady(port, third);
    third.child.kill('SIGINT');
    expect(await third.exited).toBe(0);
    expect(third.output()).toContain('"smtp":"smtp://127.0.0.1:2525"');
    expect(third.output()).toContain('customer emails sent over SMTP');
    expect(third.output()).not.toContain('pw-smtp-never-printed');
  }, 120_000);

  it("makes the demo store's admin with a generated password, shown once at the first start, never again", async () => {
    const dir = dataDir();
    const port = await freePort();
    const env = { DATA_DIR: dir, PORT: String(port), SEED_DEMO: 'true', ADMIN_EMAIL: '', ADMIN_PASSWORD: '' };
    const first = run('main.ts', env);
    await waitReady(port, first);
    const shown = await waitForOutput(
      first,
      /Dashboard: (\S+) — admin@example\.com \/ (\S+) \(shown once; `(.+)` sets/,
    );
    const [, dashboard, password = '', reset] = shown;
    expect(dashboard).toBe(`http://127.0.0.1:${port}/admin/`);
    expect(password).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(reset).toBe('npm run cli -- create-admin --email admin@example.com --generate-password');
    const signedIn = await logIn(port, { email: 'admin@example.com', password });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user?.role).toBe('admin');
    // On the terminal once, in no log line.
    expect(first.output().split(password)).toHaveLength(2);
    const logLines = first
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'));
    expect(logLines.length).toBeGreaterThan(3);
    expect(logLines.join('\n')).not.toContain(password);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = run('main.ts', env);
    await waitReady(port, second);
    const notice = await waitForOutput(second, /Dashboard: .*\n/);
    expect(notice[0]).toContain('admin@example.com (its password was shown at the first start; to set another');
    expect(second.output()).not.toContain(password);
    expect((await logIn(port, { email: 'admin@example.com', password })).status).toBe(200);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);

    // The reset the notice names: a new generated password, shown once by the command.
    const cli = run('cli.ts', { DATA_DIR: dir }, [
      'create-admin',
      '--email',
      'admin@example.com',
      '--generate-password',
    ]);
    expect(await cli.exited, cli.output()).toBe(0);
    const fresh = /password: ([A-Za-z0-9_-]{20}) \(shown once\)/.exec(cli.output())?.[1] ?? '';
    expect(cli.output()).toContain('updated admin admin@example.com');
    const database = await openDatabase({ kind: 'pglite', dataDir: dir });
    try {
      const user = await findUserByEmail(database.db, 'admin@example.com');
      expect(await verifyPassword(user?.passwordHash ?? '', fresh)).toBe(true);
      expect(await verifyPassword(user?.passwordHash ?? '', password)).toBe(false);
    } finally {
      await database.close();
    }
  }, 180_000);

  it('explains create-admin, and how it resets a password, with --help', async () => {
    const help = run('cli.ts', { DATA_DIR: dataDir() }, ['create-admin', '--help']);
    expect(await help.exited).toBe(0);
    expect(help.output()).toContain('--generate-password');
    expect(help.output()).toContain('reset a forgotten one');
  }, 60_000);

  it('creates an admin from the command line', async () => {
    const dir = dataDir();
    const cli = run('cli.ts', { DATA_DIR: dir }, [
      'create-admin',
      '--email',
      'Cli@Example.com',
      '--password',
      'cli password',
    ]);
    expect(await cli.exited).toBe(0);
    expect(cli.output()).toContain('created admin cli@example.com');
    const again = run('cli.ts', { DATA_DIR: dir }, [
      'create-admin',
      '--email',
      'cli@example.com',
      '--password',
      'other password',
    ]);
    expect(await again.exited).toBe(0);
    expect(again.output()).toContain('updated admin cli@example.com');
    const bad = run('cli.ts', { DATA_DIR: dir }, ['create-admin', '--email', 'cli@example.com']);
    expect(await bad.exited).toBe(2);
  }, 60_000);

  it('creates an admin with the password from ADMIN_PASSWORD, as the help says', async () => {
    const dir = dataDir();
    const env = { DATA_DIR: dir, ADMIN_PASSWORD: 'from the environment' };
    const cli = run('cli.ts', env, ['create-admin', '--email', 'env@example.com']);
    expect(await cli.exited, cli.output()).toBe(0);
    expect(cli.output()).toContain('created admin env@example.com');
    const database = await openDatabase({ kind: 'pglite', dataDir: dir });
    try {
      const user = await findUserByEmail(database.db, 'env@example.com');
      expect(user?.role).toBe('admin');
      expect(await verifyPassword(user?.passwordHash ?? '', 'from the environment')).toBe(true);
    } finally {
      await database.close();
    }
  }, 60_000);
});

describe.skipIf(!onPostgres)('PostgreSQL', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
    await db.database.close(); // the processes open it themselves
  });
  afterAll(() => db.drop().catch(() => {}));

  it('runs several processes on one database', async () => {
    const ports = [await freePort(), await freePort()];
    const procs = ports.map((port) =>
      run('main.ts', {
        DATABASE_URL: db.url ?? '',
        PORT: String(port),
        DATA_DIR: dataDir(),
        JWT_SECRET: 'shared-secret-of-at-least-thirty-two-bytes',
      }),
    );
    await Promise.all(procs.map((p, i) => waitReady(ports[i] ?? 0, p)));
    const signup = await fetch(`http://127.0.0.1:${ports[0]}/user/storefront/api/signup/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'multi@example.com', password: 'password1' }),
    });
    const { access } = (await signup.json()) as { access: string };
    const me = await fetch(`http://127.0.0.1:${ports[1]}/user/storefront/api/me/`, {
      headers: { authorization: `Bearer ${access}` },
    });
    expect(me.status).toBe(200);
    for (const p of procs) p.child.kill('SIGTERM');
    expect(await Promise.all(procs.map((p) => p.exited))).toEqual([0, 0]);
  }, 120_000);
});
