ALTER TABLE "carts" ADD COLUMN "market_id" integer;--> statement-breakpoint
ALTER TABLE "carts" ADD CONSTRAINT "carts_market_id_markets_id_fk" FOREIGN KEY ("market_id") REFERENCES "public"."markets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "carts_market_idx" ON "carts" USING btree ("market_id") WHERE "carts"."market_id" is not null;