import { carrierText, dateTimeText, shipmentStatusText } from '../../../src/orders/customer-words.js';
import type { Order } from '../use-order';

type Shipment = Order['fulfillments'][number];

/** When the shipment last moved: delivered (its state says so already), shipped, or packed. */
function lastDate(s: Shipment): string {
  if (s.delivered_at) return dateTimeText(s.delivered_at);
  if (s.shipped_at) return `shipped ${dateTimeText(s.shipped_at)}`;
  return `since ${dateTimeText(s.created_at)}`;
}

/**
 * The order's parcels (its fulfillments, a cancelled one left out): each with its state, what is in it, and its
 * tracking link, which opens the carrier's page in a new tab.
 */
export function OrderShipments(props: { order: Order }) {
  const shipments = props.order.fulfillments.filter((s) => s.status !== 'cancelled');
  if (shipments.length === 0) return null;
  return (
    <section aria-labelledby="shipments">
      <h2 id="shipments">Shipments</h2>
      <ul class="shipments plain">
        {shipments.map((s, index) => (
          <li key={s.id} class="panel">
            <p>
              <strong>
                Parcel {index + 1}: {shipmentStatusText(s.status)}
              </strong>{' '}
              <span class="muted">({lastDate(s)})</span>
            </p>
            <ul>
              {s.lines.map((l) => (
                <li key={l.alias}>
                  {l.quantity} × {l.name}
                </li>
              ))}
            </ul>
            {s.tracking_number && (
              <p class="break">
                {s.carrier && `${carrierText(s.carrier)}, `}tracking number{' '}
                {s.tracking_url ? (
                  <a href={s.tracking_url} target="_blank" rel="noopener">
                    {s.tracking_number}
                    <span class="visually-hidden"> (opens in a new tab)</span>
                  </a>
                ) : (
                  s.tracking_number
                )}
              </p>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
