import { useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { useDashboard } from '../context';
import { Outcome } from '../outcome';
import { useWrite } from '../use-write';
import { cancellable, nextStatuses, type OrderStatus } from './order-statuses';
import type { Order } from './types';

/** The button that moves an order to each status (pending is never a move's target; cancelling has its own). */
const MOVE_TO: Record<OrderStatus, string> = {
  pending: 'Back to pending',
  approved: 'Approve',
  processing: 'Start processing',
  shipped: 'Mark as shipped',
  delivered: 'Mark as delivered',
  cancelled: 'Cancel order',
};

/**
 * The status changes the order's state machine allows from where it is, and cancelling. Cancelling an order that
 * kept money is refused (409 refund_required); the admin is told why and offered to refund it in full and cancel.
 */
export function OrderStatusActions(props: { order: Order; onChanged: () => Promise<void> }) {
  const { order, onChanged } = props;
  const { api } = useDashboard();
  const write = useWrite();
  const [step, setStep] = useState<'none' | 'confirm' | 'refund'>('none');
  const path = { order_alias: order.order_alias };

  /** Sends the change, then shows the order as it is now, whether the change was made or refused. */
  async function change(body: { status: OrderStatus; refund?: boolean }, said: string) {
    await write.run(
      () => ok(api.PATCH('/order/dashboard/api/orders/{order_alias}/', { params: { path }, body })),
      () => said,
    );
    setStep('none');
    await onChanged();
  }

  const next = nextStatuses(order);
  const canCancel = cancellable(order);
  const refundRequired = write.problem?.code === 'refund_required';
  return (
    <section aria-labelledby="order-status">
      <h2 id="order-status">Status</h2>
      {next.length === 0 && !canCancel && (
        <p class="muted">This order is {order.status}: its status changes no more.</p>
      )}
      <div class="row">
        {next.map((to) => (
          <button
            key={to}
            type="button"
            disabled={write.busy}
            onClick={() => void change({ status: to }, `The order is now ${to}.`)}
          >
            {MOVE_TO[to]}
          </button>
        ))}
        {canCancel && step === 'none' && (
          <button type="button" class="secondary" disabled={write.busy} onClick={() => setStep('confirm')}>
            Cancel order
          </button>
        )}
      </div>
      {step === 'confirm' && (
        <div class="panel">
          <p>Cancel this order? Its stock goes back on sale and its promotion uses are released.</p>
          <div class="row">
            <button
              type="button"
              disabled={write.busy}
              onClick={() =>
                void change(
                  { status: 'cancelled' },
                  'The order is cancelled: its stock and promotion uses are given back.',
                )
              }
            >
              Yes, cancel the order
            </button>
            <button type="button" class="secondary" onClick={() => setStep('none')}>
              Keep the order
            </button>
          </div>
        </div>
      )}
      {refundRequired && (
        <div class="panel warning">
          <p>
            This order has been paid, so it can't just be cancelled. Refunding and cancelling gives back in full every
            payment that kept money (through its payment method; one that can't refund is recorded as returned by hand),
            then cancels the order.
          </p>
          <div class="row">
            <button
              type="button"
              disabled={write.busy}
              onClick={() =>
                void change(
                  { status: 'cancelled', refund: true },
                  'The order is refunded in full and cancelled: its stock and promotion uses are given back.',
                )
              }
            >
              Refund and cancel
            </button>
            <button type="button" class="secondary" onClick={write.reset}>
              Keep the order
            </button>
          </div>
        </div>
      )}
      <Outcome done={write.done} problem={refundRequired ? undefined : write.problem} />
    </section>
  );
}
