import type { Statement } from '../db/client.js';

/**
 * The jobs table's statements (src/db/schema.ts `jobs`). Each is one round trip of fixed text, prepared once per
 * connection on PostgreSQL; the worker runs them outside any transaction, so no job holds a transaction open while
 * its handler does I/O (on the embedded database that would hold its one connection).
 */

/** A job row as JSON for `insertJobsFromJson` (see `jobRow`). */
export interface JobRowJson {
  kind: string;
  key: string | null;
  payload: unknown;
  run_at: string | null;
  delay_ms: number | null;
  max_attempts: number | null;
  give_up_at: string | null;
}

/**
 * SQL inserting the jobs of a JSON array (`param`, e.g. `$6`) of `JobRowJson`; a job whose (kind, key) exists is
 * left out. For use inside a larger statement (a CTE: placement writes its orders' events and jobs in its one
 * statement) or alone.
 */
export function insertJobsFromJson(param: string): string {
  return `insert into jobs (kind, key, payload, run_at, max_attempts, give_up_at)
    select j.kind, j.key, coalesce(j.payload, '{}'::jsonb),
      coalesce(j.run_at, now() + make_interval(secs => coalesce(j.delay_ms, 0) / 1000.0)), j.max_attempts, j.give_up_at
    from jsonb_to_recordset(${param}::jsonb) as j(kind text, key text, payload jsonb, run_at timestamptz,
      delay_ms integer, max_attempts integer, give_up_at timestamptz)
    on conflict (kind, key) where key is not null do nothing`;
}

export const enqueueJobs: Statement = {
  name: 'jobs_enqueue',
  text: `${insertJobsFromJson('$1')} returning id`,
};

/**
 * The jobs of a status due by a column (`due_at`), in its order, as far as the claim's limit; rows being claimed
 * skipped.
 */
function dueRows(status: 'queued' | 'running', column: 'run_at' | 'locked_until'): string {
  return `select id, ${column} as due_at from jobs
      where status = '${status}' and ${column} <= now() and kind = any($1::text[])
      order by ${column}, id
      limit $3
      for update skip locked`;
}

/**
 * Claims up to $3 due jobs of the kinds this worker runs ($1, with their leases in ms $2): queued ones whose time has
 * come, and running ones whose lease ran out (their worker died), the longest waiting first. Rows another worker is
 * claiming are skipped, not waited for; a row another worker claimed meanwhile is re-checked under its lock and left
 * out. Each kind of due row is read in index order (`jobs_queued_idx`, `jobs_lease_idx`) and only as far as the limit,
 * so a claim costs the same with ten jobs queued or ten thousand.
 */
export const claimJobs: Statement = {
  name: 'jobs_claim',
  text: `with queued as (${dueRows('queued', 'run_at')}), expired as (${dueRows('running', 'locked_until')}), due as (
      select id from (select * from queued union all select * from expired) d order by due_at, id limit $3
    )
    update jobs j set status = 'running', locked_by = $4, attempts = j.attempts + 1, updated_at = now(),
      locked_until = now() + make_interval(secs => l.lease_ms / 1000.0)
    from due, unnest($1::text[], $2::integer[]) as l(kind, lease_ms)
    where j.id = due.id and l.kind = j.kind
    returning j.id, j.kind, j.payload, j.attempts, j.max_attempts, j.give_up_at, j.created_at`,
};

/**
 * Marks jobs done ($1 ids, $2 attempts), each if the claim (worker $3, that attempt) is still the job's; answers the
 * ids it marked. One statement for the jobs a worker finished meanwhile, however many.
 */
export const finishJobs: Statement = {
  name: 'jobs_finish',
  text: `update jobs j set status = 'done', locked_by = null, locked_until = null, last_error = null,
      finished_at = now(), updated_at = now()
    from unnest($1::bigint[], $2::integer[]) as f(id, attempts)
    where j.id = f.id and j.attempts = f.attempts and j.locked_by = $3 and j.status = 'running'
    returning j.id`,
};

/**
 * Records a failed attempt ($4 the error) of a claim that is still the job's: queued again in $5 ms, or, with $5
 * null, failed for good.
 */
export const failJob: Statement = {
  name: 'jobs_fail',
  text: `update jobs set last_error = $4, locked_by = null, locked_until = null, updated_at = now(),
      status = case when $5::integer is null then 'failed' else 'queued' end,
      run_at = case when $5::integer is null then run_at else now() + make_interval(secs => $5::integer / 1000.0) end,
      finished_at = case when $5::integer is null then now() end
    where id = $1 and locked_by = $2 and attempts = $3 and status = 'running'
    returning id`,
};

/**
 * Queues a job again for $4 (its handler answered `RunAgain`), if the claim ($2 worker, $3 attempt) is still the
 * job's; the attempt is not counted (it did not fail).
 */
export const runJobAgain: Statement = {
  name: 'jobs_run_again',
  text: `update jobs set status = 'queued', attempts = greatest(attempts - 1, 0), run_at = $4::timestamptz,
      locked_by = null, locked_until = null, last_error = null, updated_at = now()
    where id = $1 and locked_by = $2 and attempts = $3 and status = 'running'
    returning id`,
};

/**
 * Gives back jobs ($1) a stopping worker ($2) holds, due at once for another worker; their attempt is not counted
 * (it was cut short, not failed).
 */
export const releaseJobs: Statement = {
  name: 'jobs_release',
  text: `update jobs set status = 'queued', attempts = greatest(attempts - 1, 0), run_at = now(), locked_by = null,
      locked_until = null, updated_at = now()
    where id = any($1::bigint[]) and locked_by = $2 and status = 'running'
    returning id`,
};

/** Renews the leases of running jobs ($1 ids, $2 attempts, $3 lease ms) this worker ($4) still holds. */
export const renewLeases: Statement = {
  name: 'jobs_renew_leases',
  text: `update jobs j set locked_until = now() + make_interval(secs => h.lease_ms / 1000.0)
    from unnest($1::bigint[], $2::integer[], $3::integer[]) as h(id, attempts, lease_ms)
    where j.id = h.id and j.attempts = h.attempts and j.locked_by = $4 and j.status = 'running'
    returning j.id`,
};

/** Deletes jobs done more than $1 days ago and jobs failed more than $2 days ago. */
export const purgeFinishedJobs: Statement = {
  name: 'jobs_purge',
  text: `delete from jobs
    where (status = 'done' and finished_at < now() - make_interval(days => $1))
      or (status = 'failed' and finished_at < now() - make_interval(days => $2))`,
};

/** A claimed row as the claim statement returns it (ids are bigint: a string on node-postgres). */
export interface ClaimedRow {
  id: string | number;
  kind: string;
  payload: unknown;
  attempts: number;
  max_attempts: number | null;
  give_up_at: Date | string | null;
  created_at: Date | string;
}
