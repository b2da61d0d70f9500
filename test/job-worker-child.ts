import { openDatabase } from '../src/db/client.js';
import { JobQueue } from '../src/jobs/job-queue.js';
import { startJobWorker } from '../src/jobs/worker.js';

/**
 * A job worker in a process of its own, for test/jobs.test.ts to kill: on DATABASE_URL, it runs `test.stall` jobs,
 * whose handler says `running <id>` and never finishes. Lease 500 ms, renewed while the process lives.
 */
const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required');
const database = await openDatabase({ kind: 'postgres', url, poolSize: 2 });
const queue = new JobQueue();
queue.handle(
  'test.stall',
  async (job) => {
    process.stdout.write(`running ${job.id}\n`);
    await new Promise(() => {});
  },
  { leaseMs: 500 },
);
const log = (fields: Record<string, unknown>, message: string) =>
  process.stderr.write(`${message} ${JSON.stringify(fields)}\n`);
startJobWorker({ database, queue, log: { info: log, warn: log, error: log }, pollMs: 50, concurrency: 1 });
// The worker's timers don't keep a process alive (the service's server does); this one waits to be killed.
setInterval(() => {}, 60_000);
