-- Takes ordered quantities off the variants' stock, or nothing at all: a placement's last statement.
-- Locks the rows in id order (two placements over the same variants queue rather than deadlock)
-- with FOR NO KEY UPDATE, the lock an UPDATE takes anyway, which does not wait on the key-share
-- locks order lines hold on variants through their foreign key. If any variant holds less than
-- asked, it raises SQLSTATE SF409 with the short variants as JSON in DETAIL
-- ([{"id": 1, "available": 0}, ...]) and changes nothing.
CREATE FUNCTION sf_take_stock(variant_ids integer[], quantities integer[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  short text;
BEGIN
  PERFORM 1 FROM product_variants WHERE id = ANY (variant_ids) ORDER BY id FOR NO KEY UPDATE;
  SELECT json_agg(json_build_object('id', v.id, 'available', v.stock) ORDER BY v.id)::text INTO short
    FROM product_variants v JOIN unnest(variant_ids, quantities) AS d(id, q) ON d.id = v.id
    WHERE v.stock < d.q;
  IF short IS NOT NULL THEN
    RAISE EXCEPTION 'insufficient stock' USING ERRCODE = 'SF409', DETAIL = short;
  END IF;
  UPDATE product_variants v SET stock = v.stock - d.q, updated_at = now()
    FROM unnest(variant_ids, quantities) AS d(id, q) WHERE v.id = d.id;
END;
$$;
