import { insertableColumnList } from '../db/columns.js';
import { orderLines, orders } from '../db/schema.js';

/**
 * The columns of a new order that placement does not write: the database fills them in as it inserts the row (the
 * status `pending`, no cancel reason, the ledger's totals at zero since nothing moved yet, nothing fulfilled or
 * returned, the timestamps). Every other insertable column of `orders` is written, from `OrderValues`.
 */
export const ORDER_COLUMNS_LEFT_TO_DATABASE = [
  'status',
  'cancelReason',
  'amountAuthorized',
  'amountCaptured',
  'amountRefunded',
  'amountCredited',
  'amountCapturable',
  'fulfillmentStatus',
  'amountReturned',
  'createdAt',
  'updatedAt',
] as const satisfies readonly (keyof typeof orders.$inferInsert)[];

/**
 * What placement writes of a new order: every insertable column of `orders` (Drizzle's `$inferInsert`) but those left
 * to the database, each required (null where the column takes null). A column added to the schema is a compile error
 * where an order is built (placed-order.ts) until it is given its value there or is left to the database above.
 */
export type OrderValues = Required<Omit<typeof orders.$inferInsert, (typeof ORDER_COLUMNS_LEFT_TO_DATABASE)[number]>>;

/** The columns of a new order line that the write statement sets itself: its order's id, and whether it took stock. */
export const LINE_COLUMNS_SET_BY_WRITE = [
  'orderId',
  'stockReserved',
] as const satisfies readonly (keyof typeof orderLines.$inferInsert)[];

/**
 * What placement writes of an order line as priced: every insertable column of `order_lines` but those the write
 * sets.
 */
export type OrderLineValues = Required<
  Omit<typeof orderLines.$inferInsert, (typeof LINE_COLUMNS_SET_BY_WRITE)[number]>
>;

const leftToDatabase: ReadonlySet<string> = new Set(ORDER_COLUMNS_LEFT_TO_DATABASE);

/** The order columns the write statement inserts, from the schema (read once, at load): [property, name, type]. */
export const ORDER_WRITTEN_COLUMNS = insertableColumnList(orders).filter(([key]) => !leftToDatabase.has(key));

/**
 * The line columns the write statement inserts: every insertable one but its order's id (`stock_reserved`
 * included).
 */
export const LINE_WRITTEN_COLUMNS = insertableColumnList(orderLines).filter(([key]) => key !== 'orderId');
