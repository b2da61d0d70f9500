import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';
import type { Order } from './types';

/** What a dialog that acts on an order is given: the order, what to do once it acted, and how it is dismissed. */
export interface OrderDialogProps {
  order: Order;
  /** Called with what the dialog did, in words, once the write succeeded. */
  onDone: (said: string) => Promise<void>;
  onClose: () => void;
}

/**
 * A modal dialog (the browser's <dialog>: focus moves into it and stays there, Escape closes it, focus goes back to
 * what opened it). Shown while mounted; `onClose` is called when the admin dismisses it (Escape).
 */
export function ModalDialog(props: { title: string; onClose: () => void; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      class="modal"
      aria-labelledby={titleId}
      onCancel={(event) => {
        // Escape: closing is the parent's decision (it unmounts the dialog).
        event.preventDefault();
        props.onClose();
      }}
    >
      <h2 id={titleId}>{props.title}</h2>
      {props.children}
    </dialog>
  );
}

/**
 * A dialog's two buttons: the one that acts (`confirm`; submits the dialog's form unless `onConfirm` is given) and
 * the one that dismisses it (`dismiss`, "Cancel" unless named), both disabled while a write is under way.
 */
export function DialogButtons(props: {
  busy: boolean;
  confirm: ComponentChildren;
  onConfirm?: () => void;
  dismiss?: string;
  onClose: () => void;
}) {
  return (
    <div class="row">
      {props.onConfirm ? (
        <button type="button" disabled={props.busy} onClick={props.onConfirm}>
          {props.confirm}
        </button>
      ) : (
        <button type="submit" disabled={props.busy}>
          {props.confirm}
        </button>
      )}
      <button type="button" class="secondary" disabled={props.busy} onClick={props.onClose}>
        {props.dismiss ?? 'Cancel'}
      </button>
    </div>
  );
}

/**
 * A modal dialog holding one form (the browser's checks off: the dialog says what is wrong itself), its content
 * followed by `DialogButtons`: submitting it calls `onSubmit`.
 */
export function ModalForm(props: {
  title: string;
  onSubmit: (event: Event) => void;
  busy: boolean;
  confirm: ComponentChildren;
  dismiss?: string;
  onClose: () => void;
  children: ComponentChildren;
}) {
  return (
    <ModalDialog title={props.title} onClose={props.onClose}>
      <form onSubmit={props.onSubmit} noValidate>
        {props.children}
        <DialogButtons busy={props.busy} confirm={props.confirm} dismiss={props.dismiss} onClose={props.onClose} />
      </form>
    </ModalDialog>
  );
}
