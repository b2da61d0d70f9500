CREATE TABLE "categories" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "categories_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"parent_id" integer,
	"name" text NOT NULL,
	"handle" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"seo_title" text,
	"seo_description" text,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "categories_handle_check" CHECK ("categories"."handle" ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and length("categories"."handle") <= 100),
	CONSTRAINT "categories_not_own_parent_check" CHECK ("categories"."parent_id" <> "categories"."id"),
	CONSTRAINT "categories_position_check" CHECK ("categories"."position" >= 0)
);
--> statement-breakpoint
CREATE TABLE "collection_products" (
	"collection_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "collection_products_collection_id_product_id_pk" PRIMARY KEY("collection_id","product_id"),
	CONSTRAINT "collection_products_position_check" CHECK ("collection_products"."position" >= 0)
);
--> statement-breakpoint
CREATE TABLE "collections" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "collections_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"handle" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"seo_title" text,
	"seo_description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "collections_handle_check" CHECK ("collections"."handle" ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and length("collections"."handle") <= 100)
);
--> statement-breakpoint
CREATE TABLE "product_categories" (
	"product_id" integer NOT NULL,
	"category_id" integer NOT NULL,
	CONSTRAINT "product_categories_product_id_category_id_pk" PRIMARY KEY("product_id","category_id")
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "seo_title" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "seo_description" text;--> statement-breakpoint
ALTER TABLE "categories" ADD CONSTRAINT "categories_parent_id_categories_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."categories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_products" ADD CONSTRAINT "collection_products_collection_id_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_products" ADD CONSTRAINT "collection_products_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_categories" ADD CONSTRAINT "product_categories_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_categories" ADD CONSTRAINT "product_categories_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "categories_handle_idx" ON "categories" USING btree ("handle");--> statement-breakpoint
CREATE INDEX "categories_parent_idx" ON "categories" USING btree ("parent_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "collection_products_position_idx" ON "collection_products" USING btree ("collection_id","position");--> statement-breakpoint
CREATE INDEX "collection_products_product_idx" ON "collection_products" USING btree ("product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "collections_handle_idx" ON "collections" USING btree ("handle");--> statement-breakpoint
CREATE INDEX "product_categories_category_idx" ON "product_categories" USING btree ("category_id","product_id");--> statement-breakpoint
-- Every product that exists gets a handle made from its name as src/catalog/handles.ts makes one (slugify, then
-- -2, -3, … for a handle already given), in id order; the same steps, written again here once, for the upgrade
-- (test/migrations.test.ts checks that both give the same handles). The unique index comes first: it is what the
-- loop looks a handle up in.
ALTER TABLE "products" ADD COLUMN "handle" text;--> statement-breakpoint
CREATE UNIQUE INDEX "products_handle_idx" ON "products" USING btree ("handle");--> statement-breakpoint
DO $$
DECLARE
  product record;
  pair text[];
  base text;
  candidate text;
  n integer;
BEGIN
  FOR product IN SELECT id, name FROM products ORDER BY id LOOP
    base := regexp_replace(normalize(product.name, NFKD), '[\u0300-\u036f]', '', 'g');
    FOREACH pair SLICE 1 IN ARRAY ARRAY[['ß', 'ss'], ['Æ', 'AE'], ['æ', 'ae'], ['Œ', 'OE'], ['œ', 'oe'], ['Ø', 'O'],
        ['ø', 'o'], ['Đ', 'D'], ['đ', 'd'], ['Ł', 'L'], ['ł', 'l'], ['Þ', 'TH'], ['þ', 'th'], ['Ð', 'D'], ['ð', 'd']] LOOP
      base := replace(base, pair[1], pair[2]);
    END LOOP;
    base := trim(BOTH '-' FROM regexp_replace(lower(base), '[^a-z0-9]+', '-', 'g'));
    base := trim(BOTH '-' FROM left(base, 100));
    IF base = '' THEN
      base := 'product';
    END IF;
    candidate := base;
    n := 2;
    WHILE EXISTS (SELECT 1 FROM products WHERE handle = candidate) LOOP
      candidate := trim(BOTH '-' FROM left(base, 100 - length('-' || n))) || '-' || n;
      n := n + 1;
    END LOOP;
    UPDATE products SET handle = candidate WHERE id = product.id;
  END LOOP;
END;
$$;--> statement-breakpoint
ALTER TABLE "products" ALTER COLUMN "handle" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_handle_check" CHECK ("products"."handle" ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and length("products"."handle") <= 100);--> statement-breakpoint
-- The storefront keeps its catalog pages in memory (0023): what they show of categories and collections, and a
-- product's handle and SEO fields, is announced on the reference channel (0007) like the rest. None of it raises
-- pricing_version: none of it changes what an order is charged.
CREATE TRIGGER categories_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON categories
  FOR EACH STATEMENT EXECUTE FUNCTION sf_notify_reference_change();--> statement-breakpoint
CREATE TRIGGER product_categories_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON product_categories
  FOR EACH STATEMENT EXECUTE FUNCTION sf_notify_reference_change();--> statement-breakpoint
CREATE TRIGGER collections_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON collections
  FOR EACH STATEMENT EXECUTE FUNCTION sf_notify_reference_change();--> statement-breakpoint
CREATE TRIGGER collection_products_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON collection_products
  FOR EACH STATEMENT EXECUTE FUNCTION sf_notify_reference_change();--> statement-breakpoint
CREATE TRIGGER products_storefront_fields_changed AFTER UPDATE OF handle, seo_title, seo_description ON products
  FOR EACH ROW WHEN (OLD.handle IS DISTINCT FROM NEW.handle OR OLD.seo_title IS DISTINCT FROM NEW.seo_title
    OR OLD.seo_description IS DISTINCT FROM NEW.seo_description)
  EXECUTE FUNCTION sf_notify_reference_change();