import type { PaymentRegistry } from '../src/payments/plugin-registry.js';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { createTokenService } from '../src/auth/tokens.js';
import { type Config, loadConfig } from '../src/config.js';
import { type Database, openDatabase } from '../src/db/client.js';
import { loadPaymentPlugins } from '../src/payments/plugin-registry.js';

/** Where the suite runs: the embedded database by default, PostgreSQL when TEST_DATABASE_URL is set. */
export const testDatabaseUrl = process.env.TEST_DATABASE_URL;
export const onPostgres = testDatabaseUrl !== undefined && testDatabaseUrl !== '';

export interface TestDatabase {
  database: Database;
  /** Connection string of the throw-away database (PostgreSQL only). */
  url: string | undefined;
  drop(): Promise<void>;
}

function withDatabaseName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/**
 * The migrated empty embedded database test/global-setup.ts made for this run, read once per test file; undefined
 * outside such a run (each database is then created and migrated).
 */
let image: Promise<Blob | undefined> | undefined;
function migratedImage(): Promise<Blob | undefined> {
  image ??= (async () => {
    // Imported here: the scripts that start a shop (lighthouse, screenshots) load this file outside vitest.
    const { inject } = await import('vitest');
    const file = inject('pgliteImagePath');
    return file === undefined ? undefined : new Blob([await readFile(file)]);
  })();
  return image;
}

/** A new, empty, migrated database of its own: in-memory PGlite, or a fresh PostgreSQL database. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (!onPostgres || !testDatabaseUrl) {
    const database = await openDatabase({ kind: 'pglite-memory', image: await migratedImage() });
    return { database, url: undefined, drop: () => database.close() };
  }
  const name = `sf_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: testDatabaseUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = withDatabaseName(testDatabaseUrl, name);
  const database = await openDatabase({ kind: 'postgres', url, poolSize: 30 });
  return {
    database,
    url,
    drop: async () => {
      await database.close();
      const client = new pg.Client({ connectionString: testDatabaseUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

export const TEST_JWT_SECRET = 'test-secret-that-is-at-least-32-bytes-long!';

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({ DATA_DIR: '/nonexistent-test-data-dir', SEED_DEMO: 'false' }),
    jwtSecret: TEST_JWT_SECRET,
    authRateLimitPerMinute: 100_000,
    promoRateLimitPerMinute: 100_000,
    // No recurring expiry job in the jobs table of every test; test/order-lifecycle.test.ts runs expiry by hand.
    unpaidOrderTtlMinutes: 0,
    ...overrides,
  };
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  /** Connection string of the test database (PostgreSQL only), for a second process on it. */
  url: string | undefined;
  config: Config;
  /** The enabled payment plugins, e.g. to watch or stand in for a gateway's call in a test. */
  payments: PaymentRegistry;
  close(): Promise<void>;
}

/**
 * The payment plugins `config` enables (default: every installed one configured), each secret
 * `test-secret-<plugin>-<name>-…`, so two processes of one test store load the same plugins with the same keys.
 */
function testPaymentPlugins(config: Config, env: Record<string, string | undefined> = {}): Promise<PaymentRegistry> {
  return loadPaymentPlugins({
    enabled: config.paymentPlugins,
    env,
    embeddedDatabase: true,
    context: {
      publicBaseUrl: config.publicBaseUrl,
      secret: (name) => `test-secret-${name}-0123456789abcdef0123456789`,
    },
  });
}

/** The real app on a database of its own, driven through app.inject(). */
export async function buildTestApp(
  options: {
    config?: Partial<Config>;
    logger?: Parameters<typeof buildApp>[0]['logger'];
    /** Environment the payment plugins are configured from (e.g. Stripe keys). */
    pluginEnv?: Record<string, string | undefined>;
    /** More job handlers and event subscribers (see AppDeps.background). */
    background?: Parameters<typeof buildApp>[0]['background'];
    /** The web apps to serve (default: none, whether or not dist/public was built; see test/webapp.test.ts). */
    webApps?: Parameters<typeof buildApp>[0]['webApps'];
  } = {},
): Promise<TestApp> {
  const config = testConfig(options.config);
  const payments = await testPaymentPlugins(config, options.pluginEnv);
  const test = await createTestDatabase();
  const app = await buildApp({
    config,
    database: test.database,
    tokens: createTokenService(config.jwtSecret ?? TEST_JWT_SECRET),
    payments,
    logger: options.logger ?? false,
    background: options.background,
    webApps: options.webApps ?? null,
  });
  return {
    app,
    database: test.database,
    url: test.url,
    config,
    payments,
    close: async () => {
      await app.close();
      await test.drop();
    },
  };
}

/** A test app keeping product images as files in a DATA_DIR of its own (`config.dataDir`), removed by `close`. */
export async function buildMediaTestApp(prefix: string): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), prefix));
  const t = await buildTestApp({
    config: {
      dataDir,
      media: { storage: { kind: 'file' }, maxUploadBytes: 200_000, maxPixels: 4_000_000, memoryCacheBytes: 1 << 20 },
    },
  });
  return {
    ...t,
    close: async () => {
      await t.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** JSON body of a response, typed loosely for assertions. */
// biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary JSON shapes
export function json(res: LightMyRequestResponse): any {
  return JSON.parse(res.body);
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

let counter = 0;
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}-${randomBytes(3).toString('hex')}@example.com`;
}

export interface SignedIn {
  id: number;
  email: string;
  access: string;
  refresh: string;
}

export async function signUp(
  app: FastifyInstance,
  email = uniqueEmail(),
  password = 'correct horse',
): Promise<SignedIn> {
  const res = await app.inject({ method: 'POST', url: '/user/storefront/api/signup/', payload: { email, password } });
  if (res.statusCode !== 201) throw new Error(`signup failed: ${res.statusCode} ${res.body}`);
  const body = json(res);
  return { id: body.user.id, email: body.user.email, access: body.access, refresh: body.refresh };
}

/** Asserts the response is problem+json with this status and code, and returns its body. */
export function expectProblem(res: LightMyRequestResponse, status: number, code: string) {
  const body = res.body ? JSON.parse(res.body) : undefined;
  const context = `${res.statusCode} ${res.body}`;
  if (res.statusCode !== status) throw new Error(`expected ${status} ${code}, got ${context}`);
  if (!String(res.headers['content-type']).startsWith('application/problem+json')) {
    throw new Error(`expected problem+json content type, got ${res.headers['content-type']}: ${context}`);
  }
  if (body?.code !== code) throw new Error(`expected code ${code}, got ${context}`);
  if (
    body.status !== status
    || typeof body.title !== 'string'
    || typeof body.type !== 'string'
    || typeof body.detail !== 'string'
  ) {
    throw new Error(`malformed problem document: ${context}`);
  }
  return body;
}

export type Inject = (opts: InjectOptions) => Promise<LightMyRequestResponse>;

/** Ensures an admin in the test database and signs it in. */
export async function signInAdmin(t: TestApp, email = uniqueEmail('admin')): Promise<SignedIn> {
  const { ensureAdmin } = await import('../src/auth/auth.service.js');
  await ensureAdmin(t.database.db, { email, password: 'admin password' });
  const res = await t.app.inject({
    method: 'POST',
    url: '/user/storefront/api/login/',
    payload: { email, password: 'admin password' },
  });
  if (res.statusCode !== 200) throw new Error(`admin login failed: ${res.body}`);
  const body = json(res);
  return { id: body.user.id, email, access: body.access, refresh: body.refresh };
}

/**
 * A second app process on the test app's PostgreSQL database (its own pool, caches, batch writers and change feed),
 * as another server of the same store would be, with `config` over the first's: the same payment plugins and keys
 * (configured from no environment, so not a Stripe the first was given keys for), so a capture or webhook answered
 * here reaches the same gateway. PostgreSQL only: the embedded database has one process.
 */
export async function secondProcess(
  t: TestApp,
  config: Partial<Config> = {},
): Promise<{ app: FastifyInstance; database: Database; close(): Promise<void> }> {
  if (!t.url) throw new Error('a second process needs the PostgreSQL test database');
  const database = await openDatabase({ kind: 'postgres', url: t.url, poolSize: 5 });
  const merged = { ...t.config, ...config };
  const payments = await testPaymentPlugins(merged);
  const tokens = createTokenService(TEST_JWT_SECRET);
  const app = await buildApp({ config: merged, database, tokens, payments });
  return {
    app,
    database,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

/** Reads until `done` says yes, for 20 s at most. */
export async function until<T>(what: string, read: () => Promise<T> | T, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
