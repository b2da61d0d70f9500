import type { RateLimitPluginOptions } from '@fastify/rate-limit';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { Batcher } from '../shared/batcher.js';

/**
 * Where the rate-limit counters live: in Redis when REDIS_URL is set, else in the PostgreSQL
 * database, so every process of a store counts together; in the process's memory on the embedded
 * database (one process per DATA_DIR).
 *
 * A counter that can't be reached lets the request through (fail open, logged at most once a
 * minute): the limits slow down guessing, they don't guard data, and a Redis outage or a slow
 * counter table must not stop sign-ins and checkouts. A database that is down fails the request
 * itself with 503 database_unavailable anyway.
 */
export interface RateLimitBackend {
  kind: 'memory' | 'postgres' | 'redis';
  options: Pick<RateLimitPluginOptions, 'store' | 'redis' | 'nameSpace' | 'skipOnError'>;
  close(): Promise<void>;
}

type StoreCtor = NonNullable<RateLimitPluginOptions['store']>;
type Store = InstanceType<StoreCtor>;
type Callback = Parameters<Store['incr']>[1];

const WARN_INTERVAL_MS = 60_000;
const SWEEP_INTERVAL_MS = 5 * 60_000;

/**
 * The hits of a batch in one statement, one row per key (`n` hits of it): a new key, or one whose window has ended,
 * starts a window at `n`; an open window counts on. The database's clock is the only one, so processes agree on
 * windows. Rows are taken in key order, so two processes' batches never wait on each other's rows crosswise.
 */
const HITS = {
  name: 'sf_rate_limit_hits',
  text: `insert into rate_limit_counters as c (key, hits, window_ends_at)
         select h.key, h.n, now() + make_interval(secs => h.window_ms / 1000)
         from unnest($1::text[], $2::integer[], $3::double precision[]) as h(key, n, window_ms)
         order by h.key
         on conflict (key) do update set
           hits = case when c.window_ends_at <= now() then excluded.hits
                       else least(c.hits, 2147483647 - excluded.hits) + excluded.hits end,
           window_ends_at = case when c.window_ends_at <= now() then excluded.window_ends_at else c.window_ends_at end
         returning c.key, c.hits, ceil(extract(epoch from c.window_ends_at - now()) * 1000)::integer as ttl_ms`,
};

/** Hits gathered into one statement at most; a store of many busy processes sends fewer, larger statements. */
const MAX_HITS_PER_STATEMENT = 1_000;
/** Hits waiting at most; beyond, a hit is let through uncounted (fail open, as when the table is unreachable). */
const MAX_HITS_WAITING = 20_000;

const READ = {
  name: 'sf_rate_limit_read',
  text: `select hits, ceil(extract(epoch from window_ends_at - now()) * 1000)::integer as ttl_ms
         from rate_limit_counters where key = $1 and window_ends_at > now()`,
};

const SWEEP = { name: 'sf_rate_limit_sweep', text: 'delete from rate_limit_counters where window_ends_at < now()' };

interface CounterRow {
  hits: number;
  ttl_ms: number;
}

interface Hit {
  key: string;
  windowMs: number;
}

/**
 * Counts hits in the table, one statement in flight per process: the hits that arrive meanwhile go together in the
 * next one (like placements, decision 0004), so a busy process does not make one round trip and one row lock per
 * request. Each hit still waits for its count and gets the one it would have had alone: the k-th of a key's n hits
 * in a statement that brought the row to `hits` is number `hits − n + k`. A key keeps the window of the hit that
 * opened it, as when its hits went one by one.
 */
export function tableHitCounter(database: Pick<Database, 'run'>): (hit: Hit) => Promise<CounterRow> {
  const batcher = new Batcher<Hit, CounterRow>(
    async (hits) => {
      const byKey = new Map<string, { n: number; windowMs: number }>();
      for (const hit of hits) {
        const seen = byKey.get(hit.key);
        if (seen) seen.n++;
        else byKey.set(hit.key, { n: 1, windowMs: hit.windowMs });
      }
      const keys = [...byKey.keys()];
      const rows = await database.run<CounterRow & { key: string }>(HITS, [
        keys,
        keys.map((key) => byKey.get(key)?.n ?? 0),
        keys.map((key) => byKey.get(key)?.windowMs ?? 0),
      ]);
      const counted = new Map(rows.map((row) => [row.key, row]));
      const answered = new Map<string, number>();
      return hits.map((hit) => {
        const row = counted.get(hit.key);
        if (!row) throw new Error(`rate-limit counter ${hit.key} was not counted`);
        const before = answered.get(hit.key) ?? 0;
        answered.set(hit.key, before + 1);
        return { hits: row.hits - (byKey.get(hit.key)?.n ?? 1) + before + 1, ttl_ms: row.ttl_ms };
      });
    },
    { maxBatch: MAX_HITS_PER_STATEMENT, maxInFlight: 1, maxQueued: MAX_HITS_WAITING },
  );
  return (hit) => batcher.submit(hit);
}

/** @fastify/rate-limit's store interface over the rate_limit_counters table. */
function tableStore(database: Database, onError: (err: unknown) => void): StoreCtor {
  const answer = (callback: Callback) => ({
    ok: (rows: CounterRow[]) => callback(null, { current: rows[0]?.hits ?? 0, ttl: Math.max(0, rows[0]?.ttl_ms ?? 0) }),
    failed: (err: unknown) => {
      onError(err);
      callback(err instanceof Error ? err : new Error(String(err)));
    },
  });
  const countHit = tableHitCounter(database);

  return class TableRateLimitStore implements Store {
    // The plugin constructs the root store with its options (unused) and calls child() per limit.
    constructor(
      _options: unknown,
      private readonly prefix = '',
    ) {}

    incr(key: string, callback: Callback, timeWindow: number): void {
      const { ok, failed } = answer(callback);
      countHit({ key: this.prefix + key, windowMs: timeWindow }).then((row) => ok([row]), failed);
    }

    read(key: string, callback: Callback): void {
      const { ok, failed } = answer(callback);
      database.run<CounterRow>(READ, [this.prefix + key]).then(ok, failed);
    }

    child(options: Parameters<Store['child']>[0]): Store {
      // What the plugin passes is its merged limit options, whose routeInfo is the route (empty
      // for createRateLimit, whose callers tell their limits apart with a keyGenerator).
      const route = (options as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo;
      const scope = typeof route?.url === 'string' ? `${String(route.method)}${route.url}-` : '';
      return new TableRateLimitStore(undefined, scope);
    }
  };
}

/** Logs a failing counter store once a minute at most: an outage would otherwise log every request. */
function throttledWarning(log: FastifyBaseLogger, kind: string): (err: unknown) => void {
  let lastAt = 0;
  return (err) => {
    const now = Date.now();
    if (now - lastAt < WARN_INTERVAL_MS) return;
    lastAt = now;
    log.warn({ err, store: kind }, 'rate-limit counters unreachable; requests are let through uncounted');
  };
}

export function rateLimitBackend(deps: {
  config: Config;
  database: Database;
  log: FastifyBaseLogger;
}): RateLimitBackend {
  const { config, database, log } = deps;
  if (config.redisUrl) {
    const warn = throttledWarning(log, 'redis');
    // Short timeouts and one retry: a request waits at most about two seconds on a Redis that's gone.
    const redis = new Redis(config.redisUrl, { connectTimeout: 1_000, commandTimeout: 2_000, maxRetriesPerRequest: 1 });
    redis.on('error', warn);
    return {
      kind: 'redis',
      options: { redis, nameSpace: config.redisKeyPrefix, skipOnError: true },
      close: async () => redis.disconnect(),
    };
  }
  if (database.kind === 'postgres') {
    const warn = throttledWarning(log, 'postgres');
    const sweeper = setInterval(() => void sweepRateLimitCounters(database).catch(warn), SWEEP_INTERVAL_MS);
    sweeper.unref();
    return {
      kind: 'postgres',
      options: { store: tableStore(database, warn), skipOnError: true },
      close: async () => clearInterval(sweeper),
    };
  }
  return { kind: 'memory', options: { skipOnError: true }, close: async () => {} };
}

/** Deletes the counters whose window has ended (what the sweeper does every few minutes). */
export async function sweepRateLimitCounters(database: Database): Promise<void> {
  await database.run(SWEEP, []);
}
