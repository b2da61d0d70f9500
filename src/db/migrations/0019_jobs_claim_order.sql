DROP INDEX "jobs_due_idx";--> statement-breakpoint
CREATE INDEX "jobs_queued_idx" ON "jobs" USING btree ("run_at","id") WHERE "jobs"."status" = 'queued';