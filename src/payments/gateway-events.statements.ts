import { columnList, fromColumnNames } from '../db/columns.js';
import type { Statement } from '../db/client.js';
import { payments } from '../db/schema.js';
import type { GatewayEvent } from './payment-plugin.js';
import type { PendingMoney } from './payment-states.js';
import type { PaymentRow } from './payments.repository.js';

/**
 * The statements that store a gateway's event and find its payment (gateway-event-batches.ts and gateway-events.ts
 * send them), of fixed text: prepared once per connection on PostgreSQL, sent together in one message for a batch of
 * events by the transaction that decides whether they change anything, and run one by one through Drizzle by the one
 * that applies a change. Decision 0026.
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
 * Marks a stored event (`$1` its row): the payment it was applied to (`$2`, null when none), whether it changed it
 * (`$3`), and the gateway payment id it waits for (`$4`: an event kept until a payment learns that id; null otherwise).
 * One event by its key, one statement each (`markCall`): a join with a JSON list of them was planned as a scan of
 * payment_events while that table was small, which the prepared statement kept as it grew.
 */
export const markEvent: Statement = {
  name: 'payment_event_mark',
  text: `update payment_events set payment_id = $2, applied = $3, pending_gateway_payment_ref = $4 where id = $1`,
};

/** The call of `markEvent` that stores a mark. */
export const markCall = (mark: EventMark) => ({
  statement: markEvent,
  values: [mark.id, mark.payment_id, mark.applied, mark.pending_gateway_payment_ref],
});

/**
 * Removes events this transaction stored (`$1`, their ids) that change their payment: the transaction that applies
 * each stores it again, so an event is stored only with what it did.
 */
export const dropEvents: Statement = {
  name: 'payment_events_drop',
  text: 'delete from payment_events where id = any($1::integer[])',
};

/** `recordEventAndLock`'s row: the stored event, and the payment it names locked with its order (if any). */
export interface RecordedRow {
  event_row: number;
  order_id: number | null;
  payment: Record<string, unknown> | null;
}

/** `pendingOfEventPayment`'s row. */
export interface PendingRow {
  id: number;
  capture: string;
  refund: string;
}

/** One event's mark, as `markEvent` stores it. */
export interface EventMark {
  id: number;
  payment_id: number | null;
  applied: boolean;
  pending_gateway_payment_ref: string | null;
}

const PAYMENT_COLUMNS = columnList(payments);

/** What storing an event found: seen before, a kind to ignore, no payment, or its payment (locked with its order). */
export type Found =
  | { is: 'duplicate' | 'ignored' }
  | { is: 'unmatched'; eventRow: number }
  | { is: 'matched'; eventRow: number; payment: PaymentRow };

export function foundOf(row: RecordedRow | undefined, event: GatewayEvent): Found {
  if (row === undefined) return { is: 'duplicate' };
  if (event.kind === 'ignored') return { is: 'ignored' };
  if (row.payment === null) return { is: 'unmatched', eventRow: row.event_row };
  return { is: 'matched', eventRow: row.event_row, payment: fromColumnNames<PaymentRow>(PAYMENT_COLUMNS, row.payment) };
}

export const matchValues = (pluginId: string, match: GatewayEvent['match']) => [
  pluginId,
  match.reference ?? null,
  match.gatewayRef ?? null,
  match.gatewayPaymentRef ?? null,
];

/** `recordEventAndLock`'s values. An event to ignore names no payment: it is stored and locks nothing. */
export function recordValues(pluginId: string, event: GatewayEvent): unknown[] {
  const [, ...match] = matchValues(pluginId, event.kind === 'ignored' ? {} : event.match);
  return [
    pluginId,
    event.eventId,
    event.kind,
    event.amount?.amountMinor ?? null,
    event.amount?.currency ?? null,
    ...match,
  ];
}

export const pendingMoneyOf = (row: PendingRow): PendingMoney => ({
  capture: Number(row.capture),
  refund: Number(row.refund),
});

/**
 * The mark of an event that names no payment: kept with the gateway payment id it names, to be applied when a later
 * event teaches a payment that id; none when it names none (it can never match).
 */
export function unmatchedMark(eventRow: number, event: GatewayEvent): EventMark | undefined {
  const later = event.match.gatewayPaymentRef;
  if (later === undefined) return undefined;
  return { id: eventRow, payment_id: null, applied: false, pending_gateway_payment_ref: later };
}
