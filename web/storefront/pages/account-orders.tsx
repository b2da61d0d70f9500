import { useEffect, useState } from 'preact/hooks';
import { type Answer, ok } from '../../api/client';
import { asProblem, type Problem } from '../../shared/problem';
import { ErrorMessage, Money, Pager } from '../../shared/ui';
import { SignInFirst } from '../components/sign-in-first';
import { useSession, useShop } from '../context';
import { dateTimeText, orderStatusText, paymentStatusText } from '../../../src/orders/customer-words.js';

type OrderSummary = Answer<'/order/storefront/api/orders/', 'get'>['items'][number];

/** A signed-in customer's orders, newest first, a page at a time. */
export function AccountOrders() {
  const { api } = useShop();
  const session = useSession();
  const [orders, setOrders] = useState<OrderSummary[]>();
  const [next, setNext] = useState<string | null>(null);
  const [problem, setProblem] = useState<Problem>();

  const load = (cursor?: string) =>
    ok(
      api.GET('/order/storefront/api/orders/', {
        params: { query: { limit: 20, cursor } },
      }),
    )
      .then((page) => {
        setOrders((before) => [...(cursor ? (before ?? []) : []), ...page.items]);
        setNext(page.next_cursor);
      })
      .catch((err: unknown) => setProblem(asProblem(err)));

  useEffect(() => {
    document.title = 'Your orders';
    if (session) void load();
  }, [session?.user.id]);

  if (!session) return <SignInFirst title="Your orders" next="/account/orders" />;
  return (
    <>
      <h1>Your orders</h1>
      <ErrorMessage problem={problem} />
      {orders === undefined && !problem && <p>Loading…</p>}
      {orders?.length === 0 && (
        <p>
          No orders yet. <a href="/">See the products</a>.
        </p>
      )}
      {orders && orders.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Your orders, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Placed</th>
                <th scope="col">Status</th>
                <th scope="col">Payment</th>
                <th scope="col" class="num">
                  Total
                </th>
              </tr>
            </thead>
            <tbody>
              {orders.map((o) => (
                <tr key={o.order_alias}>
                  <th scope="row">
                    <a href={`/account/orders/${o.order_alias}`}>{dateTimeText(o.created_at)}</a>
                    <div class="muted">
                      {o.total_items} {o.total_items === 1 ? 'item' : 'items'}
                    </div>
                  </th>
                  <td>{orderStatusText(o.status)}</td>
                  <td>{paymentStatusText(o.payment_status)}</td>
                  <td class="num">
                    <Money amount={o.total} currency={o.currency} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager nextCursor={next} onNext={(cursor) => void load(cursor)} />
    </>
  );
}
