import { useRef, useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { fieldError, problemBeyondFields } from '../../shared/problem';
import { ErrorMessage, Field, SelectField } from '../../shared/ui';
import { TextAreaField } from '../pages/common/form-parts';
import { useDashboard } from '../context';
import { useWrite } from '../use-write';
import { ModalForm, type OrderDialogProps } from './modal-dialog';
import { newOperationKey } from './operation-key';
import { unitsText } from './shipment-words';
import type { OrderReturns } from './types';

type Line = OrderReturns['returnable'][number];
type Typed = Record<string, { quantity: string; reason: string }>;

/** The units typed, checked: whole numbers up to what each line may return, each with a reason; one at least. */
function checkLines(lines: readonly Line[], typed: Typed) {
  const errors: Record<string, string> = {};
  const chosen: { alias: string; name: string; quantity: number; reason: string }[] = [];
  for (const line of lines) {
    const { quantity: text = '0', reason = '' } = typed[line.alias] ?? {};
    const quantity = Number(text.trim() || '0');
    if (!Number.isInteger(quantity) || quantity < 0 || quantity > line.returnable) {
      errors[`${line.alias}.quantity`] = `Enter a whole number from 0 to ${line.returnable}`;
    } else if (quantity > 0 && reason === '') errors[`${line.alias}.reason`] = 'Choose a reason';
    else if (quantity > 0) chosen.push({ alias: line.alias, name: line.name, quantity, reason });
  }
  const first = lines[0];
  if (chosen.length === 0 && Object.keys(errors).length === 0 && first) {
    errors[`${first.alias}.quantity`] = 'Return at least one unit';
  }
  return { errors, chosen };
}

/**
 * Open a return for the customer (a phone call, a parcel that came back): per shipped line the units and the reason,
 * a note; requested at once, then received, refunded or rejected as any other. The Idempotency-Key made when the
 * dialog opens makes a retry after a lost answer open one return.
 */
export function OpenReturnDialog(props: OrderDialogProps & { returns: OrderReturns }) {
  const { order } = props;
  const { api } = useDashboard();
  const write = useWrite();
  const key = useRef(newOperationKey());
  const lines = props.returns.returnable.filter((l) => l.returnable > 0);
  const [typed, setTyped] = useState<Typed>({});
  const [note, setNote] = useState('');
  const [typos, setTypos] = useState<Record<string, string>>({});
  const [sent, setSent] = useState<string[]>([]);
  const set = (line: string, field: 'quantity' | 'reason', value: string) =>
    setTyped((before) => ({
      ...before,
      [line]: { quantity: before[line]?.quantity ?? '0', reason: before[line]?.reason ?? '', [field]: value },
    }));

  async function open(event: Event) {
    event.preventDefault();
    const checked = checkLines(lines, typed);
    setTypos(checked.errors);
    if (Object.keys(checked.errors).length > 0) return;
    setSent(checked.chosen.map((l) => l.alias));
    const params = { path: { order_alias: order.order_alias }, header: { 'idempotency-key': key.current } };
    const body = {
      lines: checked.chosen.map(({ alias, quantity, reason }) => ({ alias, quantity, reason })),
      ...(note.trim() ? { note: note.trim() } : {}),
    };
    const made = await write.run(() =>
      ok(api.POST('/order/dashboard/api/orders/{order_alias}/returns/', { params, body })),
    );
    if (made) await props.onDone(`Return ${made.id} opened: ${unitsText(made.lines)}. Receive it when it comes back.`);
  }

  const lineError = (alias: string, field: 'quantity' | 'reason') => {
    const at = sent.indexOf(alias);
    return typos[`${alias}.${field}`] ?? (at < 0 ? undefined : fieldError(write.problem, `lines[${at}].${field}`));
  };
  return (
    <ModalForm
      title={`Open a return of order ${order.order_alias}`}
      onSubmit={open}
      busy={write.busy}
      confirm="Open the return"
      onClose={props.onClose}
    >
      <p class="muted">Units coming back, per shipped line (0 leaves a line out), and why.</p>
      {lines.map((line) => (
        <div key={line.alias} class="pair">
          <Field
            label={`${line.name} (${line.returnable} returnable)`}
            type="number"
            min={0}
            max={line.returnable}
            step={1}
            value={typed[line.alias]?.quantity ?? '0'}
            onInput={(e) => set(line.alias, 'quantity', e.currentTarget.value)}
            error={lineError(line.alias, 'quantity')}
          />
          <SelectField
            label={`Reason for ${line.name}`}
            value={typed[line.alias]?.reason ?? ''}
            onChange={(e) => set(line.alias, 'reason', e.currentTarget.value)}
            error={lineError(line.alias, 'reason')}
          >
            <option value="">Choose</option>
            {props.returns.reasons.map((r) => (
              <option key={r.code} value={r.code}>
                {r.label}
              </option>
            ))}
          </SelectField>
        </div>
      ))}
      <TextAreaField
        label="Note (optional)"
        rows={2}
        maxLength={2000}
        value={note}
        onInput={(e) => setNote(e.currentTarget.value)}
      />
      <ErrorMessage
        problem={problemBeyondFields(
          write.problem,
          sent.map((_, i) => `lines[${i}]`),
        )}
      />
    </ModalForm>
  );
}
