-- Places a batch of orders priced in Node, as sets: the batch's checks run over the batch
-- together, and its writes are a few statements whatever its size (one insert of all its orders,
-- one of all their lines, one stock update per variant), where 0009 ran a dozen statements an
-- order. Each element of the argument is the JSON that src/orders/placement.repository.ts builds:
--   idempotency  {scope, key, request_hash} or null: claimed first; a key already answered returns
--                {"replayed": true, "status": ..., "body": ...} without placing anything
--   priced_as    the catalog values the price was computed from, per variant
--   promo        {id} or null: the code whose switch and usage limits (global, per customer,
--                first order only) are checked under its row lock
--   order, lines the rows to insert, keyed by column name (jsonb_populate_record)
--   cart         {user_id} or {token_hash} or null: the cart that loses what was ordered
--   stock        {ids, quantities}: taken off tracked, non-backorder variants, ids distinct and
--                ascending (a repeated id would pass the check entry by entry; the stock check
--                constraint would then fail the statement)
--   response     the answer's body without order_id and status, stored for the idempotency key
-- Returns one result per order, in order. The orders are decided one after the other in batch
-- order, as if placed alone: an order is refused if what the earlier ones of the batch took
-- leaves too little stock or uses up its promo code. Everything is decided before anything is
-- written, so a refused order has written nothing (its idempotency claim is taken back) and leaves
-- the others be: {"error": {"code", "detail"}}. Codes: SF409 insufficient stock (detail: the
-- short variants as JSON), SF410 promo code refused (detail: the rule), SF412 the catalog changed
-- since pricing (a price, weight, tax class, stock rule, or an archive), SF422 idempotency key used
-- with another request, SF423 the key's first request vanished while this one waited on it, or is
-- in this very batch (the app retries; the retry finds its answer).
-- An unexpected error fails the whole statement; the app then places the batch's orders one by one.
-- Rows are locked in a fixed order, one kind after the other, each kind by key: idempotency keys,
-- promo codes, variants, carts (cancellation takes promo codes before variants too).
-- Its statements are planned once per session (generic plans): they are key lookups whatever the
-- values, and PostgreSQL's default re-plans some of them at every call, which with a large catalog
-- cost more than running them.
CREATE OR REPLACE FUNCTION sf_place_orders(batch jsonb) RETURNS jsonb LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  size constant integer := jsonb_array_length(batch);
  -- One per order; NULL while the order is undecided.
  outcome jsonb[] := array_fill(NULL::jsonb, ARRAY[size]);
  -- Idempotency keys this batch claimed, and the order that claimed each.
  claimed_scopes text[] := '{}';
  claimed_keys text[] := '{}';
  claimed_by integer[] := '{}';
  -- Each order's email (a signed-in customer's from the users table) and user.
  emails text[];
  customers integer[];
  -- The promo codes asked for, locked: their rules, and uses counted as orders are decided.
  promo_ids integer[];
  promo_active boolean[];
  promo_limit integer[];
  promo_new_only boolean[];
  promo_per_customer integer[];
  promo_used_before integer[];
  promo_used integer[];
  promo_asked integer[];
  -- The variants whose stock is taken, locked: stock, and units taken as orders are decided.
  variant_ids integer[];
  variant_stock integer[];
  variant_taken integer[];
  -- Units of each variant the undecided orders ask for together, by variant id.
  demand_ids integer[];
  demand_quantities integer[];
  -- Orders that passed every check, in batch order, and what writing them gave.
  placed integer[] := '{}';
  placed_n integer[];
  placed_outcomes jsonb[];
  cart_ids integer[];
  item jsonb;
  idem jsonb;
  stored idempotency_keys%ROWTYPE;
  refusal jsonb;
  short jsonb;
  stock_ids jsonb;
  stock_quantities jsonb;
  i integer;
  j integer;
  k integer;
  promo_k integer;
  used integer;
