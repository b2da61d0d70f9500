import type { ComponentChildren } from 'preact';
import { addressLines, type PostalAddress } from '../../../src/addresses/address-lines.js';
import { Money } from '../../shared/ui';
import {
  dateTimeText,
  fulfilmentStatusText,
  orderStatusText,
  paymentStatusText,
} from '../../../src/orders/customer-words.js';
import type { Order, Payment, PaymentPlugin } from '../use-order';
import { OrderFigures } from './order-figures';
import { OrderPayments } from './order-payments';
import { OrderReturns } from './order-returns';
import { OrderShipments } from './order-shipments';

function AddressLines(props: { address: PostalAddress }) {
  return (
    <address>
      {addressLines(props.address, document.documentElement.lang || 'en').map((line) => (
        <div key={line}>{line}</div>
      ))}
    </address>
  );
}

/**
 * An order: when it was placed, its status, payment status and how far it has shipped in words, its parcels with
 * their tracking links, its returns (and the form to return shipped items), its lines and totals, its payments and
 * refunds, where it goes. `children` (what to do about paying) come right under its facts.
 */
export function OrderView(props: {
  order: Order;
  payments?: Payment[];
  plugins: PaymentPlugin[];
  children?: ComponentChildren;
}) {
  const { order } = props;
  const status = orderStatusText(order.status);
  // What has gone out, once the order is confirmed; when it says what the status says ("Delivered"), it alone is shown.
  const shipping =
    order.status !== 'cancelled' && order.status !== 'pending' ? fulfilmentStatusText(order.fulfillment_status) : null;
  return (
    <>
      <dl class="facts">
        <dt>Order</dt>
        <dd>{order.order_alias}</dd>
        <dt>Placed</dt>
        <dd>{dateTimeText(order.created_at)}</dd>
        {shipping !== status && (
          <>
            <dt>Status</dt>
            <dd>{status}</dd>
          </>
        )}
        <dt>Payment</dt>
        <dd aria-live="polite">
          <strong data-testid="payment-status">{paymentStatusText(order.payment_status)}</strong>
        </dd>
        {shipping !== null && (
          <>
            <dt>Shipping status</dt>
            <dd data-testid="fulfilment-status">{shipping}</dd>
          </>
        )}
        <dt>Total</dt>
        <dd>
          <Money amount={order.total} currency={order.currency} />
        </dd>
      </dl>
      {props.children}
      <OrderShipments order={order} />
      <OrderReturns order={order} />
      <h2>Items</h2>
      <OrderFigures figures={order} />
      <OrderPayments payments={props.payments} plugins={props.plugins} />
      {order.shipping_address && (
        <>
          <h2>Shipping address</h2>
          <AddressLines address={order.shipping_address} />
        </>
      )}
    </>
  );
}
