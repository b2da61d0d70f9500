import { useRoute } from 'preact-iso';
import { useEffect } from 'preact/hooks';
import { ErrorMessage } from '../../shared/ui';
import { OrderView } from '../components/order-view';
import { PaymentNextStep } from '../components/payment-next-step';
import { SignInFirst } from '../components/sign-in-first';
import { useSession } from '../context';
import { useOrder } from '../use-order';

/** A customer's order: lines with their adjustments, promotions, totals, payments and refunds, status, what to pay. */
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
  const state = useOrder(props.alias);
  const { order, problem } = state;
  return (
    <>
      <h1>Your order</h1>
      <p>
        <a href="/account/orders">All your orders</a>
      </p>
      <ErrorMessage problem={problem} />
      {!order && !problem && <p>Loading…</p>}
      {order && (
        <OrderView order={order} payments={state.payments} plugins={state.plugins}>
          <PaymentNextStep state={state} />
        </OrderView>
      )}
    </>
  );
}
