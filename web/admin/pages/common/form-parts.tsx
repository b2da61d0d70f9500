// Controls the catalog, tax, shipping and promotions pages add to web/shared/ui.tsx: a checkbox and a text area that
// carry their label and error like `Field`, and the line that says a write succeeded.
import type { JSX } from 'preact';
import { useId } from 'preact/hooks';
import { ErrorMessage } from '../../../shared/ui';
import type { Write } from '../../use-write';

type CheckboxProps = Omit<JSX.InputHTMLAttributes<HTMLInputElement>, 'id' | 'label' | 'type'>;
/** A labelled checkbox (the label after the box, as people expect) with its error below it. */
export function CheckboxField(props: CheckboxProps & { label: string; error?: string | undefined }) {
  const { label, error, ...input } = props;
  const id = useId();
  return (
    <div class="field">
      <span class="check">
        <input
          id={id}
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          {...input}
        />
        <label for={id}>{label}</label>
      </span>
      {error && (
        <small id={`${id}-error`} class="field-error">
          {error}
        </small>
      )}
    </div>
  );
}

type TextAreaProps = Omit<JSX.TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'label'>;
/** A labelled text area with its error below it. */
export function TextAreaField(props: TextAreaProps & { label: string; error?: string | undefined }) {
  const { label, error, ...textarea } = props;
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <textarea
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...textarea}
      />
      {error && (
        <small id={`${id}-error`} class="field-error">
          {error}
        </small>
      )}
    </div>
  );
}

/** What a write did, in words (`role="status"`: screen readers say it without moving focus). */
export function StatusMessage(props: { text: string | undefined }) {
  if (!props.text) return null;
  return (
    <p role="status" class="ok">
      {props.text}
    </p>
  );
}

/**
 * The end of a create-or-edit form: what the write did (its problem or its success), the submit button, and Close
 * when the form edits a row shown in a list.
 */
export function FormFooter(props: {
  write: Pick<Write, 'problem' | 'done' | 'busy'>;
  submit: string;
  /** Besides while the write runs (a form that has nothing to submit yet). */
  disabled?: boolean;
  onClose?: (() => void) | undefined;
}) {
  const { write, onClose } = props;
  return (
    <>
      <ErrorMessage problem={write.problem} />
      <StatusMessage text={write.done} />
      <div class="row">
        <button type="submit" disabled={write.busy || props.disabled}>
          {props.submit}
        </button>
        {onClose && (
          <button type="button" class="secondary" onClick={onClose}>
            Close
          </button>
        )}
      </div>
    </>
  );
}
