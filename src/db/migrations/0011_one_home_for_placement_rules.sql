-- Placement is decided in TypeScript (src/orders/placement.decide.ts); the database stores, locks and counts.
-- This migration brings every database to one state whatever versions of 0008-0010 it ran (0009 and 0010 were
-- edited after they landed): it drops every function that ever decided a placement, under each signature it had.
DROP FUNCTION IF EXISTS sf_place_orders(jsonb);--> statement-breakpoint
DROP FUNCTION IF EXISTS sf_place_order(jsonb);--> statement-breakpoint
DROP FUNCTION IF EXISTS sf_take_stock(integer[], integer[]);--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "pricing_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "pricing_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- What a quote depends on is stated here and nowhere else: an update that sets any of these columns raises the
-- row's pricing_version (setting one to the value it had too, as the 0007 change feed announced it). A placement
-- compares versions, not columns, with what it was priced from, and the reference cache's change feed announces a
-- variant or product when its version moves. The trigger stores; it decides nothing. Stock and timestamps are not
-- listed: placements write them constantly.
CREATE FUNCTION sf_raise_pricing_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.pricing_version := OLD.pricing_version + 1;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER product_variants_pricing_version BEFORE UPDATE OF product_id, alias, name, sku, price, weight_grams,
  track_inventory, allow_backorder, purchase_limit_per_order, archived_at ON product_variants
  FOR EACH ROW EXECUTE FUNCTION sf_raise_pricing_version();--> statement-breakpoint
CREATE TRIGGER products_pricing_version BEFORE UPDATE OF name, tax_class_id, archived_at ON products
  FOR EACH ROW EXECUTE FUNCTION sf_raise_pricing_version();--> statement-breakpoint
-- The change feed (0007) listed the same columns again; it now follows the version. Inserts, deletes and truncates
-- are announced once per statement as before; an update once per changed row, which PostgreSQL folds into one
-- notification per table and transaction.
DROP TRIGGER IF EXISTS product_variants_changed ON product_variants;--> statement-breakpoint
DROP TRIGGER IF EXISTS products_changed ON products;--> statement-breakpoint
CREATE TRIGGER product_variants_added_or_removed AFTER INSERT OR DELETE OR TRUNCATE ON product_variants
  FOR EACH STATEMENT EXECUTE FUNCTION sf_notify_reference_change();--> statement-breakpoint
CREATE TRIGGER product_variants_changed AFTER UPDATE ON product_variants FOR EACH ROW
  WHEN (OLD.pricing_version IS DISTINCT FROM NEW.pricing_version)
  EXECUTE FUNCTION sf_notify_reference_change();--> statement-breakpoint
CREATE TRIGGER products_added_or_removed AFTER INSERT OR DELETE OR TRUNCATE ON products
  FOR EACH STATEMENT EXECUTE FUNCTION sf_notify_reference_change();--> statement-breakpoint
CREATE TRIGGER products_changed AFTER UPDATE ON products FOR EACH ROW
  WHEN (OLD.pricing_version IS DISTINCT FROM NEW.pricing_version)
  EXECUTE FUNCTION sf_notify_reference_change();
