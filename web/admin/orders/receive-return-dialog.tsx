import { useRef, useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { ErrorMessage } from '../../shared/ui';
import { useDashboard } from '../context';
import { useWrite } from '../use-write';
import { ModalForm, type OrderDialogProps } from './modal-dialog';
import { newOperationKey } from './operation-key';
import { receivedText, restockText } from './return-words';
import type { Return } from './types';

/** The reason a customer gives for units that came back broken: the dialog does not offer them for sale again. */
const DAMAGED = 'damaged';

/**
 * Mark a requested return received, in a dialog: per line whether its units go back into stock (ticked unless the
 * customer said they arrived damaged; the admin who unpacks them decides), and the total that does. A return is
 * received once (the API refuses a second, 409), so stock goes back once; the Idempotency-Key made when the dialog
 * opens makes a retry after a lost answer the same.
 */
export function ReceiveReturnDialog(props: OrderDialogProps & { ret: Return }) {
  const { order, ret } = props;
  const { api } = useDashboard();
  const write = useWrite();
  const key = useRef(newOperationKey());
  const [restock, setRestock] = useState<Record<string, boolean>>(() =>
    Object.fromEntries(ret.lines.map((l) => [l.alias, l.reason.code !== DAMAGED])),
  );
  const units = ret.lines.filter((l) => restock[l.alias]).reduce((sum, l) => sum + l.quantity, 0);

  async function receive(event: Event) {
    event.preventDefault();
    const params = {
      path: { order_alias: order.order_alias, return_id: ret.id },
      header: { 'idempotency-key': key.current },
    };
    const body = { lines: ret.lines.map((l) => ({ alias: l.alias, restock: restock[l.alias] ?? true })) };
    const url = '/order/dashboard/api/orders/{order_alias}/returns/{return_id}/receive/' as const;
    const received = await write.run(() => ok(api.POST(url, { params, body })));
    if (received) await props.onDone(receivedText(received));
  }

  return (
    <ModalForm
      title={`Receive return ${ret.id}`}
      onSubmit={receive}
      busy={write.busy}
      confirm="Yes, mark it received"
      onClose={props.onClose}
    >
      <p>The goods came back. Per line: do its units go back into stock?</p>
      <fieldset class="plain">
        <legend class="visually-hidden">Back into stock</legend>
        {ret.lines.map((l) => (
          <label key={l.alias} class="check">
            <input
              type="checkbox"
              checked={restock[l.alias] ?? true}
              onChange={(e) => setRestock({ ...restock, [l.alias]: e.currentTarget.checked })}
            />{' '}
            Back into stock: {l.quantity} × {l.name} <span class="muted">({l.reason.label})</span>
          </label>
        ))}
      </fieldset>
      <p>
        <strong>{restockText(units)}.</strong>
      </p>
      <ErrorMessage problem={write.problem} />
    </ModalForm>
  );
}
