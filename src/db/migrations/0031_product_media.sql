CREATE TABLE "product_media" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "product_media_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"product_id" integer NOT NULL,
	"storage_key" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"mime" text NOT NULL,
	"byte_size" integer NOT NULL,
	"alt" text NOT NULL,
	"position" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_media_storage_key_check" CHECK ("product_media"."storage_key" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "product_media_size_check" CHECK ("product_media"."width" > 0 and "product_media"."height" > 0 and "product_media"."byte_size" > 0),
	CONSTRAINT "product_media_alt_check" CHECK (length(btrim("product_media"."alt")) > 0),
	CONSTRAINT "product_media_position_check" CHECK ("product_media"."position" >= 0)
);
--> statement-breakpoint
CREATE TABLE "product_media_variants" (
	"media_id" integer NOT NULL,
	"variant_id" integer NOT NULL,
	CONSTRAINT "product_media_variants_media_id_variant_id_pk" PRIMARY KEY("media_id","variant_id")
);
--> statement-breakpoint
ALTER TABLE "product_media" ADD CONSTRAINT "product_media_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_media_variants" ADD CONSTRAINT "product_media_variants_media_id_product_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."product_media"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_media_variants" ADD CONSTRAINT "product_media_variants_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_media_product_idx" ON "product_media" USING btree ("product_id","position");--> statement-breakpoint
CREATE INDEX "product_media_storage_key_idx" ON "product_media" USING btree ("storage_key");--> statement-breakpoint
CREATE INDEX "product_media_variants_variant_idx" ON "product_media_variants" USING btree ("variant_id");--> statement-breakpoint
-- The storefront's catalog kept in memory (0023) shows a product's images: changes to them are announced on the
-- reference channel (0007) like categories' (0029). Images change nothing an order is charged: no pricing_version.
CREATE TRIGGER product_media_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON product_media
  FOR EACH STATEMENT EXECUTE FUNCTION sf_notify_reference_change();--> statement-breakpoint
CREATE TRIGGER product_media_variants_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON product_media_variants
  FOR EACH STATEMENT EXECUTE FUNCTION sf_notify_reference_change();
