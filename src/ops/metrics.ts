import { count } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/client.js';
import { payments, paymentStatesList } from '../db/schema.js';
import type { CartWriteMetrics } from '../cart/cart.write.js';
import type { PlacementMetrics } from '../placement/placement.write.js';

/** The metrics of one app: its own registry (never prom-client's global one), and what feeds it. */
export interface Metrics {
  registry: Registry;
  placement: PlacementMetrics;
  cart: CartWriteMetrics;
  /** Records an answered request (from an onResponse hook). */
  requestAnswered(request: FastifyRequest, reply: FastifyReply): void;
}

export interface MetricsDeps {
  database: Database;
  log: FastifyBaseLogger;
  /**
   * Node's process metrics (CPU, memory, event loop, GC). They describe the process, not the app,
   * and prom-client starts an event-loop monitor and a GC observer for each registry that it never
   * stops: on for the service's one app, off for the many apps a test process builds.
   */
  processMetrics: boolean;
}

/** Request latency buckets, seconds: from a cached read (~1 ms) to the placement timeout (10 s). */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Placement batch sizes: one order alone up to the batch limit (32). */
const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32];

export function createMetrics(deps: MetricsDeps): Metrics {
  const registry = new Registry();
  const registers = [registry];
  if (deps.processMetrics) collectDefaultMetrics({ register: registry });

  const requests = new Histogram({
    name: 'storefront_http_request_duration_seconds',
    help: 'Requests answered, by route pattern, method and status, with their latency (_count counts requests)',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });

  const { database } = deps;
  // Read at scrape time: the pool knows its own numbers, nothing to count on the request path.
  new Gauge({
    name: 'storefront_db_pool_connections',
    help: 'Database connections of this process: in_use, idle, and max (the pool size; 1 on the embedded database)',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const pool = database.connections();
      this.set({ state: 'max' }, pool?.max ?? 1);
      if (!pool) return;
      this.set({ state: 'in_use' }, pool.open - pool.idle);
      this.set({ state: 'idle' }, pool.idle);
    },
  });
  new Gauge({
    name: 'storefront_db_pool_waiting',
    help: 'Queries of this process waiting for a free database connection (PostgreSQL only)',
    registers,
    collect() {
      const pool = database.connections();
      if (pool) this.set(pool.waiting);
    },
  });

  const placementWrites = batchedWriteMetrics(registers, {
    batchSize: ['storefront_placement_batch_size', 'Placements per statement sent to the database'],
    refused: ['storefront_placements_refused_total', 'Placements answered 503 database_unavailable by back-pressure'],
  });
  const placed = new Counter({
    name: 'storefront_orders_placed_total',
    help: 'Orders placed by this process (committed; an Idempotency-Key replay is not counted)',
    registers,
  });
  const cartWrites = batchedWriteMetrics(registers, {
    batchSize: [
      'storefront_cart_write_batch_size',
      'Cart writes (add, update, remove, merge) per transaction sent to the database',
    ],
    refused: ['storefront_cart_writes_refused_total', 'Cart writes answered 503 database_unavailable by back-pressure'],
  });

  // Counted in the database when scraped: the store's payments whatever process moved them, and
  // right after a restart, where counters kept on transitions would show one process's share since
  // it started. One grouped count per scrape.
  const { log } = deps;
  new Gauge({
    name: 'storefront_payments',
    help: 'Payments in the store by state, counted in the database at scrape time',
    labelNames: ['state'] as const,
    registers,
    async collect() {
      try {
        const rows = await database.db
          .select({ state: payments.status, n: count() })
          .from(payments)
          .groupBy(payments.status);
        const byState = new Map(rows.map((r) => [r.state, r.n]));
        for (const state of paymentStatesList) this.set({ state }, byState.get(state) ?? 0);
      } catch (err) {
        // The rest of the scrape is what an operator needs during an outage: leave these series out.
        this.reset();
        log.warn({ err }, 'metrics: payments by state could not be counted');
      }
    },
  });

  return {
    registry,
    placement: {
      ...placementWrites,
      ordersPlaced: (n) => {
        if (n > 0) placed.inc(n);
      },
    },
    cart: cartWrites,
    requestAnswered(request, reply) {
      requests.observe(
        {
          method: request.method,
          // The route's pattern, never the URL: one series per route, whatever the ids and queries.
          route: request.routeOptions.url ?? 'unmatched',
          status_code: reply.statusCode,
        },
        reply.elapsedTime / 1000,
      );
    },
  };
}

/** The app's metrics, told of every answered request (a callback hook: no promise per request). */
export function registerMetrics(app: FastifyInstance, deps: Omit<MetricsDeps, 'log'>): Metrics {
  const metrics = createMetrics({ ...deps, log: app.log });
  app.addHook('onResponse', (request, reply, done) => {
    metrics.requestAnswered(request, reply);
    done();
  });
  return metrics;
}

/** A batched writer's metrics: its batches' sizes, and its refusals by back-pressure by reason. */
function batchedWriteMetrics(
  registers: Registry[],
  names: { batchSize: [name: string, help: string]; refused: [name: string, help: string] },
): Pick<PlacementMetrics, 'batchSent' | 'refused'> & CartWriteMetrics {
  const sizes = new Histogram({
    name: names.batchSize[0],
    help: names.batchSize[1],
    buckets: BATCH_BUCKETS,
    registers,
  });
  const refused = new Counter({
    name: names.refused[0],
    help: `${names.refused[1]}, by reason (queue_full, deadline)`,
    labelNames: ['reason'] as const,
    registers,
  });
  // Both series exist from the start, at 0: a rate() over a series that appears only at its first refusal misses it.
  for (const reason of ['queue_full', 'deadline'] as const) refused.inc({ reason }, 0);
  return { batchSent: (size) => sizes.observe(size), refused: (reason) => refused.inc({ reason }) };
}
