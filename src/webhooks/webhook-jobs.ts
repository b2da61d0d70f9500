import type { JobQueue, JobRequest, RunAgain } from '../jobs/job-queue.js';
import { WEBHOOK_DELIVERY_JOB } from './delivery-schedule.js';
import { type DeliveryDeps, runDelivery } from './webhook-delivery.js';

/** The payload of a `webhook.deliver` job. */
export interface DeliveryJobPayload extends Record<string, unknown> {
  delivery_id: number;
}

/** The job that attempts delivery `deliveryId` (scheduled deliveries get theirs in SQL: `scheduleDeliveriesSql`). */
export function deliveryJob(deliveryId: number): JobRequest {
  return { kind: WEBHOOK_DELIVERY_JOB, payload: { delivery_id: deliveryId } satisfies DeliveryJobPayload };
}

/**
 * Registers the `webhook.deliver` job: one attempt (`runDelivery`); a delivery to retry makes the job run again at
 * the delivery's next try (not counted as a failed job: the delivery's own 24-hour window decides), a settled one
 * ends it. A job fails (and is retried by the jobs' policy) only when the attempt could not be recorded (the
 * database). Jobs run concurrently (JOBS_CONCURRENCY), so a slow endpoint holds one slot, not the others.
 */
export function registerWebhookJobs(queue: JobQueue, deps: DeliveryDeps): void {
  queue.handle<DeliveryJobPayload>(WEBHOOK_DELIVERY_JOB, async (job): Promise<RunAgain | undefined> => {
    const next = await runDelivery(deps, Number(job.payload.delivery_id));
    return next.kind === 'retry' ? { runAgainAt: next.retryAt } : undefined;
  });
}
