ALTER TABLE "payment_events" ADD COLUMN "currency" text;--> statement-breakpoint
ALTER TABLE "payment_events" ADD COLUMN "pending_gateway_payment_ref" text;--> statement-breakpoint
CREATE INDEX "payment_events_pending_idx" ON "payment_events" USING btree ("plugin_id","pending_gateway_payment_ref") WHERE "payment_events"."pending_gateway_payment_ref" is not null;