import { Fragment } from 'preact';
import { lineNaming, soldLine } from '../../../src/orders/line-naming.js';
import { Money } from '../../shared/ui';
import { words } from '../format';
import { Outcome } from '../outcome';
import type { Order } from './types';

/**
 * What was ordered: each line with what each promotion took off it, the promotions, then the totals; `onEdit`
 * offers an edit of the lines.
 */
export function OrderLines(props: {
  order: Order;
  onEdit?: (() => void) | undefined;
  /** What the last edit of the lines saved, if one was just saved. */
  said?: string | undefined;
}) {
  const { order } = props;
  const money = (amount: string) => <Money amount={amount} currency={order.currency} />;
  const promotionName = (id: number) => order.promotions.find((p) => p.id === id)?.name ?? `Promotion ${id}`;
  return (
    <section aria-labelledby="order-lines">
      <h2 id="order-lines">Lines</h2>
      {props.onEdit && (
        <p>
          <button type="button" class="secondary" onClick={props.onEdit}>
            Edit lines
          </button>
        </p>
      )}
      <Outcome done={props.said} />
      <div class="table-wrap">
        <table class="reflow">
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col" class="num">
                Quantity
              </th>
              <th scope="col" class="num">
                Unit price
              </th>
              <th scope="col" class="num">
                Subtotal
              </th>
              <th scope="col" class="num">
                Discount
              </th>
              <th scope="col" class="num">
                Tax
              </th>
              <th scope="col" class="num">
                Total
              </th>
            </tr>
          </thead>
          <tbody>
            {order.lines.map((line) => {
              const naming = lineNaming(soldLine(line));
              return (
                <tr key={line.alias}>
                  <td data-label="Item">
                    <div>
                      {naming.name}
                      {naming.options !== null && (
                        <>
                          <br />
                          <small>{naming.options}</small>
                        </>
                      )}
                      <br />
                      <small class="muted break">
                        {line.alias}
                        {line.sku && ` · SKU ${line.sku}`}
                      </small>
                    </div>
                  </td>
                  <td data-label="Quantity" class="num">
                    {line.quantity}
                  </td>
                  <td data-label="Unit price" class="num">
                    {money(line.unit_price)}
                  </td>
                  <td data-label="Subtotal" class="num">
                    {money(line.subtotal)}
                  </td>
                  <td data-label="Discount" class="num">
                    <div>
                      {money(line.discount)}
                      {line.adjustments.length > 0 && (
                        <ul class="plain">
                          {line.adjustments.map((a) => (
                            <li key={a.promotion_id}>
                              <small>
                                {promotionName(a.promotion_id)}: {money(a.amount)}
                              </small>
                            </li>
                          ))}
                        </ul>
                      )}
                    </div>
                  </td>
                  <td data-label="Tax" class="num">
                    <div>
                      {money(line.tax)}
                      <br />
                      <small class="muted">
                        {line.tax_class && `${line.tax_class} `}
                        {line.tax_rate} %
                      </small>
                    </div>
                  </td>
                  <td data-label="Total" class="num">
                    {money(line.total)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {order.promotions.length > 0 && (
        <>
          <h3>Promotions</h3>
          <ul>
            {order.promotions.map((p) => (
              <li key={p.id}>
                {p.name}
                {p.code && ` (code ${p.code})`}, {words(p.kind)}: {money(p.amount)}
              </li>
            ))}
          </ul>
        </>
      )}
      <h3>Totals</h3>
      <dl class="totals">
        <dt>
          Subtotal ({order.total_items} {order.total_items === 1 ? 'item' : 'items'})
        </dt>
        <dd>{money(order.subtotal)}</dd>
        <dt>Discount{order.discount_name && ` (${order.discount_name})`}</dt>
        <dd>{money(order.discount)}</dd>
        <dt>Shipping{order.shipping_name && ` (${order.shipping_name})`}</dt>
        <dd>{money(order.shipping_fee)}</dd>
        <dt>Shipping discount (part of the discount)</dt>
        <dd>{money(order.shipping_discount)}</dd>
        <dt>Total without tax</dt>
        <dd>{money(order.total_without_tax)}</dd>
        <dt>Tax</dt>
        <dd>{money(order.estimated_tax)}</dd>
        {order.tax_details.map((t) => (
          <Fragment key={`${t.tax_class} ${t.tax_percentage}`}>
            <dt class="muted">
              {t.tax_class} {t.tax_percentage} %
            </dt>
            <dd class="muted">{money(t.tax_amount)}</dd>
          </Fragment>
        ))}
        <dt>
          <strong>Total</strong>
        </dt>
        <dd>
          <strong>{money(order.total)}</strong>
        </dd>
      </dl>
    </section>
  );
}
