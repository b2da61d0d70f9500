-- The storefront's catalog pages are kept in memory too (src/catalog/storefront-catalog.ts): they show two columns
-- no quote reads, a product's description and a variant's compare-at price, so changes to those are announced on
-- the same channel (0007, 0011). Neither raises pricing_version: neither changes what an order is charged. Stock and
-- timestamps stay silent (placements write them constantly): the storefront reads stock with every page.
CREATE TRIGGER products_description_changed AFTER UPDATE OF description ON products FOR EACH ROW
  WHEN (OLD.description IS DISTINCT FROM NEW.description)
  EXECUTE FUNCTION sf_notify_reference_change();--> statement-breakpoint
CREATE TRIGGER product_variants_compare_at_price_changed AFTER UPDATE OF compare_at_price ON product_variants
  FOR EACH ROW WHEN (OLD.compare_at_price IS DISTINCT FROM NEW.compare_at_price)
  EXECUTE FUNCTION sf_notify_reference_change();
