import { useLocation, useRoute } from 'preact-iso';
import { useEffect } from 'preact/hooks';
import { ErrorMessage } from '../../shared/ui';
import { OrderView } from '../components/order-view';
import { PayOrder } from '../components/pay-order';
import { awaitsPayment } from '../order-words';
import { useOrder } from '../use-order';

/** What the gateway said when it sent the shopper back (`payment_status` in the return URL), in words. */
const RETURNED: Record<string, string> = {
  succeeded: 'Thank you: your payment went through.',
  pending: 'Your payment is being confirmed. If you chose to pay on delivery, there is nothing more to do now.',
  failed: 'The payment was declined. You can try again.',
  cancelled: 'The payment was cancelled. You can try again.',
};

/** Where the shopper lands after placing an order and after paying: it follows the order until it is paid. */
export function OrderConfirmation() {
  const { params } = useRoute();
  const { query } = useLocation();
  const alias = params.alias ?? '';
  const { order, problem, following } = useOrder(alias, { follow: true });

  useEffect(() => {
    document.title = 'Your order';
  }, []);

  const returned = query.payment_status ? RETURNED[query.payment_status] : undefined;
  return (
    <>
      <h1>Thank you for your order</h1>
      {returned && <p role="status">{returned}</p>}
      {problem && (
        <>
          <ErrorMessage problem={problem} />
          <p>
            Orders placed as a guest open in the browser they were placed in. <a href="/">Back to the shop</a>
          </p>
        </>
      )}
      {!order && !problem && <p>Loading…</p>}
      {order && (
        <OrderView order={order}>
          <div aria-live="polite">
            {following && order.payment_status !== 'unpaid' && (
              <p class="muted">Waiting for the payment to be confirmed…</p>
            )}
          </div>
          {awaitsPayment(order) && (
            <section aria-labelledby="pay">
              <h2 id="pay">Pay</h2>
              <PayOrder alias={order.order_alias} />
            </section>
          )}
        </OrderView>
      )}
    </>
  );
}
