import type { Statement } from '../db/client.js';
import type { ColumnList } from '../db/columns.js';
import { LINE_WRITTEN_COLUMNS, ORDER_WRITTEN_COLUMNS, type OrderValues } from './placement.columns.js';

/**
 * The statements of a placement batch (placement.write.ts sends them), each set-wise and of fixed text (prepared once
 * per connection on PostgreSQL). Each takes JSON built by placement.repository.ts.
 */

/**
 * Claims the batch's keys in key order; a key past its lifetime is taken over. A key a concurrent batch holds makes
 * this wait for it; answered keys are left as they are (and not returned).
 */
export const claimKeys: Statement = {
  name: 'placement_claim_keys',
  text: `insert into idempotency_keys as ik (scope, key, request_hash, response_status, response_body)
    select c.scope, c.key, c.request_hash, 0, '{}'::jsonb
    from jsonb_to_recordset($1::jsonb) as c(scope text, key text, request_hash text) order by c.scope, c.key
    on conflict (scope, key) do update set request_hash = excluded.request_hash, response_status = 0,
      response_body = '{}'::jsonb, created_at = now()
    where ik.created_at < now() - make_interval(hours => $2::integer)
    returning ik.scope, ik.key`,
};

/**
 * The answers of the batch's keys (a statement of its own, after the claim: it must see what the claim's wait let
 * commit); the claimed ones are the claim's own rows, told apart by what the claim returned.
 */
export const storedAnswers: Statement = {
  name: 'placement_stored_answers',
  text: `select ik.scope, ik.key, ik.request_hash, ik.response_status, ik.response_body from idempotency_keys ik
    join jsonb_to_recordset($1::jsonb) as c(scope text, key text) on ik.scope = c.scope and ik.key = c.key`,
};

/**
 * Locks in the fixed order placements and cancellations share (promotions, then variants whose stock is counted,
 * each by id, then carts), and reads what the decision needs; the other variants and the markets' pricing are read
 * without a lock (a market's row is the same for every order in it: a share lock would make it a hot spot, and a read
 * in the batch's transaction is enough to see a rate committed before it). The arms of a UNION ALL run one after the
 * other, so one round trip keeps the order.
 */
export const lockAndRead: Statement = {
  name: 'placement_lock_and_read',
  text: `select 'promo' as kind, to_jsonb(c) as row
      from (select * from promotions where id = any($1::integer[]) order by id for update) c
    union all
    select 'variant', to_jsonb(v) from (
      select v.id, v.stock, v.track_inventory, v.allow_backorder, v.archived_at, v.pricing_version,
        p.archived_at as product_archived_at, p.pricing_version as product_pricing_version
      from product_variants v join products p on p.id = v.product_id
      where v.id = any($2::integer[]) order by v.id for no key update of v) v
    union all
    select 'variant', to_jsonb(v) from (
      select v.id, v.stock, v.track_inventory, v.allow_backorder, v.archived_at, v.pricing_version,
        p.archived_at as product_archived_at, p.pricing_version as product_pricing_version
      from product_variants v join products p on p.id = v.product_id
      where v.id = any($3::integer[]) and v.id <> all($2::integer[])) v
    union all
    select 'cart', to_jsonb(c) from (
      select id, user_id, token_hash from carts
      where user_id = any($4::integer[]) or (token_hash = any($5::text[]) and closed_at is null)
      order by id for update) c
    union all
    select 'market', to_jsonb(m) from (
      select id, currency, prices_include_tax, exchange_rate::text as exchange_rate,
        rounding_step::text as rounding_step, price_ending::text as price_ending, rounding_direction
      from markets where id = any($6::integer[])) m`,
};

/**
 * For each promotion of each placement, what the promotion's row says to count (read after the row is locked, so the
 * counts are the ones its limits hold on): the buyer's unreleased redemptions of it (by user id, or by email for a
 * guest) when it limits uses per customer, and whether the buyer has an order that is not cancelled when it is for a
 * first order. Promotions without such limits cost no count.
 */
export const buyerCounts: Statement = {
  name: 'placement_buyer_counts',
  text: `select b.n, b.promotion_id,
      (case when c.usage_limit_per_customer is not null then
        (select count(*) from promotion_redemptions r
          where r.promotion_id = c.id and r.released_at is null and r.user_id = b.user_id)
        + (select count(*) from promotion_redemptions r
          where b.user_id is null and r.promotion_id = c.id and r.released_at is null and r.email = b.email)
      else 0 end)::integer as redemptions,
      (case when c.new_customers_only then
        exists (select 1 from orders o where o.user_id = b.user_id and o.status <> 'cancelled')
        or exists (select 1 from orders o where o.email = b.email and o.status <> 'cancelled')
      else false end) as has_previous_orders
    from jsonb_to_recordset($1::jsonb) as b(n integer, promotion_id integer, user_id integer, email text)
    join promotions c on c.id = b.promotion_id
    where c.usage_limit_per_customer is not null or c.new_customers_only`,
};

