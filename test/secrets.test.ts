import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.js';
import { createTokenService } from '../src/auth/tokens.js';
import type { Config } from '../src/config.js';
import { openRuntime, type Runtime } from '../src/runtime.js';
import {
  bearer,
  createTestDatabase,
  expectProblem,
  json,
  onPostgres,
  signUp,
  type TestDatabase,
  testConfig,
} from './helpers.js';

// The keys the service generates (token signing, the sandbox's) belong to the store's database:
// every process on one database shares them, and no two stores do (src/db/store-secrets.ts).

// Every test starts whole apps (migrations included), which takes long on a busy machine.
vi.setConfig({ testTimeout: 120_000 });

const dirs: string[] = [];
const databases: TestDatabase[] = [];
afterAll(async () => {
  for (const database of databases) await database.drop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sf-secrets-'));
  dirs.push(dir);
  return dir;
}

/** A fresh PostgreSQL database (on PostgreSQL runs), for stores started with DATABASE_URL. */
async function postgresUrl(): Promise<string> {
  const database = await createTestDatabase();
  databases.push(database);
  if (!database.url) throw new Error('not on PostgreSQL');
  return database.url;
}

interface Store {
  runtime: Runtime;
  app: Awaited<ReturnType<typeof buildApp>>;
  close(): Promise<void>;
}

/** A store as `npm start` opens it: embedded in `dataDir` unless `databaseUrl` is given. */
async function startStore(overrides: Partial<Config>): Promise<Store> {
  const config = testConfig({ jwtSecret: undefined, paymentPlugins: ['sandbox'], ...overrides });
  const runtime = await openRuntime(config);
  const app = await buildApp({ config, ...runtime });
  return {
    runtime,
    app,
    close: async () => {
      await app.close();
      await runtime.database.close();
    },
  };
}

async function storedSecrets(store: Store): Promise<Record<string, string>> {
  const statement = { name: 'test_store_secrets', text: 'select name, value from store_secrets' };
  const rows = await store.runtime.database.run<{ name: string; value: string }>(statement, []);
  return Object.fromEntries(rows.map((r) => [r.name, r.value]));
}

const meUrl = '/user/storefront/api/me/';

describe('secrets the service generates', () => {
  it("are created in the store's database at first start, not in DATA_DIR", async () => {
    const dir = dataDir();
    const store = await startStore({ dataDir: dir, databaseUrl: onPostgres ? await postgresUrl() : undefined });
    try {
      const secrets = await storedSecrets(store);
      expect(Object.keys(secrets).sort()).toEqual(['jwt', 'plugin-sandbox-checkout', 'plugin-sandbox-webhook']);
      for (const value of Object.values(secrets)) expect(value.length).toBeGreaterThanOrEqual(32);
      expect(existsSync(path.join(dir, 'secrets'))).toBe(false);
      const user = await signUp(store.app);
      const token = await createTokenService(secrets.jwt!).signAccess({ userId: user.id, role: 'customer' });
      expect((await store.app.inject({ method: 'GET', url: meUrl, headers: bearer(token) })).statusCode).toBe(200);
    } finally {
      await store.close();
    }
  });

  it('take over a key an earlier version kept in DATA_DIR, so signed-in users stay signed in', async () => {
    const dir = dataDir();
    const legacyKey = 'a-key-an-earlier-version-wrote-into-data-dir';
    mkdirSync(path.join(dir, 'secrets'));
    writeFileSync(path.join(dir, 'secrets', 'jwt'), `${legacyKey}\n`);
    const databaseUrl = onPostgres ? await postgresUrl() : undefined;
    let store = await startStore({ dataDir: dir, databaseUrl });
    try {
      const user = await signUp(store.app);
      const before = await createTokenService(legacyKey).signAccess({ userId: user.id, role: 'customer' });
      expect((await store.app.inject({ method: 'GET', url: meUrl, headers: bearer(before) })).statusCode).toBe(200);
      expect((await storedSecrets(store)).jwt).toBe(legacyKey);
      // Renamed, so another store started from this DATA_DIR doesn't take the same key.
      expect(existsSync(path.join(dir, 'secrets', 'jwt'))).toBe(false);
      await store.close();
      store = await startStore({ dataDir: dir, databaseUrl });
      expect((await store.app.inject({ method: 'GET', url: meUrl, headers: bearer(before) })).statusCode).toBe(200);
    } finally {
      await store.close();
    }
  });

  it('give way to JWT_SECRET for signing tokens', async () => {
    const jwtSecret = 'an-operator-chosen-key-of-at-least-32-bytes';
    const databaseUrl = onPostgres ? await postgresUrl() : undefined;
    const store = await startStore({ dataDir: dataDir(), databaseUrl, jwtSecret });
    try {
      const user = await signUp(store.app);
      const token = await createTokenService(jwtSecret).signAccess({ userId: user.id, role: 'customer' });
      expect((await store.app.inject({ method: 'GET', url: meUrl, headers: bearer(token) })).statusCode).toBe(200);
      expect((await storedSecrets(store)).jwt).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});

describe.runIf(onPostgres)('secrets on PostgreSQL', () => {
  it('differ between stores of one checkout (embedded, PostgreSQL): a token of one is 401 on the other', async () => {
    const dir = dataDir();
    const embedded = await startStore({ dataDir: dir });
    const postgres = await startStore({ dataDir: dir, databaseUrl: await postgresUrl() });
    try {
      // The same user id exists in both, so only the signature can refuse the token.
      const [a, b] = [await signUp(embedded.app), await signUp(postgres.app)];
      expect(a.id).toBe(b.id);
      const me = (store: Store, token: string) =>
        store.app.inject({ method: 'GET', url: meUrl, headers: bearer(token) });
      expectProblem(await me(postgres, a.access), 401, 'invalid_token');
      expectProblem(await me(embedded, b.access), 401, 'invalid_token');
      expect(json(await me(postgres, b.access)).email).toBe(b.email);
    } finally {
      await embedded.close();
      await postgres.close();
    }
  });

  it('are the same for every process on one database, also when they start together', async () => {
    const databaseUrl = await postgresUrl();
    const start = () => startStore({ dataDir: dataDir(), databaseUrl });
    const [one, two] = await Promise.all([start(), start()]);
    try {
      const user = await signUp(one.app);
      const me = await two.app.inject({ method: 'GET', url: meUrl, headers: bearer(user.access) });
      expect(json(me).email).toBe(user.email);
      const refreshUrl = '/user/storefront/api/token/refresh/';
      const refreshed = await two.app.inject({ method: 'POST', url: refreshUrl, payload: { refresh: user.refresh } });
      expect(refreshed.statusCode).toBe(200);
      expect(await storedSecrets(one)).toEqual(await storedSecrets(two));
    } finally {
      await one.close();
      await two.close();
    }
  });
});
