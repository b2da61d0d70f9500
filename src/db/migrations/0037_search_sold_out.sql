-- Search at 100,000 variants (issue #29 item 8, decision 0034): every search reads the sold-out products (its kept
-- matches never hold stock); this index has an entry per product none of whose active variants can be bought now.
CREATE INDEX "product_search_sold_out_idx" ON "product_search" USING btree ("product_id") WHERE not "product_search"."in_stock";
