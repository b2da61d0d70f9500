import { useRoute } from 'preact-iso';
import { useCallback, useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { ErrorMessage, Money } from '../../shared/ui';
import { useDashboard } from '../context';
import { When, words } from '../format';
import { OrderCustomer } from '../orders/order-customer';
import { editable, OrderEditDialog } from '../orders/order-edit-dialog';
import { OrderEditHistory } from '../orders/order-edit-history';
import { OrderEvents } from '../orders/order-events';
import { OrderLines } from '../orders/order-lines';
import { OrderPayments } from '../orders/order-payments';
import { OrderReturns } from '../orders/order-returns';
import { OrderShipments } from '../orders/order-shipments';
import { OrderStatusActions } from '../orders/order-status-actions';
import type { Order } from '../orders/types';
import { useLoaded, usePages } from '../use-loaded';

/**
 * One order: its status and the moves it allows, payments (capture, refund), shipments (fulfil, ship, deliver,
 * cancel), returns (open, receive, refund, reject, cancel), customer, lines (and their edit), totals, the edits made
 * and events.
 */
export function OrderDetail() {
  const { api } = useDashboard();
  const alias = useRoute().params.alias ?? '';
  const path = { order_alias: alias };
  const order = useLoaded(() => ok(api.GET('/order/dashboard/api/orders/{order_alias}/', { params: { path } })), alias);
  const payments = useLoaded(
    () => ok(api.GET('/payment/dashboard/api/orders/{order_alias}/payments/', { params: { path } })),
    alias,
  );
  const shipments = useLoaded(
    () => ok(api.GET('/order/dashboard/api/orders/{order_alias}/fulfillments/', { params: { path } })),
    alias,
  );
  const returns = useLoaded(
    () => ok(api.GET('/order/dashboard/api/orders/{order_alias}/returns/', { params: { path } })),
    alias,
  );
  const edits = useLoaded(
    () => ok(api.GET('/order/dashboard/api/orders/{order_alias}/edits/', { params: { path } })),
    alias,
  );
  const plugins = useLoaded(() => ok(api.GET('/payment/storefront/api/plugins/')), 'plugins');
  const events = usePages(
    (cursor) =>
      ok(api.GET('/event/dashboard/api/events/', { params: { query: { order_alias: alias, limit: 20, cursor } } })),
    alias,
  );
  const [editing, setEditing] = useState(false);
  /** What the last edit saved, said under the lines once its dialog has closed. */
  const [editSaid, setEditSaid] = useState<string>();
  const { reload: reloadOrder } = order;
  const { reload: reloadPayments } = payments;
  const { reload: reloadShipments } = shipments;
  const { reload: reloadReturns } = returns;
  const { reload: reloadEvents } = events;
  const { reload: reloadEdits } = edits;
  /** After a write: the order, its payments, shipments, returns, edits and events as they are now. */
  const refresh = useCallback(
    async () =>
      void (await Promise.all([
        reloadOrder(),
        reloadPayments(),
        reloadShipments(),
        reloadReturns(),
        reloadEdits(),
        reloadEvents(),
      ])),
    [reloadOrder, reloadPayments, reloadShipments, reloadReturns, reloadEdits, reloadEvents],
  );

  const o = order.data;
  if (o === undefined) {
    return (
      <>
        <h1>Order</h1>
        <ErrorMessage problem={order.problem} />
        {order.problem === undefined && <p>Loading…</p>}
        <p>
          <a href="/admin/orders">All orders</a>
        </p>
      </>
    );
  }
  return (
    <>
      <p>
        <a href="/admin/orders">All orders</a>
      </p>
      <h1>
        Order <span class="break">{o.order_alias}</span>
      </h1>
      <p>
        <strong>{words(o.status)}</strong>
        {o.cancel_reason && ` (${words(o.cancel_reason)})`} · payment {words(o.payment_status)} · fulfilment{' '}
        {words(o.fulfillment_status)} · placed <When iso={o.created_at} /> · updated <When iso={o.updated_at} />
      </p>
      {o.market && <OrderMarket order={o} market={o.market} />}
      <ErrorMessage problem={order.problem} />
      <OrderStatusActions order={o} onChanged={refresh} />
      <OrderPayments
        order={o}
        payments={payments.data}
        plugins={plugins.data}
        problem={payments.problem}
        onChanged={refresh}
      />
      <OrderShipments order={o} shipments={shipments.data?.items} problem={shipments.problem} onChanged={refresh} />
      <OrderReturns order={o} returns={returns.data} problem={returns.problem} onChanged={refresh} />
      <OrderCustomer order={o} />
      <OrderLines order={o} onEdit={editable(o) ? () => setEditing(true) : undefined} said={editSaid} />
      {editing && (
        <OrderEditDialog
          order={o}
          onClose={() => setEditing(false)}
          onSaved={async (said) => {
            setEditSaid(said);
            await refresh();
          }}
        />
      )}
      <OrderEditHistory history={edits.data} problem={edits.problem} />
      <OrderEvents events={events} />
    </>
  );
}

/** An order of another market than the default: which one, the rate locked at placement, the total in both. */
function OrderMarket(props: { order: Order; market: NonNullable<Order['market']> }) {
  const { order, market } = props;
  return (
    <p data-testid="order-market">
      Market <strong>{market.name}</strong> ({market.code}) · {market.currency} at {market.exchange_rate} per{' '}
      {market.store_currency}, locked when placed · total <Money amount={order.total} currency={order.currency} />
      {' = '}
      <Money amount={market.total_in_store_currency} currency={market.store_currency} /> (for reports)
    </p>
  );
}
