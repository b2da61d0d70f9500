import type { Answer } from '../../api/client';
import { lineNaming, soldLine } from '../../../src/orders/line-naming.js';
import { LineThumbnail } from '../../shared/picture';
import { Money } from '../../shared/ui';
import { useShop } from '../context';
import { taxIncluded } from '../market';

/**
 * The figures of an estimate (or a placement's answer, which adds to it) or of a placed order: they share these fields.
 */
export type Figures =
  | Answer<'/order/storefront/api/estimate/', 'post'>
  | Answer<'/order/storefront/api/orders/{order_alias}/', 'get'>;

const FROM_ADDRESS = 'Calculated from your address';

/**
 * An order's lines (each named "Product - Variant" by the API, with its SKU, option values and what every promotion
 * took off it) and its totals: subtotal, each promotion by name, shipping and its discount, tax, total. `lineError`
 * puts an error (e.g. not enough stock) beside its line. Where the prices include tax (a VAT market), the tax is said
 * to be included in the total, not added to it.
 */
export function OrderFigures(props: {
  figures: Figures;
  lineError?: (alias: string, index: number) => string | undefined;
  /** Checkout before a country is chosen: shipping and tax follow from the address, so they are not shown as 0.00. */
  awaitingAddress?: boolean;
}) {
  const { figures } = props;
  const included = taxIncluded(figures, useShop().markets);
  const money = (amount: string) => <Money amount={amount} currency={figures.currency} />;
  const promotionName = (id: number) => figures.promotions.find((p) => p.id === id)?.name ?? 'Discount';
  return (
    <>
      <div class="table-wrap">
        <table>
          <caption class="visually-hidden">Items</caption>
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col" class="num">
                Qty
              </th>
              <th scope="col" class="num">
                Total
              </th>
            </tr>
          </thead>
          <tbody>
            {figures.lines.map((line, index) => {
              const error = props.lineError?.(line.alias, index);
              const naming = lineNaming(soldLine(line));
              return (
                <tr key={line.alias}>
                  <th scope="row">
                    <div class="line-item">
                      <LineThumbnail image={line.image} />
                      <div>
                        {naming.name}
                        {naming.options !== null && <div class="detail">{naming.options}</div>}
                        {line.sku && <div class="detail">SKU {line.sku}</div>}
                        <div class="detail">{money(line.unit_price)} each</div>
                        {line.adjustments.map((a) => (
                          <div key={a.promotion_id} class="detail">
                            {promotionName(a.promotion_id)}: −{money(a.amount)}
                          </div>
                        ))}
                        {error && (
                          <p role="alert" class="field-error">
                            {error}
                          </p>
                        )}
                      </div>
                    </div>
                  </th>
                  <td class="num">{line.quantity}</td>
                  <td class="num">{money(line.subtotal)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <dl class="totals">
        <dt>Subtotal</dt>
        <dd>{money(figures.subtotal)}</dd>
        {figures.promotions.map((p) => (
          <div key={p.id} class="promotion">
            <dt>
              {p.name}
              {p.code && <span class="muted"> (code {p.code})</span>}
            </dt>
            <dd>−{money(p.amount)}</dd>
          </div>
        ))}
        <dt>Shipping{figures.shipping_name ? ` (${figures.shipping_name})` : ''}</dt>
        <dd>{props.awaitingAddress ? <span class="muted">{FROM_ADDRESS}</span> : money(figures.shipping_fee)}</dd>
        {figures.shipping_discount !== '' && !/^[0.]*$/.test(figures.shipping_discount) && (
          <>
            <dt>Shipping discount</dt>
            <dd>−{money(figures.shipping_discount)}</dd>
          </>
        )}
        {!included && (
          <>
            <dt>Tax</dt>
            <dd>{props.awaitingAddress ? <span class="muted">{FROM_ADDRESS}</span> : money(figures.estimated_tax)}</dd>
          </>
        )}
        <dt class="grand">{props.awaitingAddress ? 'Total so far' : 'Total'}</dt>
        <dd class="grand">{money(figures.total)}</dd>
        {included && !props.awaitingAddress && (
          <>
            <dt class="muted">Tax included in the total</dt>
            <dd class="muted">{money(figures.estimated_tax)}</dd>
          </>
        )}
      </dl>
    </>
  );
}
