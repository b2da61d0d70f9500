import { useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { useDashboard } from '../context';
import { Outcome } from '../outcome';
import { useWrite } from '../use-write';
import { isPositive } from './amounts';
import { CancelAndRefundDialog } from './cancel-and-refund-dialog';
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

/** Whether the order's status still moves, with its shipments (an order with some is not shipped by hand). */
const followsShipments = (order: Order) =>
  order.fulfillment_status !== 'unfulfilled' && order.status !== 'delivered' && order.status !== 'cancelled';

/** Whether cancelling the order moves money: it kept some (captured − refunded) or an authorization holds some. */
const hasMoney = (order: Order) => isPositive(order.ledger.refundable) || isPositive(order.ledger.capturable);

/**
 * The status changes the order's state machine allows from where it is, and cancelling. An order with money is
 * cancelled and refunded in one action, through a dialog that states the money; plain cancelling is refused by the
 * API when the order kept money (409 refund_required: the page was older than the payment), which leads there too.
 */
export function OrderStatusActions(props: { order: Order; onChanged: () => Promise<void> }) {
  const { order, onChanged } = props;
  const { api } = useDashboard();
  const write = useWrite();
  const [step, setStep] = useState<'none' | 'confirm' | 'refund'>('none');
  const [said, setSaid] = useState<string>();
  const path = { order_alias: order.order_alias };

  /** Sends the change, then shows the order as it is now, whether the change was made or refused. */
  async function change(body: { status: OrderStatus }, said: string) {
    setSaid(undefined);
    await write.run(
      () => ok(api.PATCH('/order/dashboard/api/orders/{order_alias}/', { params: { path }, body })),
      () => said,
    );
    setStep('none');
    await onChanged();
  }

  const next = nextStatuses(order);
  const canCancel = cancellable(order);
  const withMoney = hasMoney(order);
  const refundRequired = write.problem?.code === 'refund_required' && step !== 'refund';
  return (
    <section aria-labelledby="order-status">
      <h2 id="order-status">Status</h2>
      {next.length === 0 && !canCancel && (
        <p class="muted">
          This order is {order.status}
          {followsShipments(order) ? ': its status follows its shipments.' : ': it has no further status to move to.'}
        </p>
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
        {canCancel && step === 'none' && !withMoney && (
          <button type="button" class="secondary" disabled={write.busy} onClick={() => setStep('confirm')}>
            Cancel order
          </button>
        )}
        {canCancel && withMoney && (
          <button
            type="button"
            class="secondary"
            disabled={write.busy}
            onClick={() => {
              write.reset();
              setSaid(undefined);
              setStep('refund');
            }}
          >
            Cancel and refund
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
            This order has been paid, so it can't just be cancelled: cancel and refund it in one action, which gives
            back every payment's money (through its payment method) and releases what authorizations hold.
          </p>
          <div class="row">
            <button type="button" onClick={() => setStep('refund')}>
              Cancel and refund
            </button>
            <button type="button" class="secondary" onClick={write.reset}>
              Keep the order
            </button>
          </div>
        </div>
      )}
      {step === 'refund' && (
        <CancelAndRefundDialog
          order={order}
          onDone={async (message) => {
            setStep('none');
            write.reset();
            setSaid(message);
            await onChanged();
          }}
          onClose={() => {
            setStep('none');
            write.reset();
            void onChanged();
          }}
        />
      )}
      <Outcome done={said ?? write.done} problem={refundRequired ? undefined : write.problem} />
    </section>
  );
}
