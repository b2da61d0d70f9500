import type { Answer } from '../../api/client';
import { Money } from '../../shared/ui';
import { shortAlias, When, words } from '../format';
import { RecordTable } from '../pages/common/record-table';
import { isPositive } from './amounts';

export type OrderSummary = Answer<'/order/dashboard/api/orders/', 'get'>['items'][number];

/** Orders as rows, each linking to its page; an order that owes money back says how much beside its payment status. */
export function OrderTable(props: { orders: OrderSummary[]; caption: string }) {
  return (
    <RecordTable
      caption={props.caption}
      columns={['Order', 'Placed', 'Customer', 'Status', 'Payment', 'Items', 'Total']}
      numeric={['Items', 'Total']}
      reflow
    >
      {props.orders.map((order) => (
        <tr key={order.order_alias}>
          <td data-label="Order">
            <a href={`/admin/orders/${order.order_alias}`} title={order.order_alias}>
              {shortAlias(order.order_alias)}
            </a>
          </td>
          <td data-label="Placed">
            <When iso={order.created_at} />
          </td>
          <td data-label="Customer" class="break">
            {order.email ?? <span class="muted">none</span>}
          </td>
          <td data-label="Status">{words(order.status)}</td>
          <td data-label="Payment">
            <span>
              {words(order.payment_status)}
              {isPositive(order.ledger.refund_due) && (
                <>
                  <br />
                  <small class="warning-text">
                    refund due <Money amount={order.ledger.refund_due} currency={order.currency} />
                  </small>
                </>
              )}
            </span>
          </td>
          <td data-label="Items" class="num">
            {order.total_items}
          </td>
          <td data-label="Total" class="num">
            <Money amount={order.total} currency={order.currency} />
          </td>
        </tr>
      ))}
    </RecordTable>
  );
}
