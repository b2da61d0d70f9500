ALTER TABLE "orders" ADD COLUMN "market_id" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "exchange_rate" numeric(24, 10);--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "total_in_store_currency" bigint;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_market_id_markets_id_fk" FOREIGN KEY ("market_id") REFERENCES "public"."markets"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_market_idx" ON "orders" USING btree ("market_id");--> statement-breakpoint
-- Quotes, carts and the storefront catalog read the markets and the variants' prices per currency from this process's
-- memory (decision 0031), so a change to them is announced on the change feed of 0007, whoever makes it.
CREATE TRIGGER markets_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON markets
  FOR EACH STATEMENT EXECUTE FUNCTION sf_notify_reference_change();--> statement-breakpoint
CREATE TRIGGER market_countries_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON market_countries
  FOR EACH STATEMENT EXECUTE FUNCTION sf_notify_reference_change();--> statement-breakpoint
CREATE TRIGGER market_payment_plugins_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON market_payment_plugins
  FOR EACH STATEMENT EXECUTE FUNCTION sf_notify_reference_change();--> statement-breakpoint
CREATE TRIGGER market_shipping_methods_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON market_shipping_methods
  FOR EACH STATEMENT EXECUTE FUNCTION sf_notify_reference_change();--> statement-breakpoint
CREATE TRIGGER variant_prices_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON variant_prices
  FOR EACH STATEMENT EXECUTE FUNCTION sf_notify_reference_change();
