import { useEffect, useRef, useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { ErrorMessage, Money } from '../../shared/ui';
import { useDashboard } from '../context';
import { useWrite } from '../use-write';
import { ModalForm, type OrderDialogProps } from './modal-dialog';
import { failureKind, newOperationKey } from './operation-key';
import { refundedText } from './return-words';
import { unitsText } from './shipment-words';
import type { Return } from './types';

/**
 * Refund a received return, in a dialog that states the money: what its units were paid (`estimated_refund.amount`),
 * or, with "also refund shipping", that and what is left of the shipping (`amount_with_shipping`), and of that what
 * goes back as money (`to_customer…`: less on an order not yet paid in full, the rest lowers what is due). The service
 * computes the amount and refunds it on the payments that kept money; the answer lists each refund, a failed one with
 * why. The Idempotency-Key is made when the dialog opens: after a lost answer, "Try again" sends the same request, and
 * the money moves once.
 */
export function RefundReturnDialog(props: OrderDialogProps & { ret: Return }) {
  const { order, ret } = props;
  const { api } = useDashboard();
  const write = useWrite();
  const key = useRef(newOperationKey());
  const [shipping, setShipping] = useState(false);
  /** Set after a lost answer: the retry must be the very same request, shipping included. */
  const [unsure, setUnsure] = useState(false);
  const estimate = ret.estimated_refund;
  const amount = estimate ? (shipping ? estimate.amount_with_shipping : estimate.amount) : undefined;
  const toCustomer = estimate ? (shipping ? estimate.to_customer_with_shipping : estimate.to_customer) : undefined;
  const shippingLeft = estimate !== null && estimate.amount_with_shipping !== estimate.amount;

  const problem = write.problem;
  useEffect(() => {
    if (problem !== undefined && failureKind(problem) === 'unsure') setUnsure(true);
  }, [problem]);

  async function refund(event: Event) {
    event.preventDefault();
    const params = {
      path: { order_alias: order.order_alias, return_id: ret.id },
      header: { 'idempotency-key': key.current },
    };
    const url = '/order/dashboard/api/orders/{order_alias}/returns/{return_id}/refund/' as const;
    const refunded = await write.run(() => ok(api.POST(url, { params, body: { refund_shipping: shipping } })));
    if (refunded) await props.onDone(refundedText(refunded));
  }

  const money = (figure: string) => <Money amount={figure} currency={order.currency} />;
  return (
    <ModalForm
      title={`Refund return ${ret.id}`}
      onSubmit={refund}
      busy={write.busy}
      confirm={unsure ? 'Try again' : `Yes, refund ${amount ?? ''} ${order.currency}`}
      onClose={props.onClose}
    >
      <p>
        {unitsText(ret.lines)} came back. Refunding gives the customer back what these units were paid, their share of
        the discounts and tax included; the order charges that much less.
      </p>
      {estimate && shippingLeft && (
        <label class="check">
          <input
            type="checkbox"
            checked={shipping}
            disabled={unsure}
            onChange={(e) => setShipping(e.currentTarget.checked)}
          />{' '}
          Also refund shipping: {money(estimate.amount_with_shipping)} in all
        </label>
      )}
      {amount && toCustomer === amount && (
        <p>
          <strong>Refund {money(amount)}</strong> to the customer, on the payments that kept money.
        </p>
      )}
      {amount && toCustomer !== undefined && toCustomer !== amount && (
        <p>
          <strong>The order charges {money(amount)} less.</strong> The customer has not paid all of it yet:{' '}
          {money(toCustomer)} goes back on the payments that kept money, the rest lowers what is still due.
        </p>
      )}
      <ErrorMessage problem={problem} />
      {unsure && (
        <p class="error">
          The refund may or may not have been made. Press “Try again”: the same request is sent again with the same key,
          so the money moves once.
        </p>
      )}
    </ModalForm>
  );
}
