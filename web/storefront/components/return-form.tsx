import { useEffect, useRef, useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { asProblem, fieldError, type Problem } from '../../shared/problem';
import { Field, SelectField } from '../../shared/ui';
import { useShop } from '../context';
import { orderTokenHeader } from '../order-tokens';
import { returnProblemMessage } from '../shopper-messages';
import type { Return, ReturnableLine, ReturnReason } from '../use-returns';

interface Chosen {
  alias: string;
  name: string;
  quantity: number;
  reason: string;
}

type Typed = Record<string, { quantity: string; reason: string }>;

/** The lines chosen, checked: a whole number up to what each may return, a reason for each, one unit at least. */
function checkChoice(lines: readonly ReturnableLine[], typed: Typed) {
  const errors: Record<string, string> = {};
  const chosen: Chosen[] = [];
  for (const line of lines) {
    const { quantity: text = '0', reason = '' } = typed[line.alias] ?? {};
    const quantity = Number(text.trim() || '0');
    if (!Number.isInteger(quantity) || quantity < 0 || quantity > line.returnable) {
      errors[`${line.alias}.quantity`] = `Enter a whole number from 0 to ${line.returnable}`;
    } else if (quantity > 0 && reason === '') {
      errors[`${line.alias}.reason`] = 'Choose why you return it';
    } else if (quantity > 0) chosen.push({ alias: line.alias, name: line.name, quantity, reason });
  }
  const first = lines[0];
  if (chosen.length === 0 && Object.keys(errors).length === 0 && first) {
    errors[`${first.alias}.quantity`] = 'Choose at least one item to return';
  }
  return { errors, chosen };
}

/**
 * "Return items": per shipped line the units to return (up to what it may still return) and why, an optional note;
 * then a confirmation naming the items. The answer is the return requested, with the refund it is estimated at; the
 * API's refusals show in words, beside the line they name.
 */
export function ReturnForm(props: {
  alias: string;
  lines: readonly ReturnableLine[];
  reasons: readonly ReturnReason[];
  onRequested: (made: Return) => Promise<void>;
}) {
  const { alias, lines, reasons } = props;
  const { api } = useShop();
  const [typed, setTyped] = useState<Typed>({});
  const [note, setNote] = useState('');
  const [step, setStep] = useState<'form' | 'confirm'>('form');
  const [typos, setTypos] = useState<Record<string, string>>({});
  const [sent, setSent] = useState<Chosen[]>([]);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem>();
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (step === 'confirm') confirmRef.current?.focus();
  }, [step]);

  const set = (line: string, field: 'quantity' | 'reason', value: string) =>
    setTyped((before) => ({
      ...before,
      [line]: { quantity: before[line]?.quantity ?? '0', reason: before[line]?.reason ?? '', [field]: value },
    }));

  function review(event: Event) {
    event.preventDefault();
    const checked = checkChoice(lines, typed);
    setTypos(checked.errors);
    setProblem(undefined);
    if (Object.keys(checked.errors).length > 0) return;
    setSent(checked.chosen);
    setStep('confirm');
  }

  async function send() {
    setBusy(true);
    setProblem(undefined);
    try {
      const made = await ok(
        api.POST('/order/storefront/api/orders/{order_alias}/returns/', {
          params: { path: { order_alias: alias }, header: orderTokenHeader(alias) },
          body: {
            lines: sent.map(({ alias: line, quantity, reason }) => ({ alias: line, quantity, reason })),
            ...(note.trim() ? { note: note.trim() } : {}),
          },
        }),
      );
      await props.onRequested(made);
    } catch (err) {
      const refused = asProblem(err);
      setProblem(refused);
      if ((refused.errors ?? []).length > 0) setStep('form');
    } finally {
      setBusy(false);
    }
  }

  /** The error beside a line's field: the form's own, or the API's (it names a line by its place in those sent). */
  const lineError = (line: string, field: 'quantity' | 'reason') => {
    const at = sent.findIndex((l) => l.alias === line);
    const fromApi = at < 0 ? undefined : fieldError(problem, `lines[${at}].${field}`);
    return typos[`${line}.${field}`] ?? (fromApi && problem ? returnProblemMessage(problem) : undefined);
  };
  const reasonLabel = (code: string) => reasons.find((r) => r.code === code)?.label ?? code;
  const units = sent.reduce((sum, l) => sum + l.quantity, 0);

  return (
    <section aria-labelledby="return-items" class="panel">
      <h3 id="return-items">Return items</h3>
      {step === 'form' ? (
        <form onSubmit={review} noValidate>
          <p class="muted">Choose how many of each shipped item you send back, and why.</p>
          {lines.map((line) => (
            <fieldset key={line.alias} class="plain">
              <legend>
                <strong>{line.name}</strong>{' '}
                <span class="muted">
                  ({line.returnable} of {line.quantity} can be returned)
                </span>
              </legend>
              <div class="pair">
                <Field
                  label={`How many ${line.name} to return`}
                  type="number"
                  min={0}
                  max={line.returnable}
                  step={1}
                  inputMode="numeric"
                  value={typed[line.alias]?.quantity ?? '0'}
                  onInput={(e) => set(line.alias, 'quantity', e.currentTarget.value)}
                  error={lineError(line.alias, 'quantity')}
                />
                <SelectField
                  label={`Reason for returning ${line.name}`}
                  value={typed[line.alias]?.reason ?? ''}
                  onChange={(e) => set(line.alias, 'reason', e.currentTarget.value)}
                  error={lineError(line.alias, 'reason')}
                >
                  <option value="">Choose a reason</option>
                  {reasons.map((r) => (
                    <option key={r.code} value={r.code}>
                      {r.label}
                    </option>
                  ))}
                </SelectField>
              </div>
            </fieldset>
          ))}
          <div class="field">
            <label for="return-note">Anything to add (optional)</label>
            <textarea
              id="return-note"
              rows={3}
              maxLength={2000}
              value={note}
              onInput={(e) => setNote(e.currentTarget.value)}
            />
          </div>
          {problem && (problem.errors ?? []).length === 0 && (
            <p role="alert" class="error">
              {returnProblemMessage(problem)}
            </p>
          )}
          <button type="submit">Continue</button>
        </form>
      ) : (
        <>
          <p>
            <strong>
              Return {sent.map((l) => `${l.quantity} × ${l.name} (${reasonLabel(l.reason)})`).join(', ')}?
            </strong>
          </p>
          <p class="muted">
            Once the shop has received the items, you are refunded what you paid for them, their share of any discount
            and tax included. The estimated refund shows as soon as you send the request.
          </p>
          {problem && (
            <p role="alert" class="error">
              {returnProblemMessage(problem)}
            </p>
          )}
          <div class="row">
            <button ref={confirmRef} type="button" disabled={busy} onClick={() => void send()}>
              Yes, return {units} item{units === 1 ? '' : 's'}
            </button>
            <button type="button" class="secondary" disabled={busy} onClick={() => setStep('form')}>
              Change
            </button>
          </div>
        </>
      )}
    </section>
  );
}
