-- Placement answers stored for an Idempotency-Key before migration 0021 lack the line fields it added, which the
-- answer's schema requires: a retry with such a key (kept 24 hours) would fail to serialise. Each stored line gets
-- them from the order line it was written as; `variant_name` is the line's `name`, which was the variant's name then.
-- `name` itself is left as it was answered.
UPDATE "idempotency_keys" AS ik SET "response_body" = jsonb_set(ik."response_body", '{lines}', (
  SELECT coalesce(jsonb_agg(
    jsonb_build_object(
      'product_name', ol."product_name",
      'variant_name', e.line->>'name',
      'sku', ol."sku",
      'options', '[]'::jsonb,
      'tax_class', ol."tax_class_name"
    ) || e.line ORDER BY e.ord), '[]'::jsonb)
  FROM jsonb_array_elements(ik."response_body"->'lines') WITH ORDINALITY AS e(line, ord)
  LEFT JOIN "order_lines" AS ol
    ON ol."order_id" = (ik."response_body"->>'order_id')::integer AND ol."alias" = e.line->>'alias'
))
WHERE ik."response_status" = 201
  AND jsonb_typeof(ik."response_body"->'lines') = 'array'
  AND ik."response_body"->'lines'->0->'variant_name' IS NULL
  AND jsonb_array_length(ik."response_body"->'lines') > 0;
