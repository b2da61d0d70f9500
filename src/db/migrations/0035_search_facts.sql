ALTER TABLE "product_search" ADD COLUMN "in_stock" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "product_search" ADD COLUMN "prices" bigint[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "product_search" ADD COLUMN "priced_currencies" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
-- Search at 100,000 variants (issue #29 item 8, decision 0034): what the price and stock facets read, kept on the
-- product's search row, so a search reads one row per matched product instead of each of its variants. Availability
-- is sellableUnits (src/catalog/availability.ts) as a condition, as the search read it before. Written only when it
-- changes: a placement or refund that leaves every variant as available as it was never comes here.
CREATE FUNCTION sf_product_search_facts(ids integer[]) RETURNS void LANGUAGE sql AS $$
  UPDATE product_search s SET in_stock = f.in_stock, prices = f.prices, priced_currencies = f.currencies
  FROM (
    SELECT x.id,
      coalesce((SELECT bool_or(NOT v.track_inventory OR v.allow_backorder OR v.stock > 0) FROM product_variants v
        WHERE v.product_id = x.id AND v.archived_at IS NULL), false) AS in_stock,
      coalesce((SELECT array_agg(DISTINCT v.price ORDER BY v.price) FROM product_variants v
        WHERE v.product_id = x.id AND v.archived_at IS NULL), '{}') AS prices,
      coalesce((SELECT array_agg(DISTINCT vp.currency ORDER BY vp.currency) FROM variant_prices vp
        JOIN product_variants v ON v.id = vp.variant_id WHERE v.product_id = x.id AND v.archived_at IS NULL),
        '{}') AS currencies
    FROM (SELECT DISTINCT id FROM unnest(ids) AS u(id) WHERE id IS NOT NULL ORDER BY id) x
  ) f
  WHERE s.product_id = f.id
    AND (s.in_stock, s.prices, s.priced_currencies) IS DISTINCT FROM (f.in_stock, f.prices, f.currencies);
$$;--> statement-breakpoint
CREATE FUNCTION sf_product_search_facts_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'product_variants' THEN
    IF TG_OP = 'INSERT' THEN
      PERFORM sf_product_search_facts(ARRAY(SELECT DISTINCT product_id FROM added));
    ELSE
      PERFORM sf_product_search_facts(ARRAY(SELECT DISTINCT product_id FROM removed));
    END IF;
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM sf_product_search_facts(ARRAY(SELECT DISTINCT v.product_id FROM added a
      JOIN product_variants v ON v.id = a.variant_id));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM sf_product_search_facts(ARRAY(SELECT DISTINCT v.product_id FROM removed r
      JOIN product_variants v ON v.id = r.variant_id));
  ELSE
    PERFORM sf_product_search_facts(ARRAY(SELECT DISTINCT v.product_id FROM added a
      JOIN product_variants v ON v.id = a.variant_id
      UNION SELECT v.product_id FROM removed r JOIN product_variants v ON v.id = r.variant_id));
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION sf_product_search_facts_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sf_product_search_facts(ARRAY[OLD.product_id, NEW.product_id]);
  RETURN NULL;
END;
$$;--> statement-breakpoint
-- Named after 0030's triggers of the same events, so that they run after them (a new product's row exists).
CREATE TRIGGER product_variants_search_facts_added AFTER INSERT ON product_variants REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION sf_product_search_facts_rows_changed();--> statement-breakpoint
CREATE TRIGGER product_variants_search_facts_removed AFTER DELETE ON product_variants
  REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION sf_product_search_facts_rows_changed();--> statement-breakpoint
-- Row by row, and only when a price changes or a variant starts or stops being available or active: a placement
-- taking the third of five units, or a version bump, is not a change here.
CREATE TRIGGER product_variants_search_facts_changed
  AFTER UPDATE OF price, stock, track_inventory, allow_backorder, archived_at, product_id ON product_variants
  FOR EACH ROW WHEN (OLD.price <> NEW.price OR (OLD.archived_at IS NULL) <> (NEW.archived_at IS NULL)
    OR OLD.product_id <> NEW.product_id
    OR (NOT OLD.track_inventory OR OLD.allow_backorder OR OLD.stock > 0)
      <> (NOT NEW.track_inventory OR NEW.allow_backorder OR NEW.stock > 0))
  EXECUTE FUNCTION sf_product_search_facts_row_changed();--> statement-breakpoint
CREATE TRIGGER variant_prices_search_facts_added AFTER INSERT ON variant_prices REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION sf_product_search_facts_rows_changed();--> statement-breakpoint
CREATE TRIGGER variant_prices_search_facts_removed AFTER DELETE ON variant_prices REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION sf_product_search_facts_rows_changed();--> statement-breakpoint
CREATE TRIGGER variant_prices_search_facts_moved AFTER UPDATE ON variant_prices
  REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION sf_product_search_facts_rows_changed();--> statement-breakpoint
SELECT sf_product_search_facts(ARRAY(SELECT product_id FROM product_search));
