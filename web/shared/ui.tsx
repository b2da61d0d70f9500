// The controls both apps are built from. Each names itself for assistive technology (a <label>, or a button's text),
// and shows the API's error for it beside it.
import type { ComponentChildren, JSX } from 'preact';
import { useId } from 'preact/hooks';
import { type Problem, problemMessage } from './problem';

type InputProps = Omit<JSX.InputHTMLAttributes<HTMLInputElement>, 'id' | 'label'>;
/** A labelled input with its error (from the API's `errors[]`) announced and shown below it. */
export function Field(props: InputProps & { label: string; error?: string | undefined; hint?: string }) {
  const { label, error, hint, ...input } = props;
  const id = useId();
  const describedBy = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
      {hint && (
        <small id={`${id}-hint`} class="hint">
          {hint}
        </small>
      )}
      {error && (
        <small id={`${id}-error`} class="field-error">
          {error}
        </small>
      )}
    </div>
  );
}

type SelectProps = Omit<JSX.SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'label'>;
/** A labelled select with its error below it. */
export function SelectField(
  props: SelectProps & { label: string; error?: string | undefined; children: ComponentChildren },
) {
  const { label, error, children, ...select } = props;
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...select}
      >
        {children}
      </select>
      {error && (
        <small id={`${id}-error`} class="field-error">
          {error}
        </small>
      )}
    </div>
  );
}

/** The problem a form or page ended with, in words; `role="alert"` has screen readers say it at once. */
export function ErrorMessage(props: { problem: Problem | undefined }) {
  if (props.problem === undefined) return null;
  return (
    <p role="alert" class="error">
      {problemMessage(props.problem)}
    </p>
  );
}

/** An amount as the API gives it (a decimal string at the currency's exact precision) with its currency. */
export function Money(props: { amount: string; currency: string }) {
  return (
    <span class="money">
      {props.amount} {props.currency}
    </span>
  );
}

/** "Next page" for the API's cursor pages (`next_cursor`; null on the last page). */
export function Pager<C extends string | number>(props: {
  nextCursor: C | null | undefined;
  onNext: (cursor: C) => void;
}) {
  const { nextCursor, onNext } = props;
  if (nextCursor === null || nextCursor === undefined) return null;
  return (
    <nav aria-label="Pages" class="pager">
      <button type="button" onClick={() => onNext(nextCursor)}>
        Next page
      </button>
    </nav>
  );
}
