import { useEffect, useRef, useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { asProblem, type Problem } from '../../shared/problem';
import { ErrorMessage, Money } from '../../shared/ui';
import { useShop } from '../context';
import { dateTimeText, returnStatusText } from '../../../src/orders/customer-words.js';
import { orderTokenHeader } from '../order-tokens';
import { returnProblemMessage } from '../shopper-messages';
import type { Order } from '../use-order';
import { type Return, useReturns } from '../use-returns';
import { ReturnForm } from './return-form';

/** Something of the order has gone out: only shipped units are returned. */
const SHIPPED = new Set(['partially_shipped', 'shipped', 'delivered', 'partially_returned', 'returned']);

/** What a return gives back: what it refunded, or what it is estimated to while open. */
function RefundLine(props: { ret: Return }) {
  const { ret } = props;
  const money = (amount: string) => <Money amount={amount} currency={ret.currency} />;
  if (ret.refund) return <p>Refunded: {money(ret.refund.amount)}</p>;
  if (ret.estimated_refund) return <p>Estimated refund: {money(ret.estimated_refund.amount)}</p>;
  return null;
}

/**
 * The order's returns, in words (requested, received, refunded, not accepted, cancelled), each with its items and
 * what it refunded (or is estimated to); a requested one says how to send it back (when the store says) and can be
 * cancelled after a confirmation. Below them, the form
 * to return shipped items, when something can still be returned.
 */
export function OrderReturns(props: { order: Order }) {
  const { order } = props;
  const alias = order.order_alias;
  const { api } = useShop();
  const returns = useReturns(alias, SHIPPED.has(order.fulfillment_status));
  const [said, setSaid] = useState<string>();
  const [cancelling, setCancelling] = useState<number>();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem>();
  /** A new form after each return requested: the one sent is done with. */
  const [formKey, setFormKey] = useState(0);
  const confirmRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (cancelling !== undefined) confirmRef.current?.focus();
  }, [cancelling]);

  const data = returns.data;
  if (data === undefined) return returns.problem ? <ErrorMessage problem={returns.problem} /> : null;
  const returnable = data.returnable.filter((l) => l.returnable > 0);
  if (data.items.length === 0 && returnable.length === 0) return null;

  async function requested(made: Return) {
    const estimate = made.estimated_refund
      ? ` Estimated refund: ${made.estimated_refund.amount} ${made.currency}.`
      : '';
    const how = returns.data?.return_instructions ? ' How to send them back is under the return.' : '';
    setSaid(`Return requested: we will refund you once the items reach the shop.${estimate}${how}`);
    setFormKey((k) => k + 1);
    await returns.reload();
  }

  async function cancel(id: number) {
    setBusy(true);
    setProblem(undefined);
    setSaid(undefined);
    try {
      const params = { path: { order_alias: alias, return_id: id }, header: orderTokenHeader(alias) };
      await ok(api.POST('/order/storefront/api/orders/{order_alias}/returns/{return_id}/cancel/', { params }));
      setSaid('Return cancelled.');
      setCancelling(undefined);
      await returns.reload();
    } catch (err) {
      setProblem(asProblem(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="returns">
      <h2 id="returns">Returns</h2>
      {data.items.length === 0 && <p>No return yet.</p>}
      <ul class="returns plain">
        {data.items.map((r, index) => (
          <li key={r.id} class="panel">
            <p>
              <strong>
                Return {index + 1}: {returnStatusText(r.status)}
              </strong>{' '}
              <span class="muted">(asked {dateTimeText(r.created_at)})</span>
            </p>
            <ul>
              {r.lines.map((l) => (
                <li key={l.alias}>
                  {l.quantity} × {l.name} <span class="muted">({l.reason.label})</span>
                </li>
              ))}
            </ul>
            {r.reject_reason && <p>Why: {r.reject_reason}</p>}
            {r.status === 'requested' && data.return_instructions && (
              <p class="break">
                <strong>How to send it back:</strong> {data.return_instructions}
              </p>
            )}
            <RefundLine ret={r} />
            {r.next_statuses.includes('cancelled') && cancelling !== r.id && (
              <button type="button" class="secondary" onClick={() => setCancelling(r.id)}>
                Cancel return {index + 1}
              </button>
            )}
            {cancelling === r.id && (
              <div>
                <p ref={confirmRef} tabIndex={-1}>
                  Cancel this return? You keep the items, and nothing is refunded for them.
                </p>
                <div class="row">
                  <button type="button" disabled={busy} onClick={() => void cancel(r.id)}>
                    Yes, cancel return {index + 1}
                  </button>
                  <button type="button" class="secondary" disabled={busy} onClick={() => setCancelling(undefined)}>
                    Keep it
                  </button>
                </div>
              </div>
            )}
          </li>
        ))}
      </ul>
      <p role="status" class="ok">
        {said}
      </p>
      {problem && (
        <p role="alert" class="error">
          {returnProblemMessage(problem)}
        </p>
      )}
      {returnable.length > 0 && data.reasons.length > 0 && (
        <ReturnForm key={formKey} alias={alias} lines={returnable} reasons={data.reasons} onRequested={requested} />
      )}
    </section>
  );
}
