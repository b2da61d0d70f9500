import { describe, expect, it } from 'vitest';
import { openDatabase, pgliteImage } from './client.js';

// Every sequence of the schema with its state, and the migrations applied: what a database started from the image
// must share with a new one (the tests start from it, and some name the ids a new store gives).
const sequences = {
  name: 'test_sequences_state',
  text: `select s.sequencename as name, s.last_value::int8::text as last_value from pg_sequences s
    where s.schemaname = 'public' order by s.sequencename`,
};
const migrations = {
  name: 'test_migrations_applied',
  text: 'select count(*)::int as n from drizzle.__drizzle_migrations',
};

const nextMarket = { name: 'test_next_market', text: "select nextval('markets_id_seq')::int as id" };

/** The database's sequences and migrations, then the id its next market would get. */
async function stateOf(target: Parameters<typeof openDatabase>[0]) {
  const database = await openDatabase(target);
  try {
    const [applied] = await database.run<{ n: number }>(migrations, []);
    const state = await database.run(sequences, []);
    const [market] = await database.run<{ id: number }>(nextMarket, []);
    return { sequences: state, migrations: applied?.n, nextMarketId: market?.id };
  } finally {
    await database.close();
  }
}

describe('an embedded database started from pgliteImage', () => {
  // Three embedded databases made from nothing (a new one, the image, the one loaded from it): on a loaded 2-core
  // machine that took over the suite's 30 s once.
  it('has the migrations and the sequences of a new one, and numbers its next market as a new one does', async () => {
    const fresh = await stateOf({ kind: 'pglite-memory' });
    const loaded = await stateOf({ kind: 'pglite-memory', image: await pgliteImage() });
    expect(fresh.migrations).toBeGreaterThan(30);
    expect(fresh.sequences.length).toBeGreaterThan(10);
    expect(fresh.nextMarketId).toBeGreaterThan(0);
    expect(loaded).toEqual(fresh);
  }, 120_000);
});
