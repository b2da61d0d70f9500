CREATE TABLE "market_countries" (
	"country" text PRIMARY KEY NOT NULL,
	"market_id" integer NOT NULL,
	CONSTRAINT "market_countries_country_check" CHECK ("market_countries"."country" ~ '^[A-Z]{2}$')
);
--> statement-breakpoint
CREATE TABLE "market_payment_plugins" (
	"market_id" integer NOT NULL,
	"plugin_id" text NOT NULL,
	CONSTRAINT "market_payment_plugins_market_id_plugin_id_pk" PRIMARY KEY("market_id","plugin_id")
);
--> statement-breakpoint
CREATE TABLE "market_shipping_methods" (
	"market_id" integer NOT NULL,
	"shipping_method_id" integer NOT NULL,
	CONSTRAINT "market_shipping_methods_market_id_shipping_method_id_pk" PRIMARY KEY("market_id","shipping_method_id")
);
--> statement-breakpoint
CREATE TABLE "markets" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "markets_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"code" text NOT NULL,
	"name" text NOT NULL,
	"currency" text,
	"prices_include_tax" boolean,
	"exchange_rate" numeric(24, 10),
	"rounding_step" numeric(28, 4),
	"price_ending" numeric(28, 4) DEFAULT '0' NOT NULL,
	"rounding_direction" text DEFAULT 'nearest' NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "markets_code_check" CHECK ("markets"."code" ~ '^[a-z0-9_-]{1,32}$'),
	CONSTRAINT "markets_currency_check" CHECK ("markets"."currency" is null or "markets"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "markets_default_check" CHECK (("markets"."is_default" and "markets"."currency" is null and "markets"."prices_include_tax" is null and "markets"."exchange_rate" is null)
        or (not "markets"."is_default" and "markets"."currency" is not null and "markets"."prices_include_tax" is not null
            and "markets"."exchange_rate" > 0)),
	CONSTRAINT "markets_rounding_check" CHECK ("markets"."price_ending" >= 0
        and ("markets"."rounding_step" is null or ("markets"."rounding_step" > 0 and "markets"."price_ending" < "markets"."rounding_step"))),
	CONSTRAINT "markets_rounding_direction_check" CHECK ("markets"."rounding_direction" in ('nearest', 'up', 'down'))
);
--> statement-breakpoint
CREATE TABLE "variant_prices" (
	"variant_id" integer NOT NULL,
	"currency" text NOT NULL,
	"amount" bigint NOT NULL,
	"compare_at_amount" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "variant_prices_variant_id_currency_pk" PRIMARY KEY("variant_id","currency"),
	CONSTRAINT "variant_prices_currency_check" CHECK ("variant_prices"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "variant_prices_amounts_check" CHECK ("variant_prices"."amount" >= 0 and ("variant_prices"."compare_at_amount" is null or "variant_prices"."compare_at_amount" >= 0))
);
--> statement-breakpoint
ALTER TABLE "market_countries" ADD CONSTRAINT "market_countries_market_id_markets_id_fk" FOREIGN KEY ("market_id") REFERENCES "public"."markets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_payment_plugins" ADD CONSTRAINT "market_payment_plugins_market_id_markets_id_fk" FOREIGN KEY ("market_id") REFERENCES "public"."markets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_shipping_methods" ADD CONSTRAINT "market_shipping_methods_market_id_markets_id_fk" FOREIGN KEY ("market_id") REFERENCES "public"."markets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_shipping_methods" ADD CONSTRAINT "market_shipping_methods_shipping_method_id_shipping_methods_id_fk" FOREIGN KEY ("shipping_method_id") REFERENCES "public"."shipping_methods"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variant_prices" ADD CONSTRAINT "variant_prices_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "market_countries_market_idx" ON "market_countries" USING btree ("market_id");--> statement-breakpoint
CREATE INDEX "market_shipping_methods_method_idx" ON "market_shipping_methods" USING btree ("shipping_method_id");--> statement-breakpoint
CREATE UNIQUE INDEX "markets_code_idx" ON "markets" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "markets_one_default_idx" ON "markets" USING btree ("is_default") WHERE "markets"."is_default";--> statement-breakpoint
-- Today's store becomes its default market: its currency, tax inclusivity, rate and rounding stay null, read from
-- STORE_CURRENCY and PRICES_INCLUDE_TAX (decision 0031); it lists no countries, so it serves every country.
INSERT INTO "markets" ("code", "name", "is_default") VALUES ('default', 'Default', true);
