import { useEffect, useRef, useState } from 'preact/hooks';
import { type Answer, ok } from '../../api/client';
import { compareAmounts } from '../../shared/money';
import { Field, Money } from '../../shared/ui';
import { useDashboard } from '../context';
import { Outcome } from '../outcome';
import { useWrite } from '../use-write';
import { editLineText } from './edit-words';
import { ModalDialog } from './modal-dialog';
import type { Order } from './types';
import { useVariantSuggestions } from './variant-suggestions';

type Preview = Answer<'/order/dashboard/api/orders/{order_alias}/edits/preview/', 'post'>;

/** The statuses the API lets an order's lines change in (it also refuses an order with a fulfilment). */
const EDITABLE: readonly Order['status'][] = ['pending', 'approved', 'processing'];
export const editable = (order: Order) => EDITABLE.includes(order.status);

/** What the difference means for the money, in words the admin confirms. */
function moneySentence(preview: Preview, currency: string): string {
  const sign = compareAmounts(preview.difference, '0');
  if (sign === 0) return 'The total does not change.';
  const due = `${preview.balance_due} ${currency}`;
  if (sign > 0) return `The customer will owe ${preview.difference} ${currency} more (balance due ${due}).`;
  const less = `The total is ${preview.difference.replace('-', '')} ${currency} less`;
  if (compareAmounts(preview.refund_due, '0') <= 0) return `${less} (balance due ${due}).`;
  return `${less}: ${preview.refund_due} ${currency} will be owed back to the customer, to refund from the payments.`;
}

/** A line's change in words, with the stock it takes or gives back. */
function lineChangeText(line: Preview['lines'][number], currency: string): string {
  const units = (n: number) => `${n} unit${n === 1 ? '' : 's'}`;
  const change = line.after - line.before;
  const stock = change > 0 ? `${units(change)} taken from stock` : `${units(-change)} back in stock`;
  return `${editLineText(line, currency)} (${stock})`;
}

/**
 * Change an order's lines (quantities, a line removed with 0, a variant added, found by its product's name) in a
 * dialog: the change is previewed first (the API prices it again as placed and checks the stock), stating the new
 * total and what it means for the money; saving sends the previewed total as `expected_total`, so a total that
 * changed meanwhile is refused rather than saved. Any change to the inputs asks for a new preview.
 */
export function OrderEditDialog(props: {
  order: Order;
  onClose: () => void;
  /** After the edit is saved, with what to say of it (its new total). */
  onSaved: (said: string) => Promise<void>;
}) {
  const { order } = props;
  const { api } = useDashboard();
  const write = useWrite();
  const [quantities, setQuantities] = useState<Record<string, string>>(() =>
    Object.fromEntries(order.lines.map((l) => [l.alias, String(l.quantity)])),
  );
  const [added, setAdded] = useState({ alias: '', quantity: '1' });
  const [note, setNote] = useState('');
  const [preview, setPreview] = useState<Preview>();
  const saveRef = useRef<HTMLButtonElement>(null);
  const path = { order_alias: order.order_alias };
  const suggestions = useVariantSuggestions(api, added.alias, order.currency);

  const changes = () => {
    const lines = order.lines
      .filter((l) => quantities[l.alias] !== String(l.quantity))
      .map((l) => ({ alias: l.alias, quantity: Number(quantities[l.alias] ?? l.quantity) }));
    if (added.alias.trim() !== '') lines.push({ alias: added.alias.trim(), quantity: Number(added.quantity) });
    return lines;
  };
  const edited = (update: () => void) => {
    update();
    setPreview(undefined);
    write.reset();
  };
  // The preview button goes while it is pressed: focus moves to the save button, beside what it saves, not to the page.
  useEffect(() => {
    if (preview) saveRef.current?.focus();
  }, [preview]);
  const money = (amount: string) => <Money amount={amount} currency={order.currency} />;

  async function showPreview() {
    const body = { lines: changes(), note };
    const answer = await write.run(() =>
      ok(api.POST('/order/dashboard/api/orders/{order_alias}/edits/preview/', { params: { path }, body })),
    );
    setPreview(answer);
  }

  async function save(seen: Preview) {
    const body = { lines: changes(), note, expected_total: seen.total_after };
    const answer = await write.run(() =>
      ok(api.POST('/order/dashboard/api/orders/{order_alias}/edits/', { params: { path }, body })),
    );
    if (answer) {
      await props.onSaved(`Saved: the order's total is now ${answer.total_after} ${order.currency}.`);
      props.onClose();
    }
  }

  return (
    <ModalDialog title={`Edit the lines of order ${order.order_alias}`} onClose={props.onClose}>
      <p class="muted">
        Kept lines keep their price and tax rate; an added one is sold at today's price. Promotions apply as they did
        when the order was placed.
      </p>
      {order.lines.map((line) => (
        <Field
          key={line.alias}
          label={`${line.name} (${line.unit_price} ${order.currency} each)`}
          hint="0 removes the line"
          type="number"
          min={0}
          step={1}
          value={quantities[line.alias]}
          onInput={(e) => edited(() => setQuantities({ ...quantities, [line.alias]: e.currentTarget.value }))}
        />
      ))}
      <div class="fields">
        <Field
          label="Add a product"
          hint="Type its name, then choose a variant; or type a variant's alias"
          list={suggestions.listId}
          autocomplete="off"
          value={added.alias}
          onInput={(e) => edited(() => setAdded({ ...added, alias: e.currentTarget.value }))}
        />
        {suggestions.list}
        <Field
          label="Quantity to add"
          type="number"
          min={1}
          step={1}
          value={added.quantity}
          onInput={(e) => edited(() => setAdded({ ...added, quantity: e.currentTarget.value }))}
        />
      </div>
      <Field
        label="Note (kept in the order's history)"
        value={note}
        onInput={(e) => edited(() => setNote(e.currentTarget.value))}
      />
      {preview && (
        <div class="panel" aria-live="polite">
          <p>
            Total {money(preview.total_before)} → <strong>{money(preview.total_after)}</strong> (
            {compareAmounts(preview.difference, '0') > 0 ? '+' : ''}
            {money(preview.difference)}).
          </p>
          <ul>
            {preview.lines.map((line) => (
              <li key={line.alias}>{lineChangeText(line, order.currency)}</li>
            ))}
          </ul>
          <p>{moneySentence(preview, order.currency)}</p>
          {preview.dropped_promotions.length > 0 && (
            <p>No longer applies: {preview.dropped_promotions.map((p) => p.name).join(', ')}.</p>
          )}
        </div>
      )}
      <Outcome done={write.done} problem={write.problem} />
      <div class="row">
        {preview ? (
          <button ref={saveRef} type="button" disabled={write.busy} onClick={() => void save(preview)}>
            Save the edit ({preview.total_after} {order.currency})
          </button>
        ) : (
          <button type="button" disabled={write.busy || changes().length === 0} onClick={() => void showPreview()}>
            Preview the new total
          </button>
        )}
        <button type="button" class="secondary" onClick={props.onClose}>
          Close
        </button>
      </div>
    </ModalDialog>
  );
}
