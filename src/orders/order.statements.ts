import { columnList, fromColumnNames, rowJsonSql } from '../db/columns.js';
import type { RowsOf, Statement, StatementCall, StatementCalls, Transaction } from '../db/client.js';
import { orderLines, orders } from '../db/schema.js';
import { type IdempotencyClaim, type StoredResponse, storedResponseCall, storedResponseOf } from './idempotency.js';
import type { OrderLineRow, OrderRow } from './orders.repository.js';

/**
 * Statements of fixed text on an order, for changes after the sale that run in two messages (decision 0032): the
 * first locks the order and reads what the change needs, the second writes what TypeScript decided and commits.
 * Each is prepared once per connection on PostgreSQL.
 */

const ORDER_COLUMNS = columnList(orders);
const LINE_COLUMNS = columnList(orderLines);

/** Locks the order `$1` (its alias) and answers it (`row`, JSON) with the transaction's time (`now`). */
const lockOrderByAlias: Statement = {
  name: 'order_lock_by_alias',
  text: `select ${rowJsonSql(ORDER_COLUMNS, 'o')} as row, now() as now
    from orders o where o.alias = $1 for update of o`,
};

/**
 * The lines of the order `$1` (its alias), in id order. Sent after `lockOrderByAlias` in its message, a statement of
 * its own: it reads what committed while the lock was waited for.
 */
const linesOfOrderAlias: Statement = {
  name: 'order_lines_of_alias',
  text: `select ${rowJsonSql(LINE_COLUMNS, 'l')} as row from order_lines l
    where l.order_id = (select id from orders where alias = $1) order by l.id`,
};

/**
 * Stores what a change of a locked order's shipments or returns left on its row, in one update: fulfillment status,
 * status, time of change and the number of its last event (`$1` id, `$2`, `$3`, `$4`, `$5`:
 * `lockedOrderEventStatements`'s `eventSeq`).
 */
export const saveOrderFulfillmentStatus: Statement = {
  name: 'order_save_fulfillment_status',
  text: 'update orders set fulfillment_status = $2, status = $3, updated_at = $4, event_seq = $5 where id = $1',
};

/**
 * An order's returns as its fulfillment status counts them (`fulfillmentStatusWithReturns`): each one's state and
 * units per line (`lineId`, `quantity`), of the order with alias `$1`. Sent after the order's lock in its message.
 */
export const returnedUnitsOfOrderAlias: Statement = {
  name: 'order_returned_units_of_alias',
  text: `select r.status, (select coalesce(jsonb_agg(jsonb_build_object('lineId', rl.order_line_id,
        'quantity', rl.quantity)), '[]'::jsonb) from return_lines rl where rl.return_id = r.id) as lines
    from returns r where r.order_id = (select id from orders where alias = $1)`,
};

type LockRow = { row: Record<string, unknown>; now: Date | string };
type LineRow = { row: Record<string, unknown> };

/** The locked order and the transaction's time, from `lockOrderByAlias`'s rows; undefined when there is no order. */
function lockedOrderOf(rows: readonly LockRow[]): { order: OrderRow; now: Date } | undefined {
  const [first] = rows;
  if (!first) return undefined;
  return {
    order: fromColumnNames<OrderRow>(ORDER_COLUMNS, first.row),
    now: first.now instanceof Date ? first.now : new Date(first.now),
  };
}

/** The lines from `linesOfOrderAlias`'s rows. */
const linesOfRows = (rows: readonly LineRow[]): OrderLineRow[] =>
  rows.map((r) => fromColumnNames<OrderLineRow>(LINE_COLUMNS, r.row));

/** Locks the variants of `$1` (JSON `[{id}]`), in id order: the order placements lock them in. */
export const lockVariantsInOrder: Statement = {
  name: 'variants_lock_in_order',
  text: `select v.id from product_variants v join jsonb_to_recordset($1::jsonb) as d(id integer) on d.id = v.id
    order by v.id for no key update of v`,
};

/** Adds units to variants' stock (`$1`: JSON `[{id, q}]`, one row per variant). */
export const addToVariantStock: Statement = {
  name: 'variants_add_stock',
  text: `update product_variants v set stock = v.stock + d.q, updated_at = now()
    from jsonb_to_recordset($1::jsonb) as d(id integer, q integer) where v.id = d.id`,
};

/**
 * The statements that add units back to variants' stock (a cancelled order's, a received return's): the variants
 * locked in id order, then one update with a row per variant (an UPDATE … FROM with a variant twice would add only one
 * of its rows). None when there is nothing to add.
 */
export function addStockCalls(units: readonly { variantId: number; quantity: number }[]): StatementCall[] {
  const byVariant = new Map<number, number>();
  for (const u of units) byVariant.set(u.variantId, (byVariant.get(u.variantId) ?? 0) + u.quantity);
  if (byVariant.size === 0) return [];
  const rows = JSON.stringify([...byVariant].map(([id, q]) => ({ id, q })));
  return [
    { statement: lockVariantsInOrder, values: [rows] },
    { statement: addToVariantStock, values: [rows] },
  ];
}

/** What `lockOrderAndRead` answers: the order locked, the transaction's time, its lines, the kept answer, the reads. */
export interface LockedOrder<R extends unknown[]> {
  order: OrderRow;
  /** The transaction's time: what the change stamps. */
  now: Date;
  lines: OrderLineRow[];
  /** The answer kept for the request's Idempotency-Key, if it was made before (422 if it asked something else). */
  earlier: StoredResponse | undefined;
  /** The rows of each of `reads`. */
  rows: RowsOf<R>;
}

/**
 * The first message of a change after the sale (decision 0032): BEGIN, the order's lock, then its lines, the kept
 * answer of the request's key and the change's own `reads`, each a statement of its own after the lock, so it sees what
 * committed while the lock was waited for. Undefined when there is no such order.
 */
export async function lockOrderAndRead<R extends unknown[]>(
  tx: Transaction,
  input: { alias: string; claim: IdempotencyClaim | undefined; reads: StatementCalls<R> },
): Promise<LockedOrder<R> | undefined> {
  const { alias, claim } = input;
  const [locked, lines, stored, ...rows] = (await tx.runTogether<unknown[]>([
    { statement: lockOrderByAlias, values: [alias] },
    { statement: linesOfOrderAlias, values: [alias] },
    storedResponseCall(claim),
    ...input.reads,
  ])) as [LockRow[], LineRow[], unknown[], ...unknown[][]];
  const order = lockedOrderOf(locked);
  if (!order) return undefined;
  return {
    ...order,
    lines: linesOfRows(lines),
    earlier: claim && storedResponseOf(stored, claim),
    rows: rows as RowsOf<R>,
  };
}
