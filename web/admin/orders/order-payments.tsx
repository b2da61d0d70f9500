import { useEffect, useRef, useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { ErrorMessage, Money } from '../../shared/ui';
import { useDashboard } from '../context';
import { When, words } from '../format';
import { Outcome } from '../outcome';
import { useWrite } from '../use-write';
import { isPositive, refundSource } from './amounts';
import { failureKind, newOperationKey } from './operation-key';
import { OrderLedger } from './order-ledger';
import { PaymentActionDialog } from './payment-action-dialog';
import type { Order, Payment, PaymentAction, PaymentPlugin } from './types';

/**
 * Records the cash of a cash-on-delivery payment as received. One key per payment until it is recorded (or the
 * service refuses it), so a click again after a lost answer records the cash once.
 */
function RecordCashButton(props: { payment: Payment; onCaptured: (said: string) => Promise<void> }) {
  const { api } = useDashboard();
  const write = useWrite();
  const key = useRef(newOperationKey());
  async function capture() {
    const captured = await write.run(() =>
      ok(
        api.POST('/payment/dashboard/api/payments/{id}/capture/', {
          params: { path: { id: props.payment.id }, header: { 'idempotency-key': key.current } },
          body: {},
        }),
      ),
    );
    if (captured !== undefined) {
      await props.onCaptured(
        `Payment ${captured.id} recorded as received: ${captured.amount_captured} ${captured.currency}.`,
      );
    }
  }
  // Refused (nothing recorded): another click is a new operation. Unsure: the same key, so the cash counts once.
  const problem = write.problem;
  useEffect(() => {
    if (problem && failureKind(problem) === 'refused') key.current = newOperationKey();
  }, [problem]);
  return (
    <>
      <button type="button" disabled={write.busy} onClick={() => void capture()}>
        Record payment {props.payment.id} as received
      </button>
      <ErrorMessage problem={write.problem} />
    </>
  );
}

interface OpenAction {
  action: PaymentAction;
  payment: Payment;
  amount?: string | undefined;
}

/**
 * The order's money (its ledger) and its payment attempts, each with what it holds, took and gave back, and the
 * actions its figures allow: capture or void what an authorization holds, refund what was taken, record cash on
 * delivery as received. Each money action opens a dialog that states the amount before anything moves.
 */
export function OrderPayments(props: {
  order: Order;
  payments: Payment[] | undefined;
  plugins: PaymentPlugin[] | undefined;
  problem: Parameters<typeof ErrorMessage>[0]['problem'];
  onChanged: () => Promise<void>;
}) {
  const { order, payments, plugins, onChanged } = props;
  const [said, setSaid] = useState<string>();
  const [open, setOpen] = useState<OpenAction>();
  /** A capture, void or refund was made: say so, and show the order and its payments as they are now. */
  const done = async (message: string) => {
    setSaid(message);
    await onChanged();
  };
  const pluginOf = (id: string) => plugins?.find((p) => p.id === id);
  const cashToRecord = (p: Payment) => p.status === 'pending' && pluginOf(p.plugin_id)?.manual_capture === true;
  const source = isPositive(order.ledger.refund_due)
    ? refundSource(payments ?? [], order.ledger.refund_due)
    : undefined;
  const openAction = (next: OpenAction) => {
    setSaid(undefined);
    setOpen(next);
  };
  /**
   * After a dialog closed, with or without a change: the figures as they are now (a failed try may have moved
   * some).
   */
  const close = () => {
    setOpen(undefined);
    void onChanged();
  };
  return (
    <section aria-labelledby="order-payments">
      <h2 id="order-payments">Payments</h2>
      <p>
        Payment status: <strong>{words(order.payment_status)}</strong>
      </p>
      <OrderLedger
        order={order}
        payments={payments}
        onRefundDue={source && (() => openAction({ action: 'refund', ...source }))}
      />
      <ErrorMessage problem={props.problem} />
      {payments === undefined && props.problem === undefined && <p>Loading…</p>}
      {payments?.length === 0 && <p>No payment has been started for this order.</p>}
      {payments !== undefined && payments.length > 0 && (
        <div class="table-wrap">
          <table class="reflow">
            <caption class="visually-hidden">Payment attempts</caption>
            <thead>
              <tr>
                <th scope="col">Payment</th>
                <th scope="col">Method</th>
                <th scope="col">State</th>
                <th scope="col" class="num">
                  Amount
                </th>
                <th scope="col" class="num">
                  Held
                </th>
                <th scope="col" class="num">
                  Received
                </th>
                <th scope="col" class="num">
                  Refunded
                </th>
                <th scope="col">Started</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {payments.map((p) => (
                <tr key={p.id}>
                  <td data-label="Payment">{p.id}</td>
                  <td data-label="Method">{pluginOf(p.plugin_id)?.name ?? p.plugin_id}</td>
                  <td data-label="State">{words(p.status)}</td>
                  <td data-label="Amount" class="num">
                    <Money amount={p.amount} currency={p.currency} />
                  </td>
                  <td data-label="Held" class="num">
                    <Money amount={p.capturable} currency={p.currency} />
                  </td>
                  <td data-label="Received" class="num">
                    <Money amount={p.amount_captured} currency={p.currency} />
                  </td>
                  <td data-label="Refunded" class="num">
                    <Money amount={p.amount_refunded} currency={p.currency} />
                  </td>
                  <td data-label="Started">
                    <When iso={p.created_at} />
                  </td>
                  <td data-label="Actions">
                    <div class="row">
                      {isPositive(p.capturable) && (
                        <>
                          <button type="button" onClick={() => openAction({ action: 'capture', payment: p })}>
                            Capture<span class="visually-hidden"> payment {p.id}</span>
                          </button>
                          <button
                            type="button"
                            class="secondary"
                            onClick={() => openAction({ action: 'void', payment: p })}
                          >
                            Void<span class="visually-hidden"> payment {p.id}</span>
                          </button>
                        </>
                      )}
                      {isPositive(p.refundable) && (
                        <button
                          type="button"
                          class="secondary"
                          onClick={() => openAction({ action: 'refund', payment: p })}
                        >
                          Refund<span class="visually-hidden"> payment {p.id}</span>
                        </button>
                      )}
                      {cashToRecord(p) && <RecordCashButton payment={p} onCaptured={done} />}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {open && (
        <PaymentActionDialog
          key={`${open.action}-${open.payment.id}`}
          action={open.action}
          payment={open.payment}
          amount={open.amount}
          onDone={async (message) => {
            setOpen(undefined);
            await done(message);
          }}
          onClose={close}
        />
      )}
      <Outcome done={said} />
    </section>
  );
}
