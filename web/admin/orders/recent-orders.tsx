import { ok } from '../../api/client';
import { ErrorMessage } from '../../shared/ui';
import { useDashboard } from '../context';
import { useLoaded } from '../use-loaded';
import { OrderTable } from './order-table';

/** The five newest orders, for the dashboard's home page. */
export function RecentOrders() {
  const { api } = useDashboard();
  const { data, problem } = useLoaded(
    () => ok(api.GET('/order/dashboard/api/orders/', { params: { query: { limit: 5 } } })),
    'recent',
  );
  return (
    <section aria-labelledby="recent-orders">
      <h2 id="recent-orders">Recent orders</h2>
      <ErrorMessage problem={problem} />
      {data === undefined && problem === undefined && <p>Loading…</p>}
      {data?.items.length === 0 && <p>No orders yet.</p>}
      {data !== undefined && data.items.length > 0 && (
        <>
          <OrderTable orders={data.items} caption="The newest orders" />
          <p>
            <a href="/admin/orders">All orders</a>
          </p>
        </>
      )}
    </section>
  );
}
