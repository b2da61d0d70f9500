import { useEffect, useRef, useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { fieldError, problemBeyondFields } from '../../shared/problem';
import { ErrorMessage, Field } from '../../shared/ui';
import { useDashboard } from '../context';
import { useWrite } from '../use-write';
import { fulfillableByAlias } from './fulfillable';
import { ModalDialog } from './modal-dialog';
import { failureKind, newOperationKey } from './operation-key';
import { shippedText, trackingText, unitsText } from './shipment-words';
import { TRACKING_FIELDS, type TrackingDraft, TrackingFields, trackingBody } from './tracking-fields';
import type { Order, Shipment } from './types';

/** The quantities typed, checked: whole numbers from 0 to what each line has left, one at least above 0. */
function checkQuantities(order: Order, typed: Record<string, string>, left: Map<string, number>) {
  const errors: Record<string, string> = {};
  const lines: { alias: string; name: string; quantity: number }[] = [];
  for (const line of order.lines) {
    const most = left.get(line.alias) ?? 0;
    if (most === 0) continue;
    const quantity = Number((typed[line.alias] ?? '').trim());
    if (!Number.isInteger(quantity) || quantity < 0 || quantity > most) {
      errors[line.alias] = `Enter a whole number from 0 to ${most}`;
    } else if (quantity > 0) lines.push({ alias: line.alias, name: line.name, quantity });
  }
  if (lines.length === 0 && Object.keys(errors).length === 0) {
    const first = order.lines.find((l) => (left.get(l.alias) ?? 0) > 0);
    if (first) errors[first.alias] = 'Ship at least one unit';
  }
  return { errors, lines };
}

/**
 * Fulfil units of an order in a new shipment, in a dialog: per line the units to ship now (prefilled with all that is
 * left, 0 leaves a line out), carrier, tracking number and link, and whether it leaves now; then a confirmation that
 * states the units. The Idempotency-Key is made when the dialog opens, so a retry after a lost answer makes one
 * shipment. Shipped now, the answer says what shipping captured (CAPTURE_ON_SHIPMENT).
 */
export function FulfilDialog(props: {
  order: Order;
  shipments: readonly Shipment[];
  onDone: (said: string) => Promise<void>;
  onClose: () => void;
}) {
  const { order } = props;
  const { api } = useDashboard();
  const write = useWrite();
  const key = useRef(newOperationKey());
  const left = fulfillableByAlias(order, props.shipments);
  const [typed, setTyped] = useState<Record<string, string>>(() =>
    Object.fromEntries(order.lines.map((l) => [l.alias, String(left.get(l.alias) ?? 0)])),
  );
  const [tracking, setTracking] = useState<TrackingDraft>({ carrier: '', tracking_number: '', tracking_url: '' });
  const [shipNow, setShipNow] = useState(false);
  const [step, setStep] = useState<'form' | 'confirm'>('form');
  const [typos, setTypos] = useState<Record<string, string>>({});
  /** The lines sent, in order: the API names a line's error by its place in them (`lines[1].quantity`). */
  const [sent, setSent] = useState<{ alias: string; name: string; quantity: number }[]>([]);
  /** Set after a lost answer: the retry must be the very same request. */
  const [unsure, setUnsure] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const path = { order_alias: order.order_alias };

  useEffect(() => {
    if (step === 'confirm') confirmRef.current?.focus();
  }, [step]);

  const problem = write.problem;
  useEffect(() => {
    if (problem === undefined) return;
    if (failureKind(problem) === 'unsure') setUnsure(true);
    else if ((problem.errors ?? []).length > 0) setStep('form');
  }, [problem]);

  function review(event: Event) {
    event.preventDefault();
    const checked = checkQuantities(order, typed, left);
    setTypos(checked.errors);
    if (Object.keys(checked.errors).length > 0) return;
    setSent(checked.lines);
    write.reset();
    key.current = newOperationKey();
    setStep('confirm');
  }

  async function fulfil() {
    const body = { lines: sent.map(({ alias, quantity }) => ({ alias, quantity })), ...trackingBody(tracking) };
    const params = { path, header: { 'idempotency-key': key.current } };
    const made = await write.run(() =>
      ok(api.POST('/order/dashboard/api/orders/{order_alias}/fulfillments/', { params, body })),
    );
    if (made === undefined) return;
    const created = `Shipment ${made.id} created: ${unitsText(made.lines)}, ${trackingText(made)}.`;
    if (!shipNow) return props.onDone(`${created} Mark it shipped when it leaves.`);
    const shipParams = { path: { ...path, fulfillment_id: made.id } };
    const url = '/order/dashboard/api/orders/{order_alias}/fulfillments/{fulfillment_id}/ship/' as const;
    const shipped = await write.run(() => ok(api.POST(url, { params: shipParams, body: {} })));
    await props.onDone(
      shipped ? shippedText(shipped, order) : `${created} It was not marked shipped: mark it shipped from the list.`,
    );
  }

  const lineError = (alias: string) => {
    const at = sent.findIndex((l) => l.alias === alias);
    const api =
      at < 0 ? undefined : (fieldError(problem, `lines[${at}].quantity`) ?? fieldError(problem, `lines[${at}]`));
    return typos[alias] ?? api;
  };
  const named = [...sent.map((_, i) => `lines[${i}]`), ...TRACKING_FIELDS];
  const units = sent.reduce((a, l) => a + l.quantity, 0);
  return (
    <ModalDialog title={`Fulfil order ${order.order_alias}`} onClose={props.onClose}>
      {step === 'form' ? (
        <form onSubmit={review} noValidate>
          <p class="muted">Units to ship now, per line (0 leaves a line for a later shipment).</p>
          {order.lines.map((line) => {
            const most = left.get(line.alias) ?? 0;
            if (most === 0) return null;
            return (
              <Field
                key={line.alias}
                label={`${line.name} (${most} of ${line.quantity} left to fulfil)`}
                type="number"
                min={0}
                max={most}
                step={1}
                value={typed[line.alias]}
                onInput={(e) => setTyped({ ...typed, [line.alias]: e.currentTarget.value })}
                error={lineError(line.alias)}
              />
            );
          })}
          <TrackingFields draft={tracking} onChange={setTracking} problem={problem} />
          <label class="check">
            <input type="checkbox" checked={shipNow} onChange={(e) => setShipNow(e.currentTarget.checked)} /> It leaves
            now: mark it shipped
          </label>
          <ErrorMessage problem={problemBeyondFields(problem, named)} />
          <div class="row">
            <button type="submit">Continue</button>
            <button type="button" class="secondary" onClick={props.onClose}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <>
          <p>
            <strong>
              {shipNow ? 'Ship' : 'Put'} {unitsText(sent)} in a new shipment, {trackingText(trackingBody(tracking))}?
            </strong>
          </p>
          <p class="muted">
            {shipNow
              ? 'It is marked shipped at once: the customer gets the shipped email with its tracking link (when the'
                + ' store sends emails), and a store that captures on shipment captures what these units are worth.'
              : 'It waits as pending until you mark it shipped; until then it can be cancelled.'}
          </p>
          <ErrorMessage problem={problem} />
          <div class="row">
            <button ref={confirmRef} type="button" disabled={write.busy} onClick={() => void fulfil()}>
              {unsure ? 'Try again' : `Yes, ${shipNow ? 'ship' : 'fulfil'} ${units} unit${units === 1 ? '' : 's'}`}
            </button>
            {!unsure && (
              <button type="button" class="secondary" disabled={write.busy} onClick={() => setStep('form')}>
                Change
              </button>
            )}
            <button type="button" class="secondary" disabled={write.busy} onClick={props.onClose}>
              Cancel
            </button>
          </div>
        </>
      )}
    </ModalDialog>
  );
}
