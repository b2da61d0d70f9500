CREATE TABLE "product_option_values" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "product_option_values_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"option_id" integer NOT NULL,
	"value" text NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "product_option_values_id_option_unique" UNIQUE("id","option_id"),
	CONSTRAINT "product_option_values_position_check" CHECK ("product_option_values"."position" >= 0)
);
--> statement-breakpoint
CREATE TABLE "product_options" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "product_options_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"product_id" integer NOT NULL,
	"name" text NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "product_options_id_product_unique" UNIQUE("id","product_id"),
	CONSTRAINT "product_options_position_check" CHECK ("product_options"."position" >= 0)
);
--> statement-breakpoint
CREATE TABLE "variant_option_values" (
	"variant_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"option_id" integer NOT NULL,
	"option_value_id" integer NOT NULL,
	CONSTRAINT "variant_option_values_variant_id_option_id_pk" PRIMARY KEY("variant_id","option_id")
);
--> statement-breakpoint
-- Before the foreign keys that point at it (drizzle-kit wrote it last).
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_id_product_unique" UNIQUE("id","product_id");--> statement-breakpoint
ALTER TABLE "product_option_values" ADD CONSTRAINT "product_option_values_option_id_product_options_id_fk" FOREIGN KEY ("option_id") REFERENCES "public"."product_options"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_options" ADD CONSTRAINT "product_options_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variant_option_values" ADD CONSTRAINT "variant_option_values_variant_fk" FOREIGN KEY ("variant_id","product_id") REFERENCES "public"."product_variants"("id","product_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variant_option_values" ADD CONSTRAINT "variant_option_values_option_fk" FOREIGN KEY ("option_id","product_id") REFERENCES "public"."product_options"("id","product_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variant_option_values" ADD CONSTRAINT "variant_option_values_value_fk" FOREIGN KEY ("option_value_id","option_id") REFERENCES "public"."product_option_values"("id","option_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "product_option_values_value_idx" ON "product_option_values" USING btree ("option_id","value");--> statement-breakpoint
CREATE UNIQUE INDEX "product_options_name_idx" ON "product_options" USING btree ("product_id","name");--> statement-breakpoint
CREATE INDEX "variant_option_values_product_idx" ON "variant_option_values" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "variant_option_values_value_idx" ON "variant_option_values" USING btree ("option_value_id");--> statement-breakpoint
-- Every existing product gets options that keep its variants as they are (docs/decisions/0036-product-options.md, the
-- rule src/catalog/options.rules.ts `defaultOptions` spells in TypeScript): one option "Title"; a product with one
-- variant has the value "Default", one with several has their names as values, in id order, a name given twice made
-- distinct with the variant's id ("Black #12"). Archived variants count: they keep their combination. Names, aliases,
-- prices and everything else of a variant stay as they were, so carts and orders read them unchanged.
CREATE TEMPORARY TABLE variant_default_values ON COMMIT DROP AS
  SELECT v.id AS variant_id, v.product_id,
         (row_number() OVER (PARTITION BY v.product_id ORDER BY v.id) - 1)::integer AS position,
         CASE WHEN count(*) OVER (PARTITION BY v.product_id) = 1 THEN 'Default'
              WHEN count(*) OVER (PARTITION BY v.product_id, v.name) > 1 THEN v.name || ' #' || v.id
              ELSE v.name END AS value
    FROM product_variants v;--> statement-breakpoint
INSERT INTO product_options (product_id, name, position)
  SELECT DISTINCT product_id, 'Title', 0 FROM variant_default_values ORDER BY product_id;--> statement-breakpoint
INSERT INTO product_option_values (option_id, value, position)
  SELECT o.id, d.value, d.position FROM variant_default_values d JOIN product_options o ON o.product_id = d.product_id
   ORDER BY d.variant_id;--> statement-breakpoint
INSERT INTO variant_option_values (variant_id, product_id, option_id, option_value_id)
  SELECT d.variant_id, d.product_id, o.id, ov.id
    FROM variant_default_values d
    JOIN product_options o ON o.product_id = d.product_id
    JOIN product_option_values ov ON ov.option_id = o.id AND ov.value = d.value;--> statement-breakpoint
-- The storefront's catalog kept in memory (0023) shows options: their changes are announced on the reference channel
-- (0007) like the rest. None raises pricing_version: an option changes no price.
CREATE TRIGGER product_options_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON product_options
  FOR EACH STATEMENT EXECUTE FUNCTION sf_notify_reference_change();--> statement-breakpoint
CREATE TRIGGER product_option_values_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON product_option_values
  FOR EACH STATEMENT EXECUTE FUNCTION sf_notify_reference_change();--> statement-breakpoint
CREATE TRIGGER variant_option_values_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON variant_option_values
  FOR EACH STATEMENT EXECUTE FUNCTION sf_notify_reference_change();
