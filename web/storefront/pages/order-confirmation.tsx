import { useLocation, useRoute } from 'preact-iso';
import { useEffect, useState } from 'preact/hooks';
import { ErrorMessage } from '../../shared/ui';
import { OrderView } from '../components/order-view';
import { PaymentNextStep } from '../components/payment-next-step';
import { keepOrderLinkToken } from '../order-tokens';
import { placedHere } from '../placed-orders';
import { useOrder } from '../use-order';

/** What the gateway said when it sent the shopper back (`payment_status` in the return URL), in words. */
const RETURNED: Record<string, string> = {
  succeeded: 'Your payment went through.',
  pending: 'Your payment is being confirmed. If you chose to pay on delivery, there is nothing more to do now.',
  failed: 'The payment was declined. You can try again.',
  cancelled: 'The payment was cancelled. You can try again.',
};

/**
 * The shopper came by an order email's link (`?token=`, through the service's page of the order): its token is kept
 * as the order's before the order is read, then taken out of the address, so it is neither left in the history nor
 * shared with the address. Answers whether they came that way.
 */
function useOrderLink(alias: string): boolean {
  const { query, path, route } = useLocation();
  const [cameByLink] = useState(() => {
    if (!query.token) return false;
    keepOrderLinkToken({ alias, token: query.token });
    return true;
  });
  useEffect(() => {
    if (!query.token) return;
    const rest = new URLSearchParams(Object.entries(query).filter(([name]) => name !== 'token')).toString();
    route(rest === '' ? path : `${path}?${rest}`, true);
  }, [query, path, route]);
  return cameByLink;
}

/**
 * Where the shopper lands after placing an order, after paying, and on Back from the gateway's page: it offers to pay
 * (or to continue the payment started), and follows the order for a while when a gateway may still report. A guest
 * from an order email's link lands here too, and follows shipments, returns items and pays what is due. It thanks the
 * shopper in the tab that placed the order (`placedHere`); any other visit shows the order.
 */
export function OrderConfirmation() {
  const { params } = useRoute();
  const { query } = useLocation();
  const alias = params.alias ?? '';
  const cameByLink = useOrderLink(alias);
  const state = useOrder(alias);
  const { order, problem } = state;

  useEffect(() => {
    document.title = 'Your order';
  }, []);

  const returned = query.payment_status ? RETURNED[query.payment_status] : undefined;
  return (
    <>
      <h1>{!cameByLink && placedHere(alias) ? 'Thank you for your order' : 'Your order'}</h1>
      {returned && <p role="status">{returned}</p>}
      {problem && (
        <>
          <ErrorMessage problem={problem} />
          <p>
            {problem.code === 'order_link_expired'
              ? 'The link you followed has expired: open the link in a more recent email about your order. '
              : 'Orders placed as a guest open in the browser they were placed in, or from the link in an email '
                + 'about the order. '}
            <a href="/">Back to the shop</a>
          </p>
        </>
      )}
      {!order && !problem && <p>Loading…</p>}
      {order && (
        <OrderView order={order} payments={state.payments} plugins={state.plugins}>
          <PaymentNextStep state={state} />
        </OrderView>
      )}
    </>
  );
}
