import { Money } from '../../shared/ui';
import { When } from '../format';
import { firstExpiry, isPositive } from './amounts';
import type { Order, Payment } from './types';

/**
 * The order's money as the API's ledger has it: the total, what refunded returns took off it, what was captured,
 * refunded and credited, and what is due either way: the balance the customer owes, or a refund owed back
 * (highlighted, with the refund that settles it); money authorized and not captured yet, with when its authorization
 * lapses.
 */
export function OrderLedger(props: {
  order: Order;
  payments: readonly Payment[] | undefined;
  /** Opens the refund that gives the money owed back (undefined: no payment can). */
  onRefundDue: (() => void) | undefined;
}) {
  const { order } = props;
  const l = order.ledger;
  const money = (amount: string) => <Money amount={amount} currency={order.currency} />;
  const refundDue = isPositive(l.refund_due);
  const holding = isPositive(l.capturable);
  const expiry = holding ? firstExpiry(props.payments ?? []) : undefined;
  return (
    <>
      <dl class="totals ledger">
        <dt>Total</dt>
        <dd>{money(order.total)}</dd>
        {isPositive(l.returned) && (
          <>
            <dt>Returned (refunded returns: the order charges this much less)</dt>
            <dd>−{money(l.returned)}</dd>
          </>
        )}
        <dt>Captured</dt>
        <dd>{money(l.captured)}</dd>
        <dt>Refunded</dt>
        <dd>{money(l.refunded)}</dd>
        <dt>Credited (goodwill, never owed again)</dt>
        <dd>{money(l.credited)}</dd>
        {!refundDue && (
          <>
            <dt>
              <strong>Balance due</strong>
            </dt>
            <dd>
              <strong>{money(l.balance_due)}</strong>
            </dd>
          </>
        )}
      </dl>
      {holding && (
        <p class="notice">
          Authorized, not captured: {money(l.capturable)}
          {expiry && (
            <>
              {' '}
              — expires <When iso={expiry} />
            </>
          )}
        </p>
      )}
      {refundDue && (
        <div class="warning row">
          <strong>Refund due {money(l.refund_due)}</strong>
          <span>The customer paid more than the order charges now.</span>
          {props.onRefundDue && (
            <button type="button" onClick={props.onRefundDue}>
              Refund {l.refund_due} {order.currency}
            </button>
          )}
        </div>
      )}
    </>
  );
}
