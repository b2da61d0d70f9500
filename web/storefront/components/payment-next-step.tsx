import { Money } from '../../shared/ui';
import type { OrderState } from '../use-order';
import { PayOrder } from './pay-order';

/**
 * What the shopper can do about paying, under the order's facts: continue the attempt they started (Back from the
 * gateway's page lands here) or choose a method and pay what is to pay; or, once nothing is to pay, what happens to
 * the money (authorized, refund due, refunded). While a gateway may still report, says so for a bounded time, then
 * what to do, with "Check again".
 */
export function PaymentNextStep(props: { state: OrderState }) {
  const { order, step, plugins, following, stalled, checkAgain } = props.state;
  if (!order || !step) return null;
  const money = (amount: string) => <Money amount={amount} currency={order.currency} />;

  switch (step.kind) {
    case 'authorized':
      return (
        <p data-testid="payment-next-step">
          Your payment of {money(step.amount)} is authorized: the money will be taken when your order ships.
        </p>
      );
    case 'refund_due':
      return (
        <p data-testid="payment-next-step">A refund of {money(step.amount)} is due to you: the shop will refund it.</p>
      );
    case 'refunded':
      return (
        <p data-testid="payment-next-step">
          {step.whole ? (
            <>Your payment was refunded: {money(step.amount)}.</>
          ) : (
            <>{money(step.amount)} of your payment was refunded.</>
          )}
        </p>
      );
    case 'settled':
      return null;
    case 'pay':
      break;
  }

  const { open } = step;
  return (
    <section aria-labelledby="pay">
      {/* Cash on delivery chosen: nothing to do now, the form is there to pay online instead. */}
      <h2 id="pay">{open?.manual ? 'Pay now instead' : 'Pay'}</h2>
      {step.paid !== undefined && (
        <p data-testid="balance-due">
          You have paid {money(step.paid)} of this order; {money(step.toPay)} is still to pay.
        </p>
      )}
      {open && !open.manual && (
        <>
          <p>
            You started paying {money(step.toPay)} with {open.name}.{' '}
            <a class="button" href={open.url}>
              Continue paying with {open.name}
            </a>
          </p>
          <p>Or choose a method below: choosing another one cancels the payment you started.</p>
        </>
      )}
      {open?.manual && (
        <p>
          You chose {open.name}: you pay {money(step.toPay)} when your order is delivered, nothing more to do now.
          Paying now instead replaces it.
        </p>
      )}
      <div aria-live="polite">
        {following && <p class="muted">Waiting to hear from the payment provider…</p>}
        {stalled && (
          <p>
            We have not heard from the payment provider yet. If you paid, this page will update when you reload it;
            otherwise continue paying or choose another method.{' '}
            <button type="button" class="secondary" onClick={checkAgain}>
              Check again
            </button>
          </p>
        )}
      </div>
      <PayOrder
        alias={order.order_alias}
        toPay={step.toPay}
        currency={order.currency}
        plugins={plugins}
        preferredPluginId={open?.manual ? plugins.find((p) => p.id !== open.pluginId)?.id : open?.pluginId}
      />
    </section>
  );
}
