-- Default tax rates (tax_class_id null) and a tax class for shipping methods (SPEC section 10, "Tax, also here").
-- No new triggers: the statement-level triggers of 0007 on tax_rates and shipping_methods fire on every UPDATE
-- whatever its columns, so changes to these columns (and the ON DELETE SET NULL of a deleted class) are announced.
ALTER TABLE "tax_rates" ALTER COLUMN "tax_class_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "shipping_methods" ADD COLUMN "tax_class_id" integer;--> statement-breakpoint
ALTER TABLE "shipping_methods" ADD CONSTRAINT "shipping_methods_tax_class_id_tax_classes_id_fk" FOREIGN KEY ("tax_class_id") REFERENCES "public"."tax_classes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tax_rates_default_place_idx" ON "tax_rates" USING btree ("country",upper("state")) WHERE "tax_rates"."tax_class_id" is null;