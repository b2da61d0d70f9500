import type { ComponentChildren, Ref } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Write } from '../use-write';

/**
 * What a section of the order page (its shipments, its returns) has open: a dialog, or the question a move of kind
 * `cancel` asks in a `ConfirmPanel` below the list. `opening` forgets the last outcome; `done` closes and says what
 * the dialog did; both `done` and `closed` reload the order (`onChanged`).
 */
export function useOpenMove<Open extends { kind: string }>(write: Write, onChanged: () => Promise<void>) {
  const [open, setOpen] = useState<Open>();
  const [said, setSaid] = useState<string>();
  const questionRef = useRef<HTMLParagraphElement>(null);
  // The question shows below the list, away from the button pressed: focus goes to it, so it is seen and read.
  useEffect(() => {
    if (open?.kind === 'cancel') questionRef.current?.focus();
  }, [open]);
  return {
    open,
    setOpen,
    said,
    setSaid,
    questionRef,
    opening(next: Open) {
      setSaid(undefined);
      write.reset();
      setOpen(next);
    },
    async done(message: string) {
      setOpen(undefined);
      setSaid(message);
      await onChanged();
    },
    closed() {
      setOpen(undefined);
      void onChanged();
    },
  };
}

/** A question (`children`) asked below a section's list, with the button that does it and "Keep it". */
export function ConfirmPanel(props: {
  questionRef: Ref<HTMLParagraphElement>;
  busy: boolean;
  confirm: ComponentChildren;
  onConfirm: () => void;
  onKeep: () => void;
  children: ComponentChildren;
}) {
  return (
    <div class="panel">
      <p ref={props.questionRef} tabIndex={-1}>
        {props.children}
      </p>
      <div class="row">
        <button type="button" disabled={props.busy} onClick={props.onConfirm}>
          {props.confirm}
        </button>
        <button type="button" class="secondary" onClick={props.onKeep}>
          Keep it
        </button>
      </div>
    </div>
  );
}
