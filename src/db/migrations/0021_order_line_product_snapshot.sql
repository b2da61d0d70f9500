ALTER TABLE "order_lines" ADD COLUMN "product_name" text;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "options" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
-- Lines placed before this migration get their product's name as it is now (the name at placement was not kept);
-- a line whose product is gone keeps null, and is shown by its variant's name. Options stay empty: there were none.
UPDATE "order_lines" AS l SET "product_name" = p."name"
  FROM "products" AS p
  WHERE p."id" = l."product_id" AND l."product_name" IS NULL;
