import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readServerSettingWarnings, serverSettingWarnings } from '../src/db/server-settings.js';
import { createTestDatabase, onPostgres, type TestDatabase } from './helpers.js';

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(async () => {
  await test.drop();
});

describe('the server settings read at start', () => {
  it.runIf(onPostgres)("warns as the PostgreSQL server's own autovacuum setting says", async () => {
    const client = new pg.Client({ connectionString: test.url });
    await client.connect();
    const setting = (await client.query<{ autovacuum: string }>('show autovacuum')).rows[0]?.autovacuum ?? '';
    await client.end();
    expect(['on', 'off']).toContain(setting);
    expect(await readServerSettingWarnings(test.database)).toEqual(serverSettingWarnings({ autovacuum: setting }));
  });

  it.skipIf(onPostgres)('has nothing to say about the embedded database', async () => {
    expect(await readServerSettingWarnings(test.database)).toEqual([]);
  });
});
