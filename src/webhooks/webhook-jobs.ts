import type { FastifyInstance } from 'fastify';
import type { WebhookSettings } from '../config.js';
import type { Database } from '../db/client.js';
import type { Outbox } from '../events/outbox.js';
import type { JobQueue, JobRequest, RunAgain } from '../jobs/job-queue.js';
import { PermanentJobError } from '../jobs/job-queue.js';
import type { JobPolicy } from '../jobs/retry-policy.js';
import { deliveriesFanOut, WEBHOOK_DELIVERY_JOB, WEBHOOK_SCHEDULE_JOB } from './delivery-schedule.js';
import { WebhookConnections } from './webhook-connections.js';
import { type DeliveryDeps, runDelivery, scheduleEventDeliveries } from './webhook-delivery.js';

/** The payload of a `webhook.deliver` job. */
export interface DeliveryJobPayload extends Record<string, unknown> {
  delivery_id: number;
}

/** The payload of a `webhook.schedule` job (enqueued in SQL: `deliveriesJobSql`). */
export interface ScheduleJobPayload extends Record<string, unknown> {
  event_ids: string[];
}

/**
 * The deliveries of recorded events must not be given up while they could still be delivered: a schedule job that
 * fails (the database) is tried again for as long as a delivery is (24 hours), at most a few minutes apart. One that
 * still fails is `failed` in the jobs table; queue it again there (docs/operations.md).
 */
export const SCHEDULE_JOB_POLICY: Partial<JobPolicy> = {
  maxAttempts: 1_000,
  baseDelayMs: 1_000,
  maxDelayMs: 300_000,
  giveUpAfterMs: 86_400_000,
};

/** An event id as the events table keeps it (a UUID). */
const EVENT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The job that attempts delivery `deliveryId` (scheduled deliveries get theirs in SQL: `scheduleDeliveriesSql`). */
export function deliveryJob(deliveryId: number): JobRequest {
  return { kind: WEBHOOK_DELIVERY_JOB, payload: { delivery_id: deliveryId } satisfies DeliveryJobPayload };
}

/**
 * Registers the `webhook.schedule` job (the deliveries of recorded events, `SCHEDULE_JOB_POLICY`) and the
 * `webhook.deliver` job: one attempt (`runDelivery`); a delivery to retry makes the job run again at the delivery's
 * next try (not counted as a failed job: the delivery's own 24-hour window decides), a settled one
 * ends it. A job fails (and is retried by the jobs' policy) only when the attempt could not be recorded (the
 * database). Jobs run concurrently (JOBS_CONCURRENCY), so a slow endpoint holds one slot, not the others.
 */
export function registerWebhookJobs(queue: JobQueue, deps: DeliveryDeps): void {
  // The deliveries of recorded events, made in one statement (idempotent); their attempts are jobs of this queue.
  queue.handle<ScheduleJobPayload>(
    WEBHOOK_SCHEDULE_JOB,
    async (job) => {
      const ids = job.payload.event_ids;
      if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string' && EVENT_ID.test(id))) {
        throw new PermanentJobError(`webhook.schedule job ${job.id} does not name event ids`);
      }
      if ((await scheduleEventDeliveries(deps.database, ids)) > 0) queue.wake();
    },
    SCHEDULE_JOB_POLICY,
  );

  queue.handle<DeliveryJobPayload>(WEBHOOK_DELIVERY_JOB, async (job): Promise<RunAgain | undefined> => {
    const next = await runDelivery(deps, Number(job.payload.delivery_id));
    return next.kind === 'retry' ? { runAgainAt: next.retryAt } : undefined;
  });
}

/**
 * The app's webhook deliveries: the outbox enqueues the job scheduling them with the events they are for
 * (`deliveriesFanOut`), and the app's worker runs them over kept-alive connections (at most `concurrency` per
 * endpoint), closed with the app. Register before the worker (`runJobWorker`): hooks close in the reverse order, so
 * the worker stops before the connections its deliveries use are closed.
 */
export function registerWebhookDeliveries(
  app: FastifyInstance,
  deps: { database: Database; outbox: Outbox; settings: WebhookSettings; concurrency: number },
): void {
  const connections = new WebhookConnections(deps.concurrency);
  registerWebhookJobs(deps.outbox.jobs, { database: deps.database, settings: deps.settings, connections });
  deps.outbox.fanOutInSql(deliveriesFanOut);
  app.addHook('onClose', async () => connections.close());
}
