-- Promotions (SPEC section 10): the promotions and promotion_redemptions tables, every promo code copied into a
-- promotion with its redemptions, and the change-feed trigger of 0007 on promotions. promo_codes and its
-- redemptions stay until placement reads promotions (the copy is linked by legacy_promo_code_id).
-- A copied code keeps its id (so /discount/dashboard/api/promo-codes/{id}/ still finds it) and becomes:
--   percentage -> action order_percentage {percent, products: applicable_products or null}
--   fixed -> action order_fixed {amount (minor units, as promo_codes.value holds it), products: same}
--   free_shipping -> action free_shipping
--   min_purchase_amount > 0 -> condition min_subtotal {amount}; applicable_products not empty -> condition
--   contains_products {products} (a code was refused when none of its products was in the order).
-- Money in conditions and actions is integer minor units (src/db/schema.ts says why).
CREATE TABLE "promotion_redemptions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "promotion_redemptions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"promotion_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"user_id" integer,
	"email" text,
	"released_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "promotions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "promotions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"code" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"starts_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"priority" integer DEFAULT 0 NOT NULL,
	"combinable" boolean DEFAULT true NOT NULL,
	"redemption_limit" integer,
	"usage_limit_per_customer" integer,
	"new_customers_only" boolean DEFAULT false NOT NULL,
	"specific_customers" integer[],
	"conditions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"action" jsonb NOT NULL,
	"times_used" integer DEFAULT 0 NOT NULL,
	"archived_at" timestamp with time zone,
	"legacy_promo_code_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promotions_legacy_promo_code_id_unique" UNIQUE("legacy_promo_code_id"),
	CONSTRAINT "promotions_code_check" CHECK ("promotions"."code" = upper("promotions"."code")),
	CONSTRAINT "promotions_dates_check" CHECK ("promotions"."starts_at" is null or "promotions"."expires_at" is null or "promotions"."starts_at" < "promotions"."expires_at"),
	CONSTRAINT "promotions_times_used_check" CHECK ("promotions"."times_used" >= 0)
);
--> statement-breakpoint
ALTER TABLE "promotion_redemptions" ADD CONSTRAINT "promotion_redemptions_promotion_id_promotions_id_fk" FOREIGN KEY ("promotion_id") REFERENCES "public"."promotions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_redemptions" ADD CONSTRAINT "promotion_redemptions_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_redemptions" ADD CONSTRAINT "promotion_redemptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotions" ADD CONSTRAINT "promotions_legacy_promo_code_id_promo_codes_id_fk" FOREIGN KEY ("legacy_promo_code_id") REFERENCES "public"."promo_codes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "promotion_redemptions_order_idx" ON "promotion_redemptions" USING btree ("promotion_id","order_id");--> statement-breakpoint
CREATE INDEX "promotion_redemptions_user_idx" ON "promotion_redemptions" USING btree ("promotion_id","user_id");--> statement-breakpoint
CREATE INDEX "promotion_redemptions_email_idx" ON "promotion_redemptions" USING btree ("promotion_id","email");--> statement-breakpoint
CREATE UNIQUE INDEX "promotions_code_idx" ON "promotions" USING btree ("code") WHERE "promotions"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "promotions_automatic_idx" ON "promotions" USING btree ("priority" DESC NULLS LAST,"id") WHERE "promotions"."code" is null and "promotions"."archived_at" is null and "promotions"."is_active";
--> statement-breakpoint
INSERT INTO "promotions" (
	"id", "name", "code", "is_active", "starts_at", "expires_at", "redemption_limit", "usage_limit_per_customer",
	"new_customers_only", "specific_customers", "conditions", "action", "times_used", "legacy_promo_code_id",
	"created_at", "updated_at")
OVERRIDING SYSTEM VALUE
SELECT
	p."id", 'Promo code ' || upper(p."code"), upper(p."code"), p."is_active", p."starts_at", p."expires_at",
	p."redemption_limit", p."usage_limit_per_customer", p."new_customers_only",
	CASE WHEN cardinality(p."specific_customers") > 0 THEN p."specific_customers" END,
	CASE WHEN coalesce(p."min_purchase_amount", 0) > 0
		THEN jsonb_build_array(jsonb_build_object('type', 'min_subtotal', 'amount', p."min_purchase_amount"))
		ELSE '[]'::jsonb END
	|| CASE WHEN cardinality(p."applicable_products") > 0
		THEN jsonb_build_array(jsonb_build_object('type', 'contains_products', 'products', to_jsonb(p."applicable_products")))
		ELSE '[]'::jsonb END,
	CASE p."code_type"
		WHEN 'percentage' THEN jsonb_build_object('type', 'order_percentage',
			'percent', trim_scale(p."value"::numeric)::text,
			'products', CASE WHEN cardinality(p."applicable_products") > 0 THEN to_jsonb(p."applicable_products") END)
		WHEN 'fixed' THEN jsonb_build_object('type', 'order_fixed',
			'amount', p."value"::bigint,
			'products', CASE WHEN cardinality(p."applicable_products") > 0 THEN to_jsonb(p."applicable_products") END)
		ELSE jsonb_build_object('type', 'free_shipping')
	END,
	p."times_used", p."id", p."created_at", p."updated_at"
FROM "promo_codes" p
ORDER BY p."id";
--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('promotions', 'id'), max("id")) FROM "promotions";
--> statement-breakpoint
-- Keyed by the link, not the id, and a no-op for redemptions already copied: the same statement can copy again
-- the redemptions placement records on promo_codes until it switches to promotions.
INSERT INTO "promotion_redemptions" ("promotion_id", "order_id", "user_id", "email", "released_at", "created_at")
SELECT pr."id", r."order_id", r."user_id", r."email", r."released_at", r."created_at"
FROM "promo_code_redemptions" r JOIN "promotions" pr ON pr."legacy_promo_code_id" = r."promo_code_id"
ORDER BY r."id"
ON CONFLICT ("promotion_id", "order_id") DO NOTHING;
--> statement-breakpoint
CREATE TRIGGER promotions_changed AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF name, code, is_active, starts_at, expires_at, priority, combinable, redemption_limit, usage_limit_per_customer, new_customers_only, specific_customers, conditions, action, archived_at ON promotions FOR EACH STATEMENT EXECUTE FUNCTION sf_notify_reference_change();
