import { useLocation, useRoute } from 'preact-iso';
import { useEffect } from 'preact/hooks';
import { ErrorMessage } from '../../shared/ui';
import { OrderView } from '../components/order-view';
import { PaymentNextStep } from '../components/payment-next-step';
import { useOrder } from '../use-order';

/** What the gateway said when it sent the shopper back (`payment_status` in the return URL), in words. */
const RETURNED: Record<string, string> = {
  succeeded: 'Thank you: your payment went through.',
  pending: 'Your payment is being confirmed. If you chose to pay on delivery, there is nothing more to do now.',
  failed: 'The payment was declined. You can try again.',
  cancelled: 'The payment was cancelled. You can try again.',
};

/**
 * Where the shopper lands after placing an order, after paying, and on Back from the gateway's page: it offers to pay
 * (or to continue the payment started), and follows the order for a while when a gateway may still report.
 */
export function OrderConfirmation() {
  const { params } = useRoute();
  const { query } = useLocation();
  const alias = params.alias ?? '';
  const state = useOrder(alias);
  const { order, problem } = state;

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
        <OrderView order={order} payments={state.payments} plugins={state.plugins}>
          <PaymentNextStep state={state} />
        </OrderView>
      )}
    </>
  );
}
