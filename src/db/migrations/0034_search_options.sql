ALTER TABLE "product_search" ADD COLUMN "category_ids" integer[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "product_search" ADD COLUMN "option_names" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "product_search" ADD COLUMN "option_values" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
-- Search on option values (issue #29 items 4 and 8, decision 0034): the option values of a product's active variants
-- join its document (weight C, with the variants' names and SKUs), so "red hoodie" finds the hoodie with a red
-- variant. Values only, not option names: "Size" or "Title" (every product migration 0032 gave options) would match
-- nearly every product. Beside the document, what the facets count that only these writes change: the product's own
-- categories and its option values (name and value at the same index, in the admin's order), so that a search reads
-- one row per matched product instead of its variants' and categories' rows.
CREATE OR REPLACE FUNCTION sf_product_search_refresh(ids integer[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO product_search (product_id, document, category_ids, option_names, option_values)
  SELECT p.id,
    setweight(to_tsvector('simple', sf_search_text(p.name)), 'A')
    || setweight(to_tsvector('simple', sf_search_text(concat_ws(' ', p.handle,
      (SELECT string_agg(c.name, ' ' ORDER BY c.id) FROM product_categories pc
        JOIN categories c ON c.id = pc.category_id WHERE pc.product_id = p.id)))), 'B')
    || setweight(to_tsvector('simple', sf_search_text(concat_ws(' ',
      (SELECT string_agg(concat_ws(' ', v.name, v.sku), ' ' ORDER BY v.id) FROM product_variants v
        WHERE v.product_id = p.id AND v.archived_at IS NULL),
      array_to_string(o.option_values, ' ')))), 'C')
    || setweight(to_tsvector('simple', p.description), 'D'),
    coalesce((SELECT array_agg(pc.category_id ORDER BY pc.category_id) FROM product_categories pc
      WHERE pc.product_id = p.id), '{}'),
    o.option_names, o.option_values
  FROM products p
  CROSS JOIN LATERAL (
    SELECT coalesce(array_agg(x.name ORDER BY x.option_position, x.value_position), '{}') AS option_names,
      coalesce(array_agg(x.value ORDER BY x.option_position, x.value_position), '{}') AS option_values
    FROM (
      SELECT DISTINCT po.name, po.position AS option_position, ov.value, ov.position AS value_position
      FROM variant_option_values vo
      JOIN product_variants v ON v.id = vo.variant_id AND v.archived_at IS NULL
      JOIN product_options po ON po.id = vo.option_id
      JOIN product_option_values ov ON ov.id = vo.option_value_id
      WHERE vo.product_id = p.id
    ) x
  ) o
  WHERE p.id = ANY(ids) ORDER BY p.id
  ON CONFLICT (product_id) DO UPDATE SET document = EXCLUDED.document, category_ids = EXCLUDED.category_ids,
    option_names = EXCLUDED.option_names, option_values = EXCLUDED.option_values;
  INSERT INTO search_words (word)
  SELECT DISTINCT w.lexeme FROM product_search s CROSS JOIN LATERAL unnest(s.document) w
  WHERE s.product_id = ANY(ids) AND length(w.lexeme) BETWEEN 3 AND 60 AND w.lexeme !~ '[0-9]' ORDER BY w.lexeme
  ON CONFLICT DO NOTHING;
$$;--> statement-breakpoint
-- As in 0030, and an option value renamed: the documents of the products that have the option.
CREATE OR REPLACE FUNCTION sf_product_search_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'categories' THEN
    PERFORM sf_product_search_refresh(ARRAY(SELECT product_id FROM product_categories WHERE category_id = NEW.id));
  ELSIF TG_TABLE_NAME = 'products' THEN
    PERFORM sf_product_search_refresh(ARRAY[NEW.id]);
  ELSIF TG_TABLE_NAME = 'product_option_values' THEN
    PERFORM sf_product_search_refresh(ARRAY(SELECT product_id FROM product_options WHERE id = NEW.option_id));
  ELSE
    PERFORM sf_product_search_refresh(ARRAY[OLD.product_id, NEW.product_id]);
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
-- A variant's values given, taken or changed (an option or value removed takes them by cascade): one rebuild per
-- statement. Options and values added alone change no variant; renamed, they change the documents that hold them.
CREATE TRIGGER variant_option_values_search_added AFTER INSERT ON variant_option_values
  REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION sf_product_search_rows_changed();--> statement-breakpoint
CREATE TRIGGER variant_option_values_search_removed AFTER DELETE ON variant_option_values
  REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION sf_product_search_rows_changed();--> statement-breakpoint
CREATE TRIGGER variant_option_values_search_moved AFTER UPDATE ON variant_option_values
  REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION sf_product_search_rows_changed();--> statement-breakpoint
CREATE TRIGGER product_options_search_renamed AFTER UPDATE OF name ON product_options
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name)
  EXECUTE FUNCTION sf_product_search_row_changed();--> statement-breakpoint
CREATE TRIGGER product_option_values_search_renamed AFTER UPDATE OF value ON product_option_values
  FOR EACH ROW WHEN (OLD.value IS DISTINCT FROM NEW.value)
  EXECUTE FUNCTION sf_product_search_row_changed();--> statement-breakpoint
-- The products that exist: their documents and facts rebuilt once here.
SELECT sf_product_search_refresh(ARRAY(SELECT id FROM products));
