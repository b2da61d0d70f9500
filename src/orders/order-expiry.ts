import { and, asc, eq, inArray, lt, notExists, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client.js';
import { orders, payments } from '../db/schema.js';
import type { Outbox } from '../events/outbox.js';
import { enqueueJob, type JobQueue } from '../jobs/job-queue.js';
import { cancelLockedOrder } from './orders.service.js';

/** The recurring job that expires unpaid orders (one per time slot, whichever process enqueues it). */
export const EXPIRY_JOB_KIND = 'orders.expire-unpaid';
/** How often the expiry job runs. */
export const EXPIRY_INTERVAL_MS = 60_000;
/** Orders expired in one run, at most (the next run takes the rest). */
const MAX_PER_RUN = 1_000;

export interface ExpiryDeps {
  db: Db;
  outbox: Outbox;
  /** UNPAID_ORDER_TTL_MINUTES; 0: orders never expire. */
  ttlMinutes: number;
  /** Plugins whose open payment exempts an order (cash on delivery: the plugins with manual capture). */
  exemptPluginIds: readonly string[];
  /** The clock (tests move it). */
  now?: () => Date;
  /** Stops a run early (the job's signal). */
  signal?: AbortSignal;
}

/**
 * Cancels as expired (SPEC 11) the orders still pending with nothing paid (payment status unpaid, pending or failed)
 * placed more than `ttlMinutes` ago, except those with an open or captured cash-on-delivery payment. Each order is
 * claimed with FOR UPDATE SKIP LOCKED in its own transaction, which cancels it as an admin's cancel does (stock and
 * promo-code uses back) with order.status_changed and order.expired: any number of concurrent runs expire an order
 * once, and an order a payment is changing right now (its row locked) is left to the next run, which sees it paid.
 * Answers the aliases expired.
 */
export async function expireUnpaidOrders(deps: ExpiryDeps): Promise<string[]> {
  if (deps.ttlMinutes <= 0) return [];
  const now = deps.now?.() ?? new Date();
  const cutoff = new Date(now.getTime() - deps.ttlMinutes * 60_000);
  const expired: string[] = [];
  while (expired.length < MAX_PER_RUN && !deps.signal?.aborted) {
    const alias = await deps.outbox.jobs.transaction(deps.db, async (tx) => {
      const exempt =
        deps.exemptPluginIds.length === 0
          ? undefined
          : notExists(
              tx
                .select({ one: sql`1` })
                .from(payments)
                .where(
                  and(
                    eq(payments.orderId, orders.id),
                    inArray(payments.pluginId, [...deps.exemptPluginIds]),
                    inArray(payments.status, ['pending', 'succeeded', 'partially_refunded', 'refunded']),
                  ),
                ),
            );
      const [order] = await tx
        .select()
        .from(orders)
        .where(
          and(eq(orders.status, 'pending'), eq(orders.paymentStatus, 'unpaid'), lt(orders.createdAt, cutoff), exempt),
        )
        .orderBy(asc(orders.id))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!order) return undefined;
      await cancelLockedOrder(tx, deps.outbox, { order, reason: 'expired' });
      return order.alias;
    });
    if (alias === undefined) break;
    expired.push(alias);
  }
  return expired;
}

/** The key of the expiry job of the slot holding `at`: every process enqueues the same one, so it exists once. */
const slotKey = (at: number) => `slot-${Math.floor(at / EXPIRY_INTERVAL_MS)}`;

/** Enqueues the expiry run of the current slot (once per slot across processes); call when a process starts. */
export function scheduleOrderExpiry(deps: { db: Db; jobs: JobQueue }, now = Date.now()): Promise<number | undefined> {
  return enqueueJob(deps.db, deps.jobs, { kind: EXPIRY_JOB_KIND, key: slotKey(now) });
}

/**
 * Registers the expiry job (every process, as every handler): it first enqueues the next slot's run, so the chain
 * goes on whatever this run does, then expires what is due.
 */
export function registerOrderExpiry(deps: Omit<ExpiryDeps, 'signal'>): void {
  deps.outbox.jobs.handle(EXPIRY_JOB_KIND, async (job) => {
    const now = deps.now?.().getTime() ?? Date.now();
    const next = (Math.floor(now / EXPIRY_INTERVAL_MS) + 1) * EXPIRY_INTERVAL_MS;
    await enqueueJob(deps.db, deps.outbox.jobs, { kind: EXPIRY_JOB_KIND, key: slotKey(next), runAt: new Date(next) });
    await expireUnpaidOrders({ ...deps, signal: job.signal });
  });
}

/**
 * Unpaid orders expire in the background: the expiry job registered, and its first run enqueued once the app is ready
 * where this process runs jobs and orders expire at all (`ttlMinutes` above 0).
 */
export function expireUnpaidOrdersInBackground(
  app: FastifyInstance,
  deps: Omit<ExpiryDeps, 'signal'> & { jobsEnabled: boolean },
): void {
  const { jobsEnabled, ...expiry } = deps;
  registerOrderExpiry(expiry);
  if (jobsEnabled && deps.ttlMinutes > 0) {
    app.addHook('onReady', async () => {
      await scheduleOrderExpiry({ db: deps.db, jobs: deps.outbox.jobs });
    });
  }
}
