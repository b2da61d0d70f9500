import { useEffect, useRef, useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { problemMessage } from '../../shared/problem';
import { useDashboard } from '../context';
import { shortAlias } from '../format';
import { useWrite } from '../use-write';
import { isPositive } from './amounts';
import { DialogButtons, ModalDialog, type OrderDialogProps } from './modal-dialog';
import { failureKind, newOperationKey } from './operation-key';
import type { Order } from './types';

/** The question before an order with money is cancelled: what it refunds and what it releases, in its currency. */
export function cancelQuestion(order: Order): string {
  const { refundable, capturable } = order.ledger;
  const money = [
    isPositive(refundable) ? `refund ${refundable} ${order.currency}` : '',
    isPositive(capturable) ? `release ${capturable} ${order.currency} held` : '',
  ].filter(Boolean);
  return `Cancel order ${shortAlias(order.order_alias)} and ${money.join(' and ')}? Stock is returned.`;
}

/**
 * Cancel and refund, one action (PATCH {"status": "cancelled", "refund": true}): the order is cancelled, every
 * payment's money refunded and what authorizations hold released. The Idempotency-Key is made when the dialog opens
 * and sent again by "Try again" after an unsure failure, so the refunds are made once.
 */
export function CancelAndRefundDialog(props: OrderDialogProps) {
  const { order } = props;
  const { api } = useDashboard();
  const write = useWrite();
  const key = useRef(newOperationKey());
  const [unsure, setUnsure] = useState(false);
  const problem = write.problem;
  useEffect(() => {
    if (problem === undefined) return;
    const kind = failureKind(problem);
    setUnsure(kind === 'unsure');
    if (kind === 'refused') key.current = newOperationKey();
  }, [problem]);

  async function confirm() {
    const changed = await write.run(() =>
      ok(
        api.PATCH('/order/dashboard/api/orders/{order_alias}/', {
          params: { path: { order_alias: order.order_alias } },
          // Not declared by the route's schema (yet), but read by it: src/orders/orders.routes.ts.
          headers: { 'idempotency-key': key.current },
          body: { status: 'cancelled', refund: true },
        }),
      ),
    );
    if (changed === undefined) return;
    await props.onDone(
      `The order is cancelled and its money given back (refunded ${changed.ledger.refunded} ${changed.currency} in `
        + 'all): its stock and promotion uses are returned.',
    );
  }

  return (
    <ModalDialog title="Cancel and refund" onClose={props.onClose}>
      <p>
        <strong>{cancelQuestion(order)}</strong>
      </p>
      <p class="muted">
        Each payment is refunded through its payment method (one that can't refund is recorded as returned by hand), and
        the promotion uses are released.
      </p>
      {problem && (
        <div role="alert" class="error">
          <p>{problemMessage(problem)}</p>
          {failureKind(problem) === 'unsure' && (
            <p>
              The refunds may or may not have been made. Press “Try again”: the same request is sent again with the same
              key, so the money moves once.
            </p>
          )}
          {failureKind(problem) === 'refused' && (
            <p>A payment's refund was refused. Close this to see what is still owed back and refund it from there.</p>
          )}
        </div>
      )}
      <DialogButtons
        busy={write.busy}
        confirm={unsure ? 'Try again' : 'Yes, cancel and refund'}
        onConfirm={() => void confirm()}
        dismiss="Keep the order"
        onClose={props.onClose}
      />
    </ModalDialog>
  );
}
