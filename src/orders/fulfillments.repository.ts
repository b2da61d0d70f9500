import { columnList, fromColumnNames, rowJsonSql } from '../db/columns.js';
import type { Db, Statement, Tx } from '../db/client.js';
import { fulfillments } from '../db/schema.js';
import { runStatement } from '../db/statement-sql.js';

export type FulfillmentRow = typeof fulfillments.$inferSelect;

/** A fulfillment with its lines, each naming the order line it takes units of (its alias and what it sold). */
export interface FulfillmentWithLines extends FulfillmentRow {
  lines: {
    orderLineId: number;
    alias: string;
    productName: string | null;
    variantName: string;
    sku: string | null;
    quantity: number;
  }[];
}

const FULFILLMENT_COLUMNS = columnList(fulfillments);

/**
 * An order's fulfillments, oldest first, each with its lines (in order-line order) as JSON, in one statement: of the
 * order whose id is `order` (SQL), as `row` and `lines`.
 */
const fulfillmentsOfOrderSql = (order: string) => `select ${rowJsonSql(FULFILLMENT_COLUMNS, 'f')} as row,
    (select coalesce(jsonb_agg(jsonb_build_object('orderLineId', fl.order_line_id, 'quantity', fl.quantity,
        'alias', l.alias, 'productName', l.product_name, 'variantName', l.name, 'sku', l.sku)
        order by fl.order_line_id), '[]'::jsonb)
      from fulfillment_lines fl join order_lines l on l.id = fl.order_line_id where fl.fulfillment_id = f.id) as lines
  from fulfillments f where f.order_id = ${order} order by f.id`;

/** An order's fulfillments with their lines, of the order with id `$1`. */
export const fulfillmentsOfOrderId: Statement = {
  name: 'fulfillments_of_order_id',
  text: fulfillmentsOfOrderSql('$1'),
};

/**
 * An order's fulfillments with their lines, of the order with alias `$1`: sent after the order's lock in its message,
 * a statement of its own, so it reads what committed while the lock was waited for.
 */
export const fulfillmentsOfOrderAlias: Statement = {
  name: 'fulfillments_of_order_alias',
  text: fulfillmentsOfOrderSql('(select id from orders where alias = $1)'),
};

type FulfillmentJson = { row: Record<string, unknown>; lines: FulfillmentWithLines['lines'] };

/** The fulfillments from the rows of `fulfillmentsOfOrderId` or `fulfillmentsOfOrderAlias`. */
export const fulfillmentsOfRows = (rows: readonly FulfillmentJson[]): FulfillmentWithLines[] =>
  rows.map((r) => ({ ...fromColumnNames<FulfillmentRow>(FULFILLMENT_COLUMNS, r.row), lines: r.lines }));

/** An order's fulfillments, oldest first, with their lines. */
export async function fulfillmentsOf(db: Db | Tx, orderId: number): Promise<FulfillmentWithLines[]> {
  return fulfillmentsOfRows(await runStatement<FulfillmentJson>(db, fulfillmentsOfOrderId, [orderId]));
}

/** A new fulfillment's id, taken before it is written (so its events can name it in the same message). */
export const reserveFulfillmentId: Statement = {
  name: 'fulfillment_reserve_id',
  text: `select nextval(pg_get_serial_sequence('fulfillments', 'id'))::integer as id`,
};

/** Writes a new fulfillment and its lines, as `$1` (JSON of a `FulfillmentWithLines`, its id reserved). */
export const insertFulfillment: Statement = {
  name: 'fulfillment_insert',
  text: `with f as (
      select * from jsonb_to_record($1::jsonb) as f(id integer, "orderId" integer, status text, carrier text,
        "trackingNumber" text, "trackingUrl" text, "createdBy" integer, "createdAt" timestamptz, lines jsonb)
    ), made as (
      insert into fulfillments (id, order_id, status, carrier, tracking_number, tracking_url, created_by, created_at,
        updated_at)
      overriding system value
      select id, "orderId", status, carrier, "trackingNumber", "trackingUrl", "createdBy", "createdAt", "createdAt"
      from f
      returning id)
    insert into fulfillment_lines (fulfillment_id, order_line_id, quantity)
      select made.id, l."orderLineId", l.quantity
      from made, f cross join lateral jsonb_to_recordset(f.lines) as l("orderLineId" integer, quantity integer)`,
};

/** Stores a fulfillment's state as a change left it (`$1` JSON of the `FulfillmentWithLines`). */
export const saveFulfillmentState: Statement = {
  name: 'fulfillment_save_state',
  text: `update fulfillments f set status = s.status, carrier = s.carrier, tracking_number = s."trackingNumber",
      tracking_url = s."trackingUrl", shipped_at = s."shippedAt", delivered_at = s."deliveredAt",
      cancelled_at = s."cancelledAt", updated_at = s."updatedAt"
    from jsonb_to_record($1::jsonb) as s(id integer, status text, carrier text, "trackingNumber" text,
      "trackingUrl" text, "shippedAt" timestamptz, "deliveredAt" timestamptz, "cancelledAt" timestamptz,
      "updatedAt" timestamptz)
    where f.id = s.id`,
};
