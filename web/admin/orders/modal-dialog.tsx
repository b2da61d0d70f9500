import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';

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
