import { addressLines } from '../../../src/addresses/address-lines.js';
import type { Address, Order } from './types';

function AddressCard(props: { title: string; address: Address | null }) {
  const a = props.address;
  return (
    <div>
      <h3>{props.title}</h3>
      {a === null ? (
        <p class="muted">None</p>
      ) : (
        <address class="break">
          {addressLines(a, document.documentElement.lang || 'en')
            .concat([a.email, a.phone_number])
            .filter((part) => part !== '')
            .map((part) => (
              <div key={part}>{part}</div>
            ))}
        </address>
      )}
    </div>
  );
}

/** Who ordered, where it goes, and the customer's note. */
export function OrderCustomer(props: { order: Order }) {
  const { order } = props;
  return (
    <section aria-labelledby="order-customer">
      <h2 id="order-customer">Customer</h2>
      <p class="break">
        {order.email ?? 'No email'} · {order.customer_id === null ? 'guest' : `customer ${order.customer_id}`}
      </p>
      <div class="addresses">
        <AddressCard title="Shipping address" address={order.shipping_address} />
        <AddressCard title="Billing address" address={order.billing_address} />
      </div>
      {order.note !== '' && (
        <>
          <h3>Note</h3>
          <p class="break">{order.note}</p>
        </>
      )}
    </section>
  );
}
