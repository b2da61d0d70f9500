CREATE TABLE "shipping_rate_prices" (
	"shipping_rate_id" integer NOT NULL,
	"currency" text NOT NULL,
	"base_rate" bigint NOT NULL,
	"per_kg_rate" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shipping_rate_prices_shipping_rate_id_currency_pk" PRIMARY KEY("shipping_rate_id","currency"),
	CONSTRAINT "shipping_rate_prices_currency_check" CHECK ("shipping_rate_prices"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "shipping_rate_prices_amounts_check" CHECK ("shipping_rate_prices"."base_rate" >= 0 and "shipping_rate_prices"."per_kg_rate" >= 0)
);
--> statement-breakpoint
ALTER TABLE "shipping_rate_prices" ADD CONSTRAINT "shipping_rate_prices_shipping_rate_id_shipping_rates_id_fk" FOREIGN KEY ("shipping_rate_id") REFERENCES "public"."shipping_rates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Quotes read a method's rates with their amounts per currency from this process's memory (decision 0037), so a
-- change to them is announced on the change feed of 0007, whoever makes it. A promotion's amounts per currency live in
-- its own row's jsonb (promotions is on the feed since 0014).
CREATE TRIGGER shipping_rate_prices_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON shipping_rate_prices
  FOR EACH STATEMENT EXECUTE FUNCTION sf_notify_reference_change();
