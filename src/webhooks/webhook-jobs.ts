import type { FastifyInstance } from 'fastify';
import type { WebhookSettings } from '../config.js';
import type { Database } from '../db/client.js';
import type { Outbox } from '../events/outbox.js';
import type { JobQueue } from '../jobs/job-queue.js';
import { PermanentJobError } from '../jobs/job-queue.js';
import type { JobPolicy } from '../jobs/retry-policy.js';
import { type DeliveryDispatcher, startDeliveryDispatcher } from './delivery-dispatcher.js';
import { deliveriesFanOut, WEBHOOK_SCHEDULE_JOB } from './delivery-schedule.js';
import { WebhookConnections } from './webhook-connections.js';
import { scheduleEventDeliveries } from './webhook-delivery.js';

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

/** The kind of the per-delivery jobs before decision 0044 (migration 0039 removed those left unfinished). */
export const LEGACY_DELIVERY_JOB = 'webhook.deliver';

/** How long a closing app waits for the attempts it cut off to be recorded. */
const CUT_OFF_WAIT_MS = 2_000;

/** An event id as the events table keeps it (a UUID). */
const EVENT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Registers the `webhook.schedule` job: the deliveries of recorded events (`SCHEDULE_JOB_POLICY`), made due at once;
 * `wakeDeliveries` tells this process's dispatcher (`startDeliveryDispatcher`), which attempts them. Jobs of the kind
 * before it (`LEGACY_DELIVERY_JOB`) end at once.
 */
export function registerWebhookJobs(
  queue: JobQueue,
  deps: { database: Pick<Database, 'run'>; wakeDeliveries?: () => void },
): void {
  queue.handle<ScheduleJobPayload>(
    WEBHOOK_SCHEDULE_JOB,
    async (job) => {
      const ids = job.payload.event_ids;
      if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string' && EVENT_ID.test(id))) {
        throw new PermanentJobError(`webhook.schedule job ${job.id} does not name event ids`);
      }
      if ((await scheduleEventDeliveries(deps.database, ids)) > 0) deps.wakeDeliveries?.();
    },
    SCHEDULE_JOB_POLICY,
  );

  // A job of the design before decision 0044, enqueued during a rolling deploy by a process of the release before:
  // its delivery is pending in the table, where the dispatcher finds it, so the job is done at once.
  queue.handle(LEGACY_DELIVERY_JOB, async () => undefined);
}

/**
 * The app's webhook deliveries: the outbox enqueues the job scheduling them with the events they are for
 * (`deliveriesFanOut`), and, with `dispatch` (`JOBS_ENABLED`), the app's dispatcher attempts the due ones over
 * kept-alive connections (at most `concurrency` at once, and per endpoint), started with the app and stopped as it
 * begins to close (beside the job worker), before the connections its attempts use. Answers what wakes the
 * dispatcher once deliveries are made due (a redelivery); without a dispatcher in this process, one elsewhere finds
 * them at its next poll.
 */
export function registerWebhookDeliveries(
  app: FastifyInstance,
  deps: {
    database: Database;
    outbox: Outbox;
    settings: WebhookSettings;
    concurrency: number;
    pollMs: number;
    dispatch: boolean;
  },
): { wake: () => void } {
  const connections = new WebhookConnections(deps.concurrency);
  let dispatcher: DeliveryDispatcher | undefined;
  const wake = () => dispatcher?.wake();
  registerWebhookJobs(deps.outbox.jobs, { database: deps.database, wakeDeliveries: wake });
  deps.outbox.fanOutInSql(deliveriesFanOut);
  // Hooks close in the reverse order: the dispatcher has stopped before the connections close. Its stop starts as the
  // app begins to close, so its wait for the attempts in flight runs beside the job worker's, not after it.
  app.addHook('onClose', async () => connections.close());
  if (deps.dispatch) {
    const { database, settings, concurrency, pollMs } = deps;
    let stopped: Promise<void> | undefined;
    app.addHook('onReady', async () => {
      dispatcher = startDeliveryDispatcher({
        deps: { database, settings, connections },
        concurrency,
        pollMs,
        log: app.log,
      });
    });
    app.addHook('preClose', async () => {
      stopped = dispatcher?.stop();
    });
    app.addHook('onClose', async () => {
      await (stopped ?? dispatcher?.stop());
      if (!dispatcher || dispatcher.running() === 0) return;
      // Attempts still waiting for their receivers are cut off and recorded as failed (retried as any other) while
      // the database is still open, rather than left unlogged until their lease ends.
      connections.close();
      await dispatcher.settled(CUT_OFF_WAIT_MS);
    });
  }
  return { wake };
}
