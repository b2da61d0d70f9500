import { useRoute } from 'preact-iso';
import { useEffect } from 'preact/hooks';
import { ErrorMessage } from '../../shared/ui';
import { OrderView } from '../components/order-view';
import { PayOrder } from '../components/pay-order';
import { SignInFirst } from '../components/sign-in-first';
import { useSession } from '../context';
import { awaitsPayment } from '../order-words';
import { useOrder } from '../use-order';

/** A customer's order: lines with their adjustments, promotions, totals, payments and refunds, status. */
export function AccountOrder() {
  const { params } = useRoute();
  const alias = params.alias ?? '';
  const session = useSession();
  useEffect(() => {
    document.title = 'Your order';
  }, []);
  if (!session) return <SignInFirst title="Your order" next={`/account/orders/${alias}`} />;
  return <SignedInOrder alias={alias} />;
}

function SignedInOrder(props: { alias: string }) {
  const { order, problem } = useOrder(props.alias, { follow: false });
  return (
    <>
      <h1>Your order</h1>
      <p>
        <a href="/account/orders">All your orders</a>
      </p>
      <ErrorMessage problem={problem} />
      {!order && !problem && <p>Loading…</p>}
      {order && (
        <OrderView order={order}>
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
