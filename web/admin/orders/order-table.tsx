import type { Answer } from '../../api/client';
import { Money } from '../../shared/ui';
import { shortAlias, When, words } from '../format';
import { isPositive } from './amounts';

export type OrderSummary = Answer<'/order/dashboard/api/orders/', 'get'>['items'][number];

/** Orders as rows, each linking to its page; an order that owes money back says how much beside its payment status. */
export function OrderTable(props: { orders: OrderSummary[]; caption: string }) {
  return (
    <div class="table-wrap">
      <table>
        <caption class="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">Order</th>
            <th scope="col">Placed</th>
            <th scope="col">Customer</th>
            <th scope="col">Status</th>
            <th scope="col">Payment</th>
            <th scope="col" class="num">
              Items
            </th>
            <th scope="col" class="num">
              Total
            </th>
          </tr>
        </thead>
        <tbody>
          {props.orders.map((order) => (
            <tr key={order.order_alias}>
              <td>
                <a href={`/admin/orders/${order.order_alias}`} title={order.order_alias}>
                  {shortAlias(order.order_alias)}
                </a>
              </td>
              <td>
                <When iso={order.created_at} />
              </td>
              <td class="break">{order.email ?? <span class="muted">none</span>}</td>
              <td>{words(order.status)}</td>
              <td>
                {words(order.payment_status)}
                {isPositive(order.ledger.refund_due) && (
                  <>
                    <br />
                    <small class="warning-text">
                      refund due <Money amount={order.ledger.refund_due} currency={order.currency} />
                    </small>
                  </>
                )}
              </td>
              <td class="num">{order.total_items}</td>
              <td class="num">
                <Money amount={order.total} currency={order.currency} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
