import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { DomainError } from '../shared/errors.js';
import { tableHitNumbers } from './rate-limit-numbers.js';

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

/** @fastify/rate-limit's store interface over the rate_limit_counters table. */
function tableStore(database: Database, onError: (err: unknown) => void): StoreCtor {
  const answer = (callback: Callback) => ({
    ok: (rows: CounterRow[]) => callback(null, { current: rows[0]?.hits ?? 0, ttl: Math.max(0, rows[0]?.ttl_ms ?? 0) }),
    failed: (err: unknown) => {
      onError(err);
      callback(err instanceof Error ? err : new Error(String(err)));
    },
  });
  const numberHit = tableHitNumbers(database);

  return class TableRateLimitStore implements Store {
    // The plugin constructs the root store with its options (unused) and calls child() per limit.
    constructor(
      _options: unknown,
      private readonly prefix = '',
    ) {}

    // @fastify/rate-limit calls a store's incr with (key, callback, window, max).
    // biome-ignore lint/complexity/useMaxParams: the plugin's signature, not ours.
    incr(key: string, callback: Callback, timeWindow: number, max: number): void {
      const { ok, failed } = answer(callback);
      numberHit({ key: this.prefix + key, windowMs: timeWindow, max }).then(
        (hit) => ok([{ hits: hit.current, ttl_ms: hit.ttlMs }]),
        failed,
      );
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

/**
 * @fastify/rate-limit over this store's counters (`rateLimitBackend`), closed with the app. No route is limited unless
 * it asks (`global: false`); one over its limit is answered 429 rate_limited.
 */
export async function registerRateLimits(
  app: FastifyInstance,
  deps: { config: Config; database: Database },
): Promise<void> {
  const limits = rateLimitBackend({ ...deps, log: app.log });
  app.addHook('onClose', async () => limits.close());
  await app.register(rateLimit, {
    ...limits.options,
    global: false,
    errorResponseBuilder: (_request, context) =>
      new DomainError('rate_limited', { detail: `too many requests; retry in ${context.after}` }),
  });
}
