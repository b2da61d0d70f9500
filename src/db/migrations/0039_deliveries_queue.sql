CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at","id") WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
-- A pending delivery is now its own queue entry (decision 0044): the per-delivery jobs of the design before are no
-- one's work (their deliveries stay pending and due), so those not yet finished are removed.
DELETE FROM "jobs" WHERE "kind" = 'webhook.deliver' AND "status" IN ('queued', 'running');
