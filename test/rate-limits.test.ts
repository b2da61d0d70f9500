import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Config } from '../src/config.js';
import { sweepRateLimitCounters } from '../src/http/rate-limit-store.js';
import { buildTestApp, expectProblem, type Inject, onPostgres, secondProcess } from './helpers.js';

// Rate limits hold across the processes of a store: counters in PostgreSQL, or in Redis when
// REDIS_URL is set; in memory on the embedded database (src/http/rate-limit-store.ts).

// Every test starts whole apps (migrations included), which takes long on a busy machine.
vi.setConfig({ testTimeout: 120_000 });

const REDIS_URL = 'redis://127.0.0.1:6379';
/** Keys of this run only, deleted afterwards. */
const redisKeyPrefix = `sf-test-${process.pid}-${randomBytes(4).toString('hex')}-`;

afterAll(async () => {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const keys = await redis.keys(`${redisKeyPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
});

const LIMIT = 3;
const limits: Partial<Config> = {
  authRateLimitPerMinute: LIMIT,
  promoRateLimitPerMinute: LIMIT,
  webhookRateLimitPerMinute: LIMIT,
};

/** One request of each limited kind; none is refused for its content before the limit counts it. */
const limited: Record<string, (inject: Inject) => ReturnType<Inject>> = {
  login: (inject) =>
    inject({
      method: 'POST',
      url: '/user/storefront/api/login/',
      payload: { email: 'a@b.co', password: 'whatever1' },
    }),
  'promo code': (inject) =>
    inject({
      method: 'POST',
      url: '/order/storefront/api/estimate/',
      payload: { variants: [{ alias: 'none' }], promocode: 'GUESS' },
    }),
  webhook: (inject) =>
    inject({
      method: 'POST',
      url: '/payment/storefront/api/webhook-view/sandbox/',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    }),
};

/** Sends LIMIT requests alternating between the two, then expects the next (on the second) to be refused. */
async function expectSharedLimit(send: (inject: Inject) => ReturnType<Inject>, one: Inject, two: Inject) {
  for (let i = 0; i < LIMIT; i++) expect((await send(i % 2 === 0 ? one : two)).statusCode).not.toBe(429);
  const refused = await send(two);
  expectProblem(refused, 429, 'rate_limited');
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
}

describe.runIf(onPostgres)('rate limits on PostgreSQL', () => {
  for (const [kind, send] of Object.entries(limited)) {
    it(`count ${kind} requests of every process together: the one over the limit across two is 429`, async () => {
      const first = await buildTestApp({ config: limits });
      const second = await secondProcess(first);
      try {
        await expectSharedLimit(
          send,
          (opts) => first.app.inject(opts),
          (opts) => second.app.inject(opts),
        );
      } finally {
        await second.close();
        await first.close();
      }
    });
  }

  it('count requests sent at once exactly: of twice the limit, the limit passes and the rest is 429', async () => {
    const t = await buildTestApp({ config: limits });
    const inject: Inject = (opts) => t.app.inject(opts);
    try {
      const answers = await Promise.all(Array.from({ length: 2 * LIMIT }, () => limited.login!(inject)));
      const statuses = answers.map((a) => a.statusCode).sort();
      expect(statuses).toEqual([...Array(LIMIT).fill(401), ...Array(LIMIT).fill(429)]);
    } finally {
      await t.close();
    }
  });

  it('let requests through when the counter table fails, instead of answering 500', async () => {
    const t = await buildTestApp({ config: limits });
    try {
      await t.database.run({ name: 'test_drop_counters', text: 'drop table rate_limit_counters' }, []);
      const inject: Inject = (opts) => t.app.inject(opts);
      for (let i = 0; i <= LIMIT; i++) expect((await limited.login!(inject)).statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });

  it('start a new window once the old one has ended, and sweep ended windows away', async () => {
    const t = await buildTestApp({ config: limits });
    const inject: Inject = (opts) => t.app.inject(opts);
    const count = { name: 'test_count_counters', text: 'select count(*)::integer as n from rate_limit_counters' };
    const endWindows = {
      name: 'test_end_windows',
      text: `update rate_limit_counters set window_ends_at = now() - interval '1 second'`,
    };
    try {
      for (let i = 0; i < LIMIT; i++) await limited.login!(inject);
      expectProblem(await limited.login!(inject), 429, 'rate_limited');
      await t.database.run(endWindows, []);
      expect((await limited.login!(inject)).statusCode).toBe(401);
      await t.database.run(endWindows, []);
      await sweepRateLimitCounters(t.database);
      expect((await t.database.run<{ n: number }>(count, []))[0]?.n).toBe(0);
    } finally {
      await t.close();
    }
  });
});

describe('rate limits with REDIS_URL', () => {
  const redis: Partial<Config> = { ...limits, redisUrl: REDIS_URL, redisKeyPrefix };

  it('count requests of every process together in Redis: the one over the limit across two is 429', async () => {
    // Two apps (on databases of their own, even) with one Redis and one prefix count as one.
    const first = await buildTestApp({ config: redis });
    const second = await buildTestApp({ config: redis });
    try {
      for (const send of Object.values(limited)) {
        await expectSharedLimit(
          send,
          (opts) => first.app.inject(opts),
          (opts) => second.app.inject(opts),
        );
      }
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('let requests through when Redis is unreachable, instead of answering 500', async () => {
    const t = await buildTestApp({ config: { ...redis, redisUrl: 'redis://127.0.0.1:1' } });
    try {
      const started = Date.now();
      const inject: Inject = (opts) => t.app.inject(opts);
      for (let i = 0; i <= LIMIT; i++) expect((await limited.login!(inject)).statusCode).toBe(401);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await t.close();
    }
  });
});

describe.skipIf(onPostgres)('rate limits on the embedded database', () => {
  it('count in the process, without touching the database', async () => {
    const t = await buildTestApp({ config: limits });
    const other = await buildTestApp({ config: limits });
    try {
      const inject: Inject = (opts) => t.app.inject(opts);
      for (let i = 0; i < LIMIT; i++) await limited.login!(inject);
      expectProblem(await limited.login!(inject), 429, 'rate_limited');
      expect((await limited.login!((opts) => other.app.inject(opts))).statusCode).toBe(401);
      const count = { name: 'test_count_counters', text: 'select count(*)::integer as n from rate_limit_counters' };
      expect((await t.database.run<{ n: number }>(count, []))[0]?.n).toBe(0);
    } finally {
      await t.close();
      await other.close();
    }
  });
});

describe('the promo-code limit', () => {
  it('counts a ?payload= whose promocode key is spelled with escapes like any other', async () => {
    const t = await buildTestApp({ config: { promoRateLimitPerMinute: 2 } });
    try {
      const escaped = encodeURIComponent('{"variants":[{"alias":"none"}],"promo\\u0063ode":"GUESS"}');
      const send = () => t.app.inject({ method: 'GET', url: `/order/storefront/api/estimate/?payload=${escaped}` });
      expect((await send()).statusCode).not.toBe(429);
      expect((await send()).statusCode).not.toBe(429);
      expectProblem(await send(), 429, 'rate_limited');
    } finally {
      await t.close();
    }
  });
});
