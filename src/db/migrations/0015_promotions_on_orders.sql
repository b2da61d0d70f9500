-- Placement reads and records promotions (SPEC section 10): orders keep the promotions that applied and the part
-- taken off shipping, lines what each promotion took off them. promo_codes and its redemptions go: every code was
-- copied into promotions by 0014 (linked by legacy_promo_code_id); what placement recorded on them since is carried
-- over first (redemptions, uses), and the orders placed with a code get its promotion in their new columns.
INSERT INTO "promotion_redemptions" ("promotion_id", "order_id", "user_id", "email", "released_at", "created_at")
SELECT p."id", r."order_id", r."user_id", r."email", r."released_at", r."created_at"
FROM "promo_code_redemptions" r
JOIN "promotions" p ON p."legacy_promo_code_id" = r."promo_code_id"
ON CONFLICT ("promotion_id", "order_id") DO UPDATE SET "released_at" = excluded."released_at";--> statement-breakpoint
UPDATE "promotions" p SET "times_used" = c."times_used"
FROM "promo_codes" c WHERE p."legacy_promo_code_id" = c."id";--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "adjustments" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "promotions" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipping_discount" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "orders" o SET "promotions" = jsonb_build_array(jsonb_build_object(
	'id', p."id", 'name', p."name", 'code', coalesce(o."promo_code", p."code"), 'kind', p."action"->>'type',
	'amount', o."discount"))
FROM "promotions" p WHERE p."legacy_promo_code_id" = o."promo_code_id";--> statement-breakpoint
UPDATE "order_lines" l SET "adjustments" = jsonb_build_array(jsonb_build_object(
	'promotion_id', (o."promotions"->0->>'id')::integer, 'amount', l."discount"))
FROM "orders" o WHERE o."id" = l."order_id" AND jsonb_array_length(o."promotions") > 0 AND l."discount" > 0;--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_promo_code_id_promo_codes_id_fk";--> statement-breakpoint
ALTER TABLE "orders" DROP COLUMN "promo_code_id";--> statement-breakpoint
ALTER TABLE "promotions" DROP CONSTRAINT "promotions_legacy_promo_code_id_promo_codes_id_fk";--> statement-breakpoint
ALTER TABLE "promotions" DROP CONSTRAINT "promotions_legacy_promo_code_id_unique";--> statement-breakpoint
ALTER TABLE "promotions" DROP COLUMN "legacy_promo_code_id";--> statement-breakpoint
DROP TABLE "promo_code_redemptions";--> statement-breakpoint
DROP TABLE "promo_codes";
