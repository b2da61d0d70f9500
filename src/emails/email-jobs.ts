import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { EventRef, Outbox } from '../events/outbox.js';
import { type Job, type JobQueue, type JobRequest, PermanentJobError, type RunAgain } from '../jobs/job-queue.js';
import type { JobPolicy } from '../jobs/retry-policy.js';
import { createMailer, EmailDeliveryError } from './mailer.js';
import type { OrderEmailKind } from './order-email.templates.js';
import { emailKindForEvent, logEmailNotSent, type OrderEmailDeps, sendOrderEmail } from './order-emails.js';

/** The job that sends one customer email about one order event (`sendOrderEmail`). */
export const EMAIL_JOB = 'email.send';

/** The payload of an `email.send` job. */
export interface EmailJobPayload extends Record<string, unknown> {
  kind: OrderEmailKind;
  order_alias: string;
  event_id: string;
}

/**
 * An SMTP server that does not take an email for now (no connection, 4xx, refused credentials) is tried again: after
 * 30 s, doubling up to an hour, for a day at most. A refusal for good (5xx) is not retried.
 */
export const EMAIL_JOB_POLICY: Partial<JobPolicy> = {
  maxAttempts: 30,
  baseDelayMs: 30_000,
  maxDelayMs: 3_600_000,
  giveUpAfterMs: 86_400_000,
};

/**
 * The email job an event calls for (`emailKindForEvent`), if any. Keyed by the event's id: one email per event,
 * however often the event's jobs are enqueued.
 */
export function emailJobFor(event: EventRef): JobRequest | undefined {
  if (event.orderAlias === null) return undefined;
  const kind = emailKindForEvent(event.type, event.data);
  if (kind === null) return undefined;
  const payload: EmailJobPayload = { kind, order_alias: event.orderAlias, event_id: event.id };
  return { kind: EMAIL_JOB, key: event.id, payload };
}

/**
 * How long an email waits for what it tells to happen (a return's refund its gateway has not answered): a second at
 * first, as the request that refunds is usually answered by then, then five minutes once the job is a minute old.
 */
function waitAgain(job: Job<EmailJobPayload>): RunAgain {
  const old = Date.now() - job.createdAt.getTime() > 60_000;
  return { runAgainAt: new Date(Date.now() + (old ? 300_000 : 1000)) };
}

/**
 * Sends the email of a job; an SMTP refusal for good fails the job without retries, anything else retries it; an email
 * whose news has not happened yet runs again later (`waitAgain`).
 */
export function emailJobHandler(deps: OrderEmailDeps) {
  return async (job: Job<EmailJobPayload>): Promise<RunAgain | undefined> => {
    const { kind, order_alias: orderAlias, event_id: eventId } = job.payload;
    try {
      const result = await sendOrderEmail(deps, { kind, orderAlias, eventId });
      return result.status === 'waiting' ? waitAgain(job) : undefined;
    } catch (err) {
      if (err instanceof EmailDeliveryError && err.permanent) throw new PermanentJobError(err.message);
      throw err;
    }
  };
}

/**
 * Customer emails as background work: every order event that calls for an email enqueues an `email.send` job with
 * it (in its transaction), which a worker sends over SMTP. Without SMTP_URL nothing would be sent, so no job is
 * queued: the email is logged as not sent once the event has committed (`logEmailNotSent`). The handler is
 * registered either way, for jobs queued by a process that has SMTP_URL (it logs them as not sent here).
 */
export function registerEmailJobs(parts: { jobs: JobQueue; outbox: Outbox }, deps: OrderEmailDeps): void {
  if (deps.mailer.configured) parts.outbox.onEvent('*', emailJobFor);
  else parts.outbox.onCommitted('*', (event) => void logEmailNotSent(deps.log, event));
  parts.jobs.handle<EmailJobPayload>(EMAIL_JOB, emailJobHandler(deps), EMAIL_JOB_POLICY);
}

/**
 * The app's customer emails (`registerEmailJobs`) through one SMTP pool, closed with the app. Register before the
 * worker (`runJobWorker`): hooks close in the reverse order, so the worker stops before the pool its emails use.
 */
export function registerCustomerEmails(
  app: FastifyInstance,
  deps: Omit<OrderEmailDeps, 'mailer' | 'log'> & { outbox: Outbox; config: Config },
): void {
  const mailer = createMailer(deps.config);
  const { outbox, ...emailDeps } = deps;
  registerEmailJobs({ jobs: outbox.jobs, outbox }, { ...emailDeps, mailer, log: app.log });
  app.addHook('onClose', async () => mailer.close());
}
