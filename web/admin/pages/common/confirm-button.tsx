import { useState } from 'preact/hooks';

/**
 * A destructive button that asks once more, in words, before it acts (no browser dialog: keyboard and tests see
 * it).
 */
export function ConfirmButton(props: {
  label: string;
  /** What will happen, e.g. "Its rates are deleted too." */
  warning: string;
  onConfirm: () => void;
  disabled?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" class="secondary" disabled={props.disabled} onClick={() => setAsking(true)}>
        {props.label}
      </button>
    );
  }
  return (
    <span class="row">
      <span>{props.warning}</span>
      <button
        type="button"
        disabled={props.disabled}
        onClick={() => {
          setAsking(false);
          props.onConfirm();
        }}
      >
        Yes, {props.label.toLowerCase()}
      </button>
      <button type="button" class="secondary" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
