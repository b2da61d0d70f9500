import { getTableColumns, type Table } from 'drizzle-orm';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { byColumnName } from '../db/columns.js';
import { orderLines, orders } from '../db/schema.js';
import {
  type LINE_COLUMNS_SET_BY_WRITE,
  LINE_WRITTEN_COLUMNS,
  ORDER_COLUMNS_LEFT_TO_DATABASE,
  ORDER_WRITTEN_COLUMNS,
  type OrderLineValues,
  type OrderValues,
} from './placement.columns.js';
import { writeDecided } from './placement.statements.js';

/** The columns of a table an INSERT may name, by property, read from Drizzle's table object. */
const insertable = (table: Table) =>
  Object.entries(getTableColumns(table))
    .filter(([, column]) => !column.generatedIdentity && !column.generated)
    .map(([key, column]) => ({ key, name: column.name }));

/** The column list of the write statement's `insert into <table> (…)`. */
function insertedColumns(table: string): string[] {
  const list = new RegExp(`insert into ${table} \\(([^)]*)\\)`).exec(writeDecided.text)?.[1];
  if (list === undefined) throw new Error(`the write statement inserts no ${table}`);
  return list.split(',').map((name) => name.trim());
}

/** An order as placement writes it, every column given: a column added to `orders` must be added here to compile. */
const order = {
  alias: 'a1b2',
  userId: null,
  email: 'buyer@example.com',
  orderTokenHash: 'hash',
  placedBy: null,
  paymentStatus: 'unpaid',
  currency: 'EUR',
  pricesIncludeTax: true,
  marketId: null,
  exchangeRate: null,
  totalInStoreCurrency: null,
  subtotal: 1000,
  discount: 0,
  discountName: null,
  promoCode: null,
  promotions: [],
  shippingDiscount: 0,
  shippingMethodId: null,
  shippingName: null,
  shippingFee: 0,
  shippingTaxRate: null,
  shippingTax: 0,
  estimatedTax: 160,
  totalWithoutTax: 840,
  total: 1000,
  totalItems: 1,
  shippingAddress: null,
  billingAddress: null,
  note: '',
  eventSeq: 1,
} satisfies OrderValues;

/** An order line as priced, every column given (see `order`). */
const line = {
  variantId: 7,
  productId: 3,
  alias: 'v7',
  productName: 'Mug',
  variantName: 'Blue',
  sku: null,
  options: [],
  image: null,
  quantity: 1,
  unitPrice: 1000,
  subtotal: 1000,
  discount: 0,
  adjustments: [],
  taxClassName: null,
  taxRate: '0.1900',
  tax: 160,
  total: 1000,
} satisfies OrderLineValues;

describe('the columns placement writes, derived from the schema', () => {
  it('are, for an order, every insertable column of orders but those left to the database', () => {
    const left: readonly string[] = ORDER_COLUMNS_LEFT_TO_DATABASE;
    const expected = insertable(orders).filter((c) => !left.includes(c.key));
    expect(ORDER_WRITTEN_COLUMNS.map(([key, name]) => ({ key, name }))).toEqual(expected);
    expect(insertedColumns('orders')).toEqual(expected.map((c) => c.name));
  });

  it('are, for a line, every insertable column of order_lines, its order id set by the statement', () => {
    const expected = insertable(orderLines).filter((c) => c.key !== 'orderId');
    expect(LINE_WRITTEN_COLUMNS.map(([key, name]) => ({ key, name }))).toEqual(expected);
    expect(insertedColumns('order_lines')).toEqual(['order_id', ...expected.map((c) => c.name)]);
  });

  it('take every value an order or a line is built with, keyed by column name, and drop none', () => {
    expect(Object.keys(byColumnName(ORDER_WRITTEN_COLUMNS, order)).sort()).toEqual(
      ORDER_WRITTEN_COLUMNS.map(([, name]) => name).sort(),
    );
    expect(Object.keys(order).sort()).toEqual(ORDER_WRITTEN_COLUMNS.map(([key]) => key).sort());
    const written = byColumnName(LINE_WRITTEN_COLUMNS, line);
    // stock_reserved is decided under lock and set by the writer (placement.repository.ts).
    expect(Object.keys(written).sort()).toEqual(
      LINE_WRITTEN_COLUMNS.map(([, name]) => name)
        .filter((name) => name !== 'stock_reserved')
        .sort(),
    );
  });

  it('leave no column unaccounted for in the types: each is written or left to the database (checked by tsc)', () => {
    type OrderColumn = keyof typeof orders.$inferInsert;
    type LineColumn = keyof typeof orderLines.$inferInsert;
    expectTypeOf<keyof OrderValues | (typeof ORDER_COLUMNS_LEFT_TO_DATABASE)[number]>().toEqualTypeOf<OrderColumn>();
    expectTypeOf<keyof OrderLineValues | (typeof LINE_COLUMNS_SET_BY_WRITE)[number]>().toEqualTypeOf<LineColumn>();
    // Every written column is required, so an order built without one does not compile.
    expectTypeOf<OrderValues>().toEqualTypeOf<Required<OrderValues>>();
    expectTypeOf<OrderLineValues>().toEqualTypeOf<Required<OrderLineValues>>();
  });
});
