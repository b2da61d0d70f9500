// Scenarios of what an admin does after the sale (issue #27 item 8): a shipment created, a return received. Each
// request works on another order (its path varies), orders made over HTTP, returns in bulk with SQL.
import { adminHeaders, CA, pricingFixture } from './domain-scenarios.js';
import type { Scenario, SetupContext } from './scenarios.js';

/** Units per order line: enough that the orders never run out of units to ship in one run. */
const UNITS = 1_000_000;

/**
 * `count` approved guest orders, each of one line of UNITS units of another of the 200 bench variants (so stock rows
 * rarely queue), made once per run per `key`.
 */
function approvedOrders(ctx: SetupContext, key: string, count: number) {
  return ctx.memo(`after-sale-${key}`, async () => {
    const { variants } = await pricingFixture(ctx);
    const aliases: { order: string; line: string }[] = [];
    const place = async (i: number) => {
      const variant = variants[i % variants.length];
      const order = (await ctx.call('POST', '/order/storefront/api/guest-user-order-create/', {
        body: { variants: [{ alias: variant?.alias, quantity: UNITS }], shipping_address: CA },
        expect: 201,
      })) as { order_alias: string };
      aliases.push({ order: order.order_alias, line: variant?.alias ?? '' });
    };
    // Ten at a time: placements are written in batches.
    for (let i = 0; i < count; i += 10) {
      await Promise.all(Array.from({ length: Math.min(10, count - i) }, (_, k) => place(i + k)));
    }
    // Paid, as far as fulfilment cares (money is not what these scenarios measure).
    await ctx.sql(`update orders set status = 'approved', payment_status = 'paid' where alias = any($1)`, [
      aliases.map((a) => a.order),
    ]);
    // A store's tables have their statistics (autovacuum's ANALYZE), which the planner needs to use the indexes;
    // rows made in bulk this instant have none yet. And no dead versions: the update above left one of every order,
    // which a store's autovacuum would have removed (on this VM it is off: docs/benchmarks.md, "Autovacuum").
    await ctx.sql('vacuum (analyze)');
    return aliases;
  });
}

/**
 * 5,000 orders with a parcel shipped and four returns requested of one unit each (made in bulk with SQL; creating and
 * shipping parcels is what create-shipment measures), made once per run: receive-return's targets, and for
 * create-shipment a store that has shipped and taken back before. A store's tables hold rows and statistics that make
 * its plans use their indexes; tables empty when the app first runs a statement get plans for an empty table, which a
 * prepared statement keeps until autovacuum's ANALYZE (off on this VM) makes it plan again.
 */
function shippedOrdersWithReturns(ctx: SetupContext) {
  return ctx.memo('after-sale-returns', async () => {
    const orders = await approvedOrders(ctx, 'returns', 5000);
    const rows = await ctx.sql(
      `with shipped as (
         insert into fulfillments (order_id, status, shipped_at)
         select id, 'shipped', now() from orders where alias = any($1)
         returning id, order_id),
       parcels as (
         insert into fulfillment_lines (fulfillment_id, order_line_id, quantity)
         select s.id, l.id, 100 from shipped s join order_lines l on l.order_id = s.order_id),
       moved as (
         update orders o set status = 'processing', fulfillment_status = 'partially_shipped'
         from shipped s where o.id = s.order_id),
       made as (
         insert into returns (order_id, requested_by)
         select s.order_id, 'customer' from shipped s cross join generate_series(1, 4)
         returning id, order_id),
       lines as (
         insert into return_lines (return_id, order_line_id, quantity, reason_code)
         select made.id, l.id, 1, 'damaged' from made join order_lines l on l.order_id = made.order_id)
       select made.id as return_id, o.alias as order_alias,
              row_number() over (partition by made.order_id order by made.id) as nth
         from made join orders o on o.id = made.order_id
        order by nth, made.order_id`,
      [orders.map((o) => o.order)],
    );
    await ctx.sql('vacuum (analyze)'); // as approvedOrders does
    return rows;
  });
}

export const afterSaleScenarios: Scenario[] = [
  {
    // An admin creates a shipment of one unit, on 5,000 orders in turn: an order has a shipment or two in a run, as
    // orders do (each request reads and reports the order's shipments).
    name: 'create-shipment',
    method: 'POST',
    path: '/',
    compareTo: 'minimal-tx',
    async setup(ctx) {
      await shippedOrdersWithReturns(ctx);
      const orders = await approvedOrders(ctx, 'shipments', 5000);
      const headers = await adminHeaders(ctx);
      let next = 0;
      const shipment = () => {
        const o = orders[next++ % orders.length];
        return {
          path: `/order/dashboard/api/orders/${o?.order}/fulfillments/`,
          body: { lines: [{ alias: o?.line, quantity: 1 }], carrier: 'ups', tracking_number: `1Z${next}` },
        };
      };
      return { ...shipment(), headers, vary: shipment };
    },
  },
  {
    // An admin receives a customer's return of one unit (restocked): 20,000 returns, four of each of 5,000 orders
    // with a parcel shipped (`shippedOrdersWithReturns`).
    name: 'receive-return',
    method: 'POST',
    path: '/',
    compareTo: 'minimal-tx',
    async setup(ctx) {
      const rows = await shippedOrdersWithReturns(ctx);
      const headers = await adminHeaders(ctx);
      // Each order's first return, then each one's second…: requests in a row go to other orders, as customers' do.
      const targets = rows.map((r) => `/order/dashboard/api/orders/${r.order_alias}/returns/${r.return_id}/receive/`);
      let next = 0;
      const receive = () => ({ path: targets[next++ % targets.length] ?? '/' });
      return { ...receive(), headers, body: {}, vary: receive };
    },
  },
];
