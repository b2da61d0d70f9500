import { useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { fieldError, problemBeyondFields } from '../../shared/problem';
import { ErrorMessage } from '../../shared/ui';
import { TextAreaField } from '../pages/common/form-parts';
import { useDashboard } from '../context';
import { useWrite } from '../use-write';
import { ModalForm, type OrderDialogProps } from './modal-dialog';
import { unitsText } from './shipment-words';
import type { Return } from './types';

/**
 * Reject a requested or received return, with an optional reason the customer reads. Nothing is refunded, and stock
 * a receipt put back stays.
 */
export function RejectReturnDialog(props: OrderDialogProps & { ret: Return }) {
  const { order, ret } = props;
  const { api } = useDashboard();
  const write = useWrite();
  const [reason, setReason] = useState('');

  async function reject(event: Event) {
    event.preventDefault();
    const params = { path: { order_alias: order.order_alias, return_id: ret.id } };
    const body = reason.trim() ? { reason: reason.trim() } : {};
    const url = '/order/dashboard/api/orders/{order_alias}/returns/{return_id}/reject/' as const;
    const rejected = await write.run(() => ok(api.POST(url, { params, body })));
    if (rejected) await props.onDone(`Return ${rejected.id} rejected: nothing is refunded for it.`);
  }

  return (
    <ModalForm
      title={`Reject return ${ret.id}`}
      onSubmit={reject}
      busy={write.busy}
      confirm={`Yes, reject return ${ret.id}`}
      dismiss="Keep it"
      onClose={props.onClose}
    >
      <p>
        Reject the return of {unitsText(ret.lines)}? Nothing is refunded for it
        {ret.status === 'received' ? '; the units it put back into stock stay there' : ''}.
      </p>
      <TextAreaField
        label="Why (optional, shown to the customer)"
        rows={3}
        maxLength={500}
        value={reason}
        onInput={(e) => setReason(e.currentTarget.value)}
        error={fieldError(write.problem, 'reason')}
      />
      <ErrorMessage problem={problemBeyondFields(write.problem, ['reason'])} />
    </ModalForm>
  );
}
