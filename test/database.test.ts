import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, onPostgres, testDatabaseUrl } from './helpers.js';

describe('the database handle', () => {
  it('closes a second time without an error, so a test database closed early is still dropped', async () => {
    const test = await createTestDatabase();
    await test.database.close();
    await expect(test.database.close()).resolves.toBeUndefined();
    await test.drop();
    if (onPostgres && test.url && testDatabaseUrl) {
      const name = new URL(test.url).pathname.slice(1);
      const client = new pg.Client({ connectionString: testDatabaseUrl });
      await client.connect();
      try {
        const { rows } = await client.query('select 1 from pg_database where datname = $1', [name]);
        expect(rows).toEqual([]);
      } finally {
        await client.end();
      }
    }
  });
});