/**
 * An order's value in the insert, where it is not the JSON's as it is (`o.<column>`): a user's email from the
 * account.
 */
const ORDER_VALUE_SQL: Partial<Record<keyof OrderValues, string>> = {
  email: 'coalesce(o.email, (select u.email from users u where u.id = o.user_id))',
};

/**
 * A column's name as the statement writes it: the schema's names are plain lower-case identifiers, as SQL reads
 * them.
 */
const plain = (name: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`column name "${name}" would need quoting`);
  return name;
};
const namesOf = (columns: ColumnList) => columns.map(([, name]) => plain(name)).join(', ');
const valuesOf = (columns: ColumnList, row: string, special: Partial<Record<string, string>> = {}) =>
  columns.map(([key, name]) => special[key] ?? `${row}.${plain(name)}`).join(', ');

/**
 * Everything decided, in one statement: the placed orders (a user's email filled in from the account), their lines,
 * redemptions and keys' answers; claims of refused orders given back; stock and promotion uses taken; carts emptied
 * of what was ordered. Every row it updates is locked already, so it waits on nothing. The orders' and lines' columns
 * are the schema's (placement.columns.ts), read from JSON keyed by column name (`jsonb_populate_record`). It answers
 * what the inserts filled in, which the orders' events carry: the outbox's statements record them after this one, in
 * the same transaction (src/events).
 */
export const writeDecided: Statement = {
  name: 'placement_write',
  text: `with placed as (
      select * from jsonb_to_recordset($1::jsonb)
        as p(n integer, order_row jsonb, lines jsonb, promotion_ids jsonb, scope text, key text, request_hash text,
          response jsonb)
    ), inserted as (
      insert into orders (${namesOf(ORDER_WRITTEN_COLUMNS)})
        select ${valuesOf(ORDER_WRITTEN_COLUMNS, 'o', ORDER_VALUE_SQL)}
        from placed cross join lateral jsonb_populate_record(null::orders, placed.order_row) as o
        order by placed.n
        returning id, alias, status, user_id, email, created_at, updated_at
    ), written as (
      select placed.*, inserted.id, inserted.status, inserted.user_id, inserted.email, inserted.created_at,
        inserted.updated_at
      from placed join inserted on inserted.alias = placed.order_row->>'alias'
    ), lines as (
      insert into order_lines (order_id, ${namesOf(LINE_WRITTEN_COLUMNS)})
        select w.id, ${valuesOf(LINE_WRITTEN_COLUMNS, 'l')}
        from written w cross join lateral jsonb_populate_recordset(null::order_lines, w.lines) as l
    ), redemptions as (
      insert into promotion_redemptions (promotion_id, order_id, user_id, email)
        select pid::integer, w.id, w.user_id, w.email
        from written w cross join lateral jsonb_array_elements_text(w.promotion_ids) as pid
    ), answers as (
      update idempotency_keys ik set request_hash = w.request_hash, response_status = 201,
          response_body = w.response || jsonb_build_object('order_id', w.id, 'status', w.status)
        from written w where w.key is not null and ik.scope = w.scope and ik.key = w.key
    ), released as (
      delete from idempotency_keys ik using jsonb_to_recordset($2::jsonb) as r(scope text, key text)
        where ik.scope = r.scope and ik.key = r.key
    ), stock as (
      update product_variants v set stock = v.stock - t.quantity, updated_at = now()
        from jsonb_to_recordset($3::jsonb) as t(id integer, quantity integer) where v.id = t.id
    ), uses as (
      update promotions c set times_used = c.times_used + u.uses
        from jsonb_to_recordset($4::jsonb) as u(id integer, uses integer) where c.id = u.id
    ), ordered as (
      select * from jsonb_to_recordset($5::jsonb) as o(cart_id integer, variant_id integer, quantity integer)
    ), emptied as (
      delete from cart_items i using ordered o
        where i.cart_id = o.cart_id and i.variant_id = o.variant_id and i.quantity <= o.quantity
    ), reduced as (
      update cart_items i set quantity = i.quantity - o.quantity, updated_at = now() from ordered o
        where i.cart_id = o.cart_id and i.variant_id = o.variant_id and i.quantity > o.quantity
    )
    select n, id, status, email, created_at, updated_at from written`,
};
