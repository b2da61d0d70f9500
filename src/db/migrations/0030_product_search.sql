-- Search (issue #29 item 4, decision 0034): trigram similarity for typo tolerance. PGlite loads the extension with
-- the database (src/db/client.ts); PostgreSQL ships it with its contrib modules.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "product_search" (
	"product_id" integer PRIMARY KEY NOT NULL,
	"document" "tsvector" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_words" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
ALTER TABLE "product_search" ADD CONSTRAINT "product_search_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_search_document_idx" ON "product_search" USING gin ("document") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "search_words_trigram_idx" ON "search_words" USING gist ("word" gist_trgm_ops);--> statement-breakpoint
CREATE INDEX "search_words_prefix_idx" ON "search_words" USING btree ("word" text_pattern_ops);--> statement-breakpoint
-- A text as the search documents index it: as written, and when it has hyphens once more without them, so that
-- "T-Shirt" is found as "tshirt" (and, by its trigrams, "tshrit") as well as "t-shirt", "t" and "shirt".
CREATE FUNCTION sf_search_text(t text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN strpos(t, '-') > 0 THEN t || ' ' || replace(t, '-', '') ELSE t END
$$;--> statement-breakpoint
-- The one definition of a product's search document: name (A), handle and category names (B), the names and SKUs of
-- its active variants (C), description (D); 'simple' configuration: no language's stemming or stop words, prefixes
-- and typo tolerance instead (src/search/search.values.ts). Then its words, for the typo lookup. Rows in id and word
-- order, so that two transactions refreshing the same products or adding the same words never wait on each other
-- in a cycle. Words with digits (SKUs, sizes, numbers) are found as typed, never as typos: they stay out of the words.
CREATE FUNCTION sf_product_search_refresh(ids integer[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO product_search (product_id, document)
  SELECT p.id,
    setweight(to_tsvector('simple', sf_search_text(p.name)), 'A')
    || setweight(to_tsvector('simple', sf_search_text(concat_ws(' ', p.handle,
      (SELECT string_agg(c.name, ' ' ORDER BY c.id) FROM product_categories pc
        JOIN categories c ON c.id = pc.category_id WHERE pc.product_id = p.id)))), 'B')
    || setweight(to_tsvector('simple', sf_search_text(coalesce(
      (SELECT string_agg(concat_ws(' ', v.name, v.sku), ' ' ORDER BY v.id) FROM product_variants v
        WHERE v.product_id = p.id AND v.archived_at IS NULL), ''))), 'C')
    || setweight(to_tsvector('simple', p.description), 'D')
  FROM products p WHERE p.id = ANY(ids) ORDER BY p.id
  ON CONFLICT (product_id) DO UPDATE SET document = EXCLUDED.document;
  INSERT INTO search_words (word)
  SELECT DISTINCT w.lexeme FROM product_search s CROSS JOIN LATERAL unnest(s.document) w
  WHERE s.product_id = ANY(ids) AND length(w.lexeme) BETWEEN 3 AND 60 AND w.lexeme !~ '[0-9]' ORDER BY w.lexeme
  ON CONFLICT DO NOTHING;
$$;--> statement-breakpoint
-- Rows inserted, deleted or moved by one statement: their products' documents rebuilt at once (a bulk insert of
-- 100,000 variants rebuilds each of their products once).
CREATE FUNCTION sf_product_search_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'products' THEN
    PERFORM sf_product_search_refresh(ARRAY(SELECT id FROM added));
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM sf_product_search_refresh(ARRAY(SELECT DISTINCT product_id FROM added));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM sf_product_search_refresh(ARRAY(SELECT DISTINCT product_id FROM removed));
  ELSE
    PERFORM sf_product_search_refresh(ARRAY(SELECT product_id FROM added UNION SELECT product_id FROM removed));
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
-- A row whose indexed text changed: its product's document (a category's: the documents of its products).
CREATE FUNCTION sf_product_search_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'categories' THEN
    PERFORM sf_product_search_refresh(ARRAY(SELECT product_id FROM product_categories WHERE category_id = NEW.id));
  ELSIF TG_TABLE_NAME = 'products' THEN
    PERFORM sf_product_search_refresh(ARRAY[NEW.id]);
  ELSE
    PERFORM sf_product_search_refresh(ARRAY[OLD.product_id, NEW.product_id]);
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER products_search_added AFTER INSERT ON products REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION sf_product_search_rows_changed();--> statement-breakpoint
CREATE TRIGGER products_search_changed AFTER UPDATE OF name, description, handle ON products
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.description IS DISTINCT FROM NEW.description
    OR OLD.handle IS DISTINCT FROM NEW.handle)
  EXECUTE FUNCTION sf_product_search_row_changed();--> statement-breakpoint
CREATE TRIGGER product_variants_search_added AFTER INSERT ON product_variants REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION sf_product_search_rows_changed();--> statement-breakpoint
CREATE TRIGGER product_variants_search_removed AFTER DELETE ON product_variants REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION sf_product_search_rows_changed();--> statement-breakpoint
-- Stock, prices and versions are left out: placements and refunds, which write them, never rebuild a document.
CREATE TRIGGER product_variants_search_changed AFTER UPDATE OF name, sku, archived_at, product_id ON product_variants
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.sku IS DISTINCT FROM NEW.sku
    OR (OLD.archived_at IS NULL) <> (NEW.archived_at IS NULL) OR OLD.product_id <> NEW.product_id)
  EXECUTE FUNCTION sf_product_search_row_changed();--> statement-breakpoint
CREATE TRIGGER product_categories_search_added AFTER INSERT ON product_categories REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION sf_product_search_rows_changed();--> statement-breakpoint
CREATE TRIGGER product_categories_search_removed AFTER DELETE ON product_categories REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION sf_product_search_rows_changed();--> statement-breakpoint
CREATE TRIGGER product_categories_search_moved AFTER UPDATE ON product_categories
  REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION sf_product_search_rows_changed();--> statement-breakpoint
CREATE TRIGGER categories_search_renamed AFTER UPDATE OF name ON categories
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name)
  EXECUTE FUNCTION sf_product_search_row_changed();--> statement-breakpoint
-- The products that exist: indexed once here.
SELECT sf_product_search_refresh(ARRAY(SELECT id FROM products));
