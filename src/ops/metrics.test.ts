import { describe, expect, it } from 'vitest';
import type { Database } from '../db/client.js';
import { createMetrics } from './metrics.js';

/** A database that does not answer (only what the metrics touch). */
const unreachable = {
  connections: () => ({ max: 20, open: 3, idle: 1, waiting: 4 }),
  db: {
    select: () => {
      throw new Error('connection refused');
    },
  },
} as unknown as Database;

describe('createMetrics', () => {
  it('answers a scrape when the database does not, without the payments series, and logs why', async () => {
    const warnings: string[] = [];
    const log = { warn: (_obj: unknown, message: string) => warnings.push(message) };
    const metrics = createMetrics({ database: unreachable, log: log as never, processMetrics: false });
    const text = await metrics.registry.metrics();
    expect(text).not.toMatch(/^storefront_payments\{/m);
    expect(text).toMatch(/^storefront_db_pool_connections\{state="in_use"\} 2$/m);
    expect(text).toMatch(/^storefront_db_pool_waiting 4$/m);
    expect(warnings).toEqual(['metrics: payments by state could not be counted']);
  });

  it("adds Node's process metrics only when asked", async () => {
    const log = { warn: () => {} } as never;
    const without = await createMetrics({ database: unreachable, log, processMetrics: false }).registry.metrics();
    const withThem = await createMetrics({ database: unreachable, log, processMetrics: true }).registry.metrics();
    expect(without).not.toContain('process_cpu_user_seconds_total');
    expect(withThem).toContain('process_cpu_user_seconds_total');
    expect(withThem).toContain('nodejs_eventloop_lag_seconds');
  });
});