BEGIN
  -- Idempotency keys, claimed in key order (two batches never wait on each other's keys crosswise).
  -- A concurrent twin holding a key makes the claim wait for its commit, then conflict.
  IF batch @? '$[*].idempotency.key' THEN
    FOR i, idem IN
      SELECT e.n, e.value->'idempotency' FROM jsonb_array_elements(batch) WITH ORDINALITY AS e(value, n)
      WHERE jsonb_typeof(e.value->'idempotency') = 'object'
      ORDER BY e.value->'idempotency'->>'scope', e.value->'idempotency'->>'key', e.n
    LOOP
      IF EXISTS (SELECT 1 FROM unnest(claimed_scopes, claimed_keys) AS c(scope, key)
          WHERE c.scope = idem->>'scope' AND c.key = idem->>'key') THEN
        -- The same key twice in one batch: the first is answered here, the second when retried.
        outcome[i] := jsonb_build_object('error', jsonb_build_object('code', 'SF423'));
        CONTINUE;
      END IF;
      DELETE FROM idempotency_keys WHERE scope = idem->>'scope' AND key = idem->>'key'
        AND created_at < now() - make_interval(hours => 24);
      INSERT INTO idempotency_keys (scope, key, request_hash, response_status, response_body)
        VALUES (idem->>'scope', idem->>'key', idem->>'request_hash', 0, '{}'::jsonb)
        ON CONFLICT DO NOTHING;
      IF FOUND THEN
        claimed_scopes := claimed_scopes || (idem->>'scope');
        claimed_keys := claimed_keys || (idem->>'key');
        claimed_by := claimed_by || i;
        CONTINUE;
      END IF;
      SELECT * INTO stored FROM idempotency_keys WHERE scope = idem->>'scope' AND key = idem->>'key';
      IF NOT FOUND THEN
        outcome[i] := jsonb_build_object('error', jsonb_build_object('code', 'SF423'));
      ELSIF stored.request_hash <> idem->>'request_hash' THEN
        outcome[i] := jsonb_build_object('error', jsonb_build_object('code', 'SF422'));
      ELSE
        outcome[i] := jsonb_build_object('replayed', true, 'status', stored.response_status, 'body', stored.response_body);
      END IF;
    END LOOP;
  END IF;

  -- Every variant priced must still be as it was priced (each looked up by id: an index scan).
  FOR i IN
    SELECT DISTINCT e.n FROM jsonb_array_elements(batch) WITH ORDINALITY AS e(value, n)
    CROSS JOIN LATERAL jsonb_to_recordset(e.value->'priced_as') AS a(id integer, product_id integer, alias text, name text, sku text,
      price bigint, weight_grams numeric, track_inventory boolean, allow_backorder boolean, purchase_limit_per_order integer,
      tax_class_id integer)
    WHERE outcome[e.n] IS NULL AND NOT EXISTS (
      SELECT 1 FROM product_variants v JOIN products pr ON pr.id = v.product_id
      WHERE v.id = a.id AND v.archived_at IS NULL AND pr.archived_at IS NULL
        AND v.product_id = a.product_id AND v.alias = a.alias AND v.name = a.name AND v.sku IS NOT DISTINCT FROM a.sku
        AND v.price = a.price AND v.weight_grams IS NOT DISTINCT FROM a.weight_grams
        AND v.track_inventory = a.track_inventory AND v.allow_backorder = a.allow_backorder
        AND v.purchase_limit_per_order IS NOT DISTINCT FROM a.purchase_limit_per_order
        AND pr.tax_class_id IS NOT DISTINCT FROM a.tax_class_id)
  LOOP
    outcome[i] := jsonb_build_object('error', jsonb_build_object('code', 'SF412'));
  END LOOP;

  SELECT array_agg((e.value->'order'->>'user_id')::integer ORDER BY e.n),
      array_agg(coalesce(e.value->'order'->>'email',
        (SELECT u.email FROM users u WHERE u.id = (e.value->'order'->>'user_id')::integer)) ORDER BY e.n)
    INTO customers, emails
    FROM jsonb_array_elements(batch) WITH ORDINALITY AS e(value, n);

  -- Placements with one code queue on its row, so its limits hold under concurrency.
  promo_asked := ARRAY(SELECT DISTINCT (e.value->'promo'->>'id')::integer
    FROM jsonb_array_elements(batch) WITH ORDINALITY AS e(value, n)
    WHERE outcome[e.n] IS NULL AND jsonb_typeof(e.value->'promo') = 'object' ORDER BY 1);
  IF cardinality(promo_asked) > 0 THEN
    SELECT array_agg(c.id ORDER BY c.id), array_agg(c.is_active ORDER BY c.id), array_agg(c.redemption_limit ORDER BY c.id),
        array_agg(c.new_customers_only ORDER BY c.id), array_agg(c.usage_limit_per_customer ORDER BY c.id),
        array_agg(c.times_used ORDER BY c.id)
      INTO promo_ids, promo_active, promo_limit, promo_new_only, promo_per_customer, promo_used_before
      FROM (SELECT c.* FROM promo_codes c WHERE c.id = ANY (promo_asked) ORDER BY c.id FOR UPDATE) AS c;
    promo_used := promo_used_before;
  END IF;

  SELECT array_agg(d.id ORDER BY d.id), array_agg(d.quantity ORDER BY d.id) INTO demand_ids, demand_quantities
    FROM (SELECT s.id::integer AS id, sum((e.value->'stock'->'quantities'->>(s.k::integer - 1))::integer)::integer AS quantity
      FROM jsonb_array_elements(batch) WITH ORDINALITY AS e(value, n)
      CROSS JOIN LATERAL jsonb_array_elements_text(e.value->'stock'->'ids') WITH ORDINALITY AS s(id, k)
      WHERE outcome[e.n] IS NULL GROUP BY s.id::integer) AS d;
  -- FOR NO KEY UPDATE, the lock an UPDATE takes anyway, which does not wait on the key-share
  -- locks order lines hold on variants through their foreign key.
  IF demand_ids IS NOT NULL THEN
    SELECT array_agg(v.id ORDER BY v.id), array_agg(v.stock ORDER BY v.id) INTO variant_ids, variant_stock
      FROM (SELECT v.id, v.stock FROM product_variants v WHERE v.id = ANY (demand_ids) ORDER BY v.id FOR NO KEY UPDATE) AS v;
  END IF;

  IF variant_ids IS NOT DISTINCT FROM demand_ids
      AND NOT EXISTS (SELECT 1 FROM unnest(variant_stock, demand_quantities) AS d(stock, wanted) WHERE d.stock < d.wanted)
      AND NOT EXISTS (SELECT 1 FROM unnest(promo_active, promo_limit, promo_new_only, promo_per_customer) AS c(active, lim, new_only, per_customer)
        WHERE NOT c.active OR c.lim IS NOT NULL OR c.new_only OR c.per_customer IS NOT NULL)
      AND promo_ids IS NOT DISTINCT FROM nullif(promo_asked, '{}') THEN
    -- The common case: stock covers every undecided order together, and no promo code asked for
    -- has a limit; every one of them is placed, and nothing depends on the order they come in.
    placed := ARRAY(SELECT x FROM generate_series(1, size) AS x WHERE outcome[x] IS NULL ORDER BY x);
    variant_taken := demand_quantities;
    IF promo_ids IS NOT NULL THEN
      promo_used := ARRAY(SELECT promo_used_before[c] + (SELECT count(*) FROM unnest(placed) AS q(n)
          WHERE (batch->(q.n - 1)->'promo'->>'id')::integer = promo_ids[c])
        FROM generate_subscripts(promo_ids, 1) AS c ORDER BY c);
    END IF;
  ELSE
    variant_taken := array_fill(0, ARRAY[coalesce(cardinality(variant_ids), 0)]);
    -- Each order in turn, against what the earlier ones of the batch took.
    FOR i IN 1 .. size LOOP
      CONTINUE WHEN outcome[i] IS NOT NULL;
      item := batch->(i - 1);
      refusal := NULL;
      promo_k := NULL;
      IF jsonb_typeof(item->'promo') = 'object' THEN
        promo_k := array_position(promo_ids, (item->'promo'->>'id')::integer);
        IF promo_k IS NULL OR NOT promo_active[promo_k] THEN
          refusal := jsonb_build_object('code', 'SF410', 'detail', 'inactive');
        ELSIF promo_limit[promo_k] IS NOT NULL AND promo_used[promo_k] >= promo_limit[promo_k] THEN
          refusal := jsonb_build_object('code', 'SF410', 'detail', 'redemption_limit');
        ELSIF promo_new_only[promo_k] AND (
            EXISTS (SELECT 1 FROM orders x WHERE (x.user_id = customers[i] OR x.email = emails[i]) AND x.status <> 'cancelled')
            OR EXISTS (SELECT 1 FROM unnest(placed) AS q(n) WHERE customers[q.n] = customers[i] OR emails[q.n] = emails[i])) THEN
          refusal := jsonb_build_object('code', 'SF410', 'detail', 'new_customers_only');
        ELSIF promo_per_customer[promo_k] IS NOT NULL AND (customers[i] IS NOT NULL OR emails[i] IS NOT NULL) THEN
          -- Two statements rather than one CASE, so each can use the (code, customer) indexes.
          IF customers[i] IS NOT NULL THEN
            SELECT count(*) INTO used FROM promo_code_redemptions r
              WHERE r.promo_code_id = promo_ids[promo_k] AND r.released_at IS NULL AND r.user_id = customers[i];
          ELSE
            SELECT count(*) INTO used FROM promo_code_redemptions r
              WHERE r.promo_code_id = promo_ids[promo_k] AND r.released_at IS NULL AND r.email = emails[i];
          END IF;
          used := used + (SELECT count(*) FROM unnest(placed) AS q(n)
            WHERE (batch->(q.n - 1)->'promo'->>'id')::integer = promo_ids[promo_k]
              AND CASE WHEN customers[i] IS NOT NULL THEN customers[q.n] = customers[i] ELSE emails[q.n] = emails[i] END);
          IF used >= promo_per_customer[promo_k] THEN
            refusal := jsonb_build_object('code', 'SF410', 'detail', 'customer_limit');
          END IF;
        END IF;
      END IF;

      IF refusal IS NULL THEN
        stock_ids := item->'stock'->'ids';
        stock_quantities := item->'stock'->'quantities';
        short := NULL;
        FOR j IN 0 .. jsonb_array_length(stock_ids) - 1 LOOP
          k := array_position(variant_ids, (stock_ids->>j)::integer);
          IF k IS NULL OR variant_stock[k] - variant_taken[k] < (stock_quantities->>j)::integer THEN
            short := coalesce(short, '[]'::jsonb) || jsonb_build_object('id', (stock_ids->>j)::integer,
              'available', coalesce(variant_stock[k] - variant_taken[k], 0));
          END IF;
        END LOOP;
        IF short IS NOT NULL THEN
          refusal := jsonb_build_object('code', 'SF409', 'detail', short::text);
        END IF;
      END IF;

      IF refusal IS NOT NULL THEN
        outcome[i] := jsonb_build_object('error', refusal);
        CONTINUE;
      END IF;
      FOR j IN 0 .. jsonb_array_length(stock_ids) - 1 LOOP
        k := array_position(variant_ids, (stock_ids->>j)::integer);
        variant_taken[k] := variant_taken[k] + (stock_quantities->>j)::integer;
      END LOOP;
      IF promo_k IS NOT NULL THEN
        promo_used[promo_k] := promo_used[promo_k] + 1;
      END IF;
      placed := placed || i;
    END LOOP;
  END IF;

  -- A refused order's idempotency claim is taken back.
  IF cardinality(claimed_by) > 0 THEN
    DELETE FROM idempotency_keys ik USING unnest(claimed_by, claimed_scopes, claimed_keys) AS c(n, scope, key)
      WHERE outcome[c.n] IS NOT NULL AND ik.scope = c.scope AND ik.key = c.key;
  END IF;
  IF cardinality(placed) = 0 THEN
    RETURN to_jsonb(outcome);
  END IF;

  UPDATE product_variants v SET stock = v.stock - t.taken, updated_at = now()
    FROM unnest(variant_ids, variant_taken) AS t(id, taken)
    WHERE v.id = ANY (variant_ids) AND v.id = t.id AND t.taken > 0;
  IF promo_ids IS NOT NULL THEN
    UPDATE promo_codes c SET times_used = c.times_used + (u.now_used - u.used_before)
      FROM unnest(promo_ids, promo_used, promo_used_before) AS u(id, now_used, used_before)
      WHERE c.id = ANY (promo_ids) AND c.id = u.id AND u.now_used > u.used_before;
  END IF;

  -- The orders, their lines and redemptions, and the idempotency keys' answers, in one statement.
  WITH input AS (
    SELECT e.n, e.value AS p, o.*
    FROM jsonb_array_elements(batch) WITH ORDINALITY AS e(value, n)
    CROSS JOIN LATERAL jsonb_populate_record(NULL::orders, e.value->'order') AS o
    WHERE e.n = ANY (placed)
  ), inserted AS (
    INSERT INTO orders (alias, user_id, email, order_token_hash, placed_by, payment_status, currency, prices_include_tax,
        subtotal, discount, discount_name, promo_code_id, promo_code, shipping_method_id, shipping_name, shipping_fee,
        shipping_tax_rate, shipping_tax, estimated_tax, total_without_tax, total, total_items, shipping_address,
        billing_address, note)
      SELECT alias, user_id, emails[n], order_token_hash, placed_by, payment_status, currency, prices_include_tax,
        subtotal, discount, discount_name, promo_code_id, promo_code, shipping_method_id, shipping_name, shipping_fee,
        shipping_tax_rate, shipping_tax, estimated_tax, total_without_tax, total, total_items, shipping_address,
        billing_address, coalesce(note, '')
      FROM input ORDER BY n
      RETURNING id, alias, status
  ), written AS (
    SELECT input.n, input.p, inserted.id, inserted.status FROM input JOIN inserted ON inserted.alias = input.alias
  ), lines AS (
    INSERT INTO order_lines (order_id, variant_id, product_id, alias, name, sku, quantity, unit_price, subtotal, discount,
        tax_class_name, tax_rate, tax, total, stock_reserved)
      SELECT written.id, l.variant_id, l.product_id, l.alias, l.name, l.sku, l.quantity, l.unit_price, l.subtotal, l.discount,
        l.tax_class_name, l.tax_rate, l.tax, l.total, coalesce(l.stock_reserved, false)
      FROM written CROSS JOIN LATERAL jsonb_populate_recordset(NULL::order_lines, written.p->'lines') AS l
  ), redemptions AS (
    INSERT INTO promo_code_redemptions (promo_code_id, order_id, user_id, email)
      SELECT (written.p->'promo'->>'id')::integer, written.id, customers[written.n], emails[written.n]
      FROM written WHERE jsonb_typeof(written.p->'promo') = 'object'
  ), answers AS (
    UPDATE idempotency_keys ik SET response_status = 201,
        response_body = (written.p->'response') || jsonb_build_object('order_id', written.id, 'status', written.status)
      FROM written
      WHERE jsonb_typeof(written.p->'idempotency') = 'object'
        AND ik.scope = written.p->'idempotency'->>'scope' AND ik.key = written.p->'idempotency'->>'key'
  )
  SELECT array_agg(written.n), array_agg(jsonb_build_object('replayed', false, 'order_id', written.id, 'status', written.status))
    INTO placed_n, placed_outcomes
    FROM written;

  -- The callers' carts lose what was ordered: each ordered variant's line its quantity, lines at 0 go.
  IF batch @? '$[*].cart.*' THEN
    SELECT array_agg(c.id ORDER BY c.id) INTO cart_ids
      FROM (SELECT c.id FROM carts c
        WHERE c.user_id = ANY (ARRAY(SELECT (batch->(q.n - 1)->'cart'->>'user_id')::integer FROM unnest(placed) AS q(n)))
          OR (c.token_hash = ANY (ARRAY(SELECT batch->(q.n - 1)->'cart'->>'token_hash' FROM unnest(placed) AS q(n)))
            AND c.closed_at IS NULL)
        ORDER BY c.id FOR UPDATE) AS c;
  END IF;
  IF cart_ids IS NOT NULL THEN
    WITH ordered AS (
      SELECT c.id AS cart_id, l.variant_id, sum(l.quantity) AS quantity
      FROM unnest(placed) AS q(n)
      JOIN carts c ON c.id = ANY (cart_ids)
        AND (c.user_id = (batch->(q.n - 1)->'cart'->>'user_id')::integer
          OR (c.token_hash = batch->(q.n - 1)->'cart'->>'token_hash' AND c.closed_at IS NULL))
      CROSS JOIN LATERAL jsonb_populate_recordset(NULL::order_lines, batch->(q.n - 1)->'lines') AS l
      GROUP BY c.id, l.variant_id
    ), emptied AS (
      DELETE FROM cart_items i USING ordered o
        WHERE i.cart_id = o.cart_id AND i.variant_id = o.variant_id AND i.quantity <= o.quantity
    )
    UPDATE cart_items i SET quantity = i.quantity - o.quantity, updated_at = now()
      FROM ordered o
      WHERE i.cart_id = o.cart_id AND i.variant_id = o.variant_id AND i.quantity > o.quantity;
  END IF;

  RETURN (SELECT jsonb_agg(coalesce(outcome[x], w.result) ORDER BY x)
    FROM generate_series(1, size) AS x LEFT JOIN unnest(placed_n, placed_outcomes) AS w(n, result) ON w.n = x);
END;
$$;
--> statement-breakpoint
-- sf_place_orders does all of it now.
DROP FUNCTION sf_place_order(jsonb);
