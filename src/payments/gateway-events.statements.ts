import type { Statement } from '../db/client.js';

/**
 * The statements that store a gateway's event and find its payment (gateway-events.ts sends them), of fixed text:
 * prepared once per connection on PostgreSQL, sent together in one message by the transaction that decides whether
 * the event changes anything, and run one by one through Drizzle by the one that applies a change. Decision 0026.
 */

/**
 * The payment an event names, of the plugin `$plugin`, only through references this service stored: its own
 * reference first, then the gateway's ids (each null when the event does not carry it), as `p`.
 */
const matchOf = (p: string, n: { plugin: number; reference: number; gatewayRef: number; gatewayPaymentRef: number }) =>
  `${p}.plugin_id = $${n.plugin}
      and (${p}.reference = $${n.reference} or ${p}.gateway_ref = $${n.gatewayRef}
        or ${p}.gateway_payment_ref = $${n.gatewayPaymentRef})
    order by case when ${p}.reference = $${n.reference} then 0
      when ${p}.gateway_ref = $${n.gatewayRef} then 1 else 2 end
    limit 1`;

/**
 * Stores the event once (`$1` plugin, `$2` its id, `$3` kind, `$4` amount, `$5` currency) and, only when it is new,
 * locks the payment it names (`$6` reference, `$7` gateway ref, `$8` gateway payment ref) with its order: no row for
 * an event seen before, a row without `payment` for one that names no payment. The order is first in FROM, so its row
 * is locked before the payment's (row marks are taken in range-table order): the lock order every payment write
 * follows (decision 0025).
 */
export const recordEventAndLock: Statement = {
  name: 'payment_event_record_and_lock',
  text: `with recorded as (
      insert into payment_events (plugin_id, event_id, kind, amount, currency, applied)
      values ($1, $2, $3, $4, $5, false)
      on conflict do nothing
      returning id)
    select r.id as event_row, m.order_id, m.payment
    from recorded r left join lateral (
      select o.id as order_id, to_jsonb(p) as payment
      from orders o join payments p on p.order_id = o.id
      where ${matchOf('p', { plugin: 1, reference: 6, gatewayRef: 7, gatewayPaymentRef: 8 })}
      for update of o, p) m on true`,
};

/**
 * The money pending ledger records are moving on the payment an event names (`$1` plugin, `$2` reference, `$3`
 * gateway ref, `$4` gateway payment ref), with its id. Sent right after `recordEventAndLock`, in the same message:
 * a statement of its own, so it reads what committed before the lock was granted (a statement's reads are as of its
 * start, and the lock's statement may have waited).
 */
export const pendingOfEventPayment: Statement = {
  name: 'payment_event_pending',
  text: `select p.id,
      coalesce(sum(o.amount) filter (where o.kind = 'capture'), 0)::text as capture,
      coalesce(sum(o.amount) filter (where o.kind = 'refund'), 0)::text as refund
    from payments p left join payment_operations o on o.payment_id = p.id and o.status = 'pending'
    where p.id = (
      select m.id from payments m
      where ${matchOf('m', { plugin: 1, reference: 2, gatewayRef: 3, gatewayPaymentRef: 4 })})
    group by p.id`,
};

/**
 * Marks a stored event (`$1`): the payment it was applied to (`$2`, null when none), whether it changed it (`$3`), and
 * the gateway payment id it waits for (`$4`: an event kept until a payment learns that id; null otherwise).
 */
export const markEventStatement: Statement = {
  name: 'payment_event_mark',
  text: `update payment_events set payment_id = $2, applied = $3, pending_gateway_payment_ref = $4 where id = $1`,
};
