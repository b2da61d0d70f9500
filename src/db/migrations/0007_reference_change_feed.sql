-- Reference data the order estimate keeps in memory (catalog variants, tax, shipping, promo codes)
-- announces every change on the channel sf_reference_changed, with the table's name as payload.
-- Statement-level triggers: one notification per table and transaction (PostgreSQL folds
-- identical ones), sent at commit, whoever made the change (the app, the CLI, or SQL by hand).
-- Writes to columns no cache holds (stock, times_used, timestamps) stay silent: placements change
-- them constantly.
CREATE FUNCTION sf_notify_reference_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('sf_reference_changed', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER tax_classes_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON tax_classes FOR EACH STATEMENT EXECUTE FUNCTION sf_notify_reference_change();
--> statement-breakpoint
CREATE TRIGGER tax_rates_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON tax_rates FOR EACH STATEMENT EXECUTE FUNCTION sf_notify_reference_change();
--> statement-breakpoint
CREATE TRIGGER shipping_methods_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON shipping_methods FOR EACH STATEMENT EXECUTE FUNCTION sf_notify_reference_change();
--> statement-breakpoint
CREATE TRIGGER shipping_rates_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON shipping_rates FOR EACH STATEMENT EXECUTE FUNCTION sf_notify_reference_change();
--> statement-breakpoint
CREATE TRIGGER products_changed AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF name, tax_class_id, archived_at ON products FOR EACH STATEMENT EXECUTE FUNCTION sf_notify_reference_change();
--> statement-breakpoint
CREATE TRIGGER product_variants_changed AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF product_id, alias, name, sku, price, weight_grams, track_inventory, allow_backorder, purchase_limit_per_order, archived_at ON product_variants FOR EACH STATEMENT EXECUTE FUNCTION sf_notify_reference_change();
--> statement-breakpoint
CREATE TRIGGER promo_codes_changed AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF code, code_type, value, is_active, starts_at, expires_at, min_purchase_amount, redemption_limit, usage_limit_per_customer, specific_customers, applicable_products, new_customers_only ON promo_codes FOR EACH STATEMENT EXECUTE FUNCTION sf_notify_reference_change();
