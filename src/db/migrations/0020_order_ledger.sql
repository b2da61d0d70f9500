CREATE TABLE "payment_operations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payment_operations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"payment_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"source" text NOT NULL,
	"amount" bigint NOT NULL,
	"credit" bigint DEFAULT 0 NOT NULL,
	"request_key" text,
	"gateway_key" text NOT NULL,
	"gateway_ref" text,
	"error" text,
	"admin_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "amount_authorized" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "amount_captured" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "amount_refunded" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "amount_credited" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "amount_capturable" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "capture_method" text DEFAULT 'automatic' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "amount_authorized" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "amount_voided" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "authorization_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_operations" ADD CONSTRAINT "payment_operations_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_operations_payment_idx" ON "payment_operations" USING btree ("payment_id","id");--> statement-breakpoint
CREATE INDEX "payment_operations_order_idx" ON "payment_operations" USING btree ("order_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_operations_request_idx" ON "payment_operations" USING btree ("payment_id","kind","request_key") WHERE "payment_operations"."request_key" is not null;
--> statement-breakpoint
-- The ledger of existing orders (src/payments/order-ledger.ts, docs/payments.md). Money taken was authorized; each
-- payment's captured and refunded money becomes a record of the ledger.
UPDATE "payments" SET "amount_authorized" = "amount_captured" WHERE "amount_captured" > 0;--> statement-breakpoint
INSERT INTO "payment_operations" ("payment_id", "order_id", "kind", "status", "source", "amount", "gateway_key", "created_at", "updated_at")
SELECT "id", "order_id", 'capture', 'succeeded', 'system', "amount_captured", 'migrated-capture-' || "id", "updated_at", "updated_at"
FROM "payments" WHERE "amount_captured" > 0;--> statement-breakpoint
-- Refunds before the ledger never meant to bill the customer again: what an order's refunds gave beyond the money it
-- held over its charge (nothing once cancelled) was a credit.
WITH "sums" AS (
  SELECT "order_id", sum("amount_captured") AS "captured", sum("amount_refunded") AS "refunded"
  FROM "payments" GROUP BY "order_id"
)
UPDATE "orders" o SET
  "amount_captured" = s."captured",
  "amount_refunded" = s."refunded",
  "amount_authorized" = s."captured",
  "amount_credited" = greatest(0, s."refunded" - greatest(0, s."captured" - CASE WHEN o."status" = 'cancelled' THEN 0 ELSE o."total" END))
FROM "sums" s WHERE s."order_id" = o."id";--> statement-breakpoint
INSERT INTO "payment_operations" ("payment_id", "order_id", "kind", "status", "source", "amount", "credit", "gateway_key", "created_at", "updated_at")
SELECT p."id", p."order_id", 'refund', 'succeeded', 'system', p."amount_refunded",
  least(p."amount_refunded", greatest(0, o."amount_credited" - coalesce(sum(p."amount_refunded") OVER (
    PARTITION BY p."order_id" ORDER BY p."id" ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0))),
  'migrated-refund-' || p."id", p."updated_at", p."updated_at"
FROM "payments" p JOIN "orders" o ON o."id" = p."order_id" WHERE p."amount_refunded" > 0;--> statement-breakpoint
-- Statuses as orderPaymentStatus gives them (no authorizations existed): 'pending' and 'failed' are gone (an open or
-- failed attempt is the payment's state, not the order's).
UPDATE "orders" o SET "payment_status" = CASE
  WHEN b."balance" < 0 THEN 'overpaid'
  WHEN o."amount_captured" = 0 THEN CASE WHEN o."total" = 0 THEN 'paid' ELSE 'unpaid' END
  WHEN b."balance" > 0 THEN CASE WHEN o."amount_captured" > o."amount_refunded" THEN 'partially_paid' ELSE 'refunded' END
  WHEN o."amount_refunded" = 0 THEN 'paid'
  WHEN o."amount_captured" = o."amount_refunded" THEN 'refunded'
  ELSE 'partially_refunded'
END
FROM (
  SELECT "id", greatest(0, CASE WHEN "status" = 'cancelled' THEN 0 ELSE "total" END - "amount_credited")
    - ("amount_captured" - "amount_refunded") AS "balance"
  FROM "orders"
) b WHERE b."id" = o."id";
