import { useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { ErrorMessage, Money } from '../../shared/ui';
import { useDashboard } from '../context';
import { When, words } from '../format';
import { Outcome } from '../outcome';
import { useWrite } from '../use-write';
import { RefundForm } from './refund-form';
import type { Order, Payment, PaymentPlugin } from './types';

const refundable = (p: Payment) => p.status === 'succeeded' || p.status === 'partially_refunded';

/** Records the cash of a manual-capture payment (cash on delivery) as received. */
function CaptureButton(props: { payment: Payment; onCaptured: (said: string) => Promise<void> }) {
  const { api } = useDashboard();
  const write = useWrite();
  async function capture() {
    const captured = await write.run(
      () =>
        ok(
          api.POST('/payment/dashboard/api/payments/{id}/capture/', {
            params: { path: { id: props.payment.id } },
            body: {},
          }),
        ),
      () => '',
    );
    if (captured !== undefined) {
      await props.onCaptured(
        `Payment ${captured.id} recorded as received: ${captured.amount_captured} ${captured.currency}.`,
      );
    }
  }
  return (
    <div class="panel">
      <button type="button" disabled={write.busy} onClick={() => void capture()}>
        Record payment {props.payment.id} as received
      </button>
      <ErrorMessage problem={write.problem} />
    </div>
  );
}

/** The order's payment attempts with what each received and refunded; capture and refund where they apply. */
export function OrderPayments(props: {
  order: Order;
  payments: Payment[] | undefined;
  plugins: PaymentPlugin[] | undefined;
  problem: Parameters<typeof ErrorMessage>[0]['problem'];
  onChanged: () => Promise<void>;
}) {
  const { payments, plugins, onChanged } = props;
  const [said, setSaid] = useState<string>();
  /** A capture or refund was made: say so, and show the order and its payments as they are now. */
  const done = async (message: string) => {
    setSaid(message);
    await onChanged();
  };
  const pluginOf = (id: string) => plugins?.find((p) => p.id === id);
  const capturable = (p: Payment) => p.status === 'pending' && pluginOf(p.plugin_id)?.manual_capture === true;
  return (
    <section aria-labelledby="order-payments">
      <h2 id="order-payments">Payments</h2>
      <p>
        Payment status: <strong>{words(props.order.payment_status)}</strong>
      </p>
      <ErrorMessage problem={props.problem} />
      {payments === undefined && props.problem === undefined && <p>Loading…</p>}
      {payments?.length === 0 && <p>No payment has been started for this order.</p>}
      {payments !== undefined && payments.length > 0 && (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Payment</th>
                <th scope="col">Method</th>
                <th scope="col">State</th>
                <th scope="col" class="num">
                  Amount
                </th>
                <th scope="col" class="num">
                  Received
                </th>
                <th scope="col" class="num">
                  Refunded
                </th>
                <th scope="col">Started</th>
              </tr>
            </thead>
            <tbody>
              {payments.map((p) => (
                <tr key={p.id}>
                  <td>{p.id}</td>
                  <td>{pluginOf(p.plugin_id)?.name ?? p.plugin_id}</td>
                  <td>{words(p.status)}</td>
                  <td class="num">
                    <Money amount={p.amount} currency={p.currency} />
                  </td>
                  <td class="num">
                    <Money amount={p.amount_captured} currency={p.currency} />
                  </td>
                  <td class="num">
                    <Money amount={p.amount_refunded} currency={p.currency} />
                  </td>
                  <td>
                    <When iso={p.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {payments?.filter(capturable).map((p) => (
        <CaptureButton key={p.id} payment={p} onCaptured={done} />
      ))}
      {payments?.filter(refundable).map((p) => (
        <RefundForm key={p.id} payment={p} onRefunded={done} />
      ))}
      <Outcome done={said} />
    </section>
  );
}
