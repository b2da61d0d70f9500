import { ErrorMessage, Pager } from '../../shared/ui';
import { When } from '../format';
import type { Pages } from '../use-loaded';
import type { OrderEvent } from './types';

/** What an event's data says in a few words: the status it moved to, a payment's state. */
function gist(event: OrderEvent): string {
  const data = event.data as {
    status?: unknown;
    payment_status?: unknown;
    amount_refunded?: unknown;
    currency?: unknown;
  };
  if (event.type.startsWith('payment.') && typeof data.status === 'string') {
    const refunded =
      typeof data.amount_refunded === 'string' && event.type === 'payment.refunded'
        ? `, ${data.amount_refunded} ${String(data.currency ?? '')} refunded in all`
        : '';
    return `payment ${data.status.replaceAll('_', ' ')}${refunded}`;
  }
  const parts = [data.status, data.payment_status].filter((v): v is string => typeof v === 'string');
  return parts.map((p) => p.replaceAll('_', ' ')).join(' · ');
}

/** The order's events (placed, paid, status changed, payments…), newest first. */
export function OrderEvents(props: { events: Pages<OrderEvent> }) {
  const { events } = props;
  return (
    <section aria-labelledby="order-events">
      <h2 id="order-events">Events</h2>
      <ErrorMessage problem={events.problem} />
      {events.items === undefined && events.problem === undefined && <p>Loading…</p>}
      {events.items?.length === 0 && <p>No events yet.</p>}
      {events.items !== undefined && events.items.length > 0 && (
        <div class="table-wrap">
          <table class="reflow">
            <thead>
              <tr>
                <th scope="col" class="num">
                  #
                </th>
                <th scope="col">Event</th>
                <th scope="col">After it</th>
                <th scope="col">When</th>
              </tr>
            </thead>
            <tbody>
              {events.items.map((e) => (
                <tr key={e.id}>
                  <td data-label="#" class="num">
                    {e.sequence}
                  </td>
                  <td data-label="Event">{e.type}</td>
                  <td data-label="After it">{gist(e)}</td>
                  <td data-label="When">
                    <When iso={e.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager nextCursor={events.next} onNext={events.more} />
    </section>
  );
}
