import { useEffect, useRef, useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { compareAmounts } from '../../shared/money';
import { fieldError, type Problem, problemMessage } from '../../shared/problem';
import { Field, Money } from '../../shared/ui';
import { useDashboard } from '../context';
import { useWrite } from '../use-write';
import { looksLikeAmount } from './amounts';
import { ModalDialog } from './modal-dialog';
import { failureKind, newOperationKey, problemField } from './operation-key';
import type { Payment, PaymentAction } from './types';

const TITLE: Record<PaymentAction, (p: Payment) => string> = {
  capture: (p) => `Capture payment ${p.id}`,
  void: (p) => `Release what payment ${p.id} holds`,
  refund: (p) => `Refund payment ${p.id}`,
};

/** The most each action can move, as the payment says now (void always releases all it holds). */
const LIMIT: Record<PaymentAction, (p: Payment) => string> = {
  capture: (p) => p.capturable,
  void: (p) => p.capturable,
  refund: (p) => p.refundable,
};

/** The question the admin answers before money moves: it states the amount and the currency. */
function question(action: PaymentAction, payment: Payment, amount: string): string {
  const money = `${amount} ${payment.currency}`;
  if (action === 'capture') return `Capture ${money} from payment ${payment.id}?`;
  if (action === 'void') return `Release ${money} held by payment ${payment.id}? The customer will not be charged it.`;
  return `Refund ${money} to the customer?`;
}

/** What the admin is told once it is done, from the payment as the API answered. */
function doneSentence(action: PaymentAction, amount: string, answer: Payment): string {
  const c = answer.currency;
  if (action === 'capture') {
    const released = compareAmounts(answer.amount_voided, '0') > 0 ? `; ${answer.amount_voided} ${c} released` : '';
    const total = `${answer.amount_captured} ${c} captured in all${released}`;
    return `Captured ${amount} ${c} of payment ${answer.id}: ${total}.`;
  }
  if (action === 'void') return `Released ${amount} ${c} held by payment ${answer.id}: the customer is not charged it.`;
  return (
    `Refunded ${amount} ${c} of payment ${answer.id}: ${answer.amount_refunded} ${c} refunded in all, `
    + `of ${answer.amount_captured} ${c} received.`
  );
}

/** The problem in words, with the figure a 422 carries and the advice a 502 calls for. */
function ProblemAdvice(props: { problem: Problem; currency: string; action: PaymentAction }) {
  const { problem, currency } = props;
  const kind = failureKind(problem);
  const figure = problemField(problem, 'refundable') ?? problemField(problem, 'capturable');
  const verb = props.action === 'void' ? 'release' : props.action;
  const done = verb === 'capture' ? 'captured' : 'refunded';
  return (
    <div role="alert" class="error">
      <p>{problemMessage(problem)}</p>
      {typeof figure === 'string' && (
        <p>
          At most <Money amount={figure} currency={currency} /> can be {done} now.
        </p>
      )}
      {kind === 'unsure' && (
        <p>
          The {verb} may or may not have been made. Press “Try again”: the same request is sent again with the same key,
          so the money moves once.
        </p>
      )}
      {kind === 'refused' && <p>Nothing moved. You can try again: it is sent as a new request.</p>}
    </div>
  );
}

/**
 * Capture, void or refund one payment, in a dialog: the amount (prefilled, editable for a partial capture or refund),
 * then a confirmation that states it. The Idempotency-Key is made when the dialog opens and sent with every try, so
 * a retry after an unsure failure (no answer, a gateway that did not answer) resumes the same operation and moves the
 * money once; the amount is then fixed. After a refusal (nothing moved) the next try is a new operation, with a new
 * key.
 */
export function PaymentActionDialog(props: {
  action: PaymentAction;
  payment: Payment;
  /** The amount to start from: default all the payment can capture or refund. */
  amount?: string | undefined;
  /** Done: the dialog is closed with what was done, in words. */
  onDone: (said: string) => Promise<void>;
  /** Dismissed (Cancel, Escape) without a change, or after a failure. */
  onClose: () => void;
}) {
  const { action, payment } = props;
  const { api } = useDashboard();
  const write = useWrite();
  const key = useRef(newOperationKey());
  const [amount, setAmount] = useState(props.amount ?? LIMIT[action](payment));
  const [step, setStep] = useState<'amount' | 'confirm'>(action === 'void' ? 'confirm' : 'amount');
  const [typo, setTypo] = useState<string>();
  /** Set after an unsure failure: the retry must be the same request, so the amount can't change any more. */
  const [unsure, setUnsure] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const formRef = useRef<HTMLFormElement>(null);

  // Focus follows the step: the confirmation's button, or the amount again when the API refused it.
  useEffect(() => {
    if (step === 'confirm') confirmRef.current?.focus();
    else formRef.current?.querySelector('input')?.focus();
  }, [step]);

  const call = () => {
    const params = { path: { id: payment.id }, header: { 'idempotency-key': key.current } };
    if (action === 'void') return ok(api.POST('/payment/dashboard/api/payments/{id}/void/', { params }));
    if (action === 'capture')
      return ok(api.POST('/payment/dashboard/api/payments/{id}/capture/', { params, body: { amount } }));
    return ok(api.POST('/payment/dashboard/api/payments/{id}/refund/', { params, body: { amount } }));
  };

  async function confirm() {
    const answer = await write.run(call);
    if (answer !== undefined) await props.onDone(doneSentence(action, amount, answer));
  }

  // What the last try left decides what the next one may be.
  const problem = write.problem;
  useEffect(() => {
    if (problem === undefined) return;
    const kind = failureKind(problem);
    if (kind === 'unsure') setUnsure(true);
    if (kind === 'refused') {
      key.current = newOperationKey();
      setUnsure(false);
    }
    if (kind === 'rejected' && fieldError(problem, 'amount') !== undefined && action !== 'void') setStep('amount');
  }, [problem, action]);

  function review(event: Event) {
    event.preventDefault();
    const given = amount.trim();
    if (!looksLikeAmount(given) || compareAmounts(given, '0') === 0) {
      setTypo(`Enter an amount more than 0 in ${payment.currency}, e.g. 5.00`);
      return;
    }
    setTypo(undefined);
    setAmount(given);
    write.reset();
    setStep('confirm');
  }

  const amountError = typo ?? fieldError(problem, 'amount');
  const limit = LIMIT[action](payment);
  const label = action === 'capture' ? 'Amount to capture' : 'Amount to refund';
  return (
    <ModalDialog title={TITLE[action](payment)} onClose={props.onClose}>
      {step === 'amount' ? (
        <form ref={formRef} onSubmit={review} noValidate>
          <p class="muted">
            {action === 'capture' ? (
              <>
                Held, not captured: <Money amount={limit} currency={payment.currency} />. A partial capture releases the
                rest.
              </>
            ) : (
              <>
                Received <Money amount={payment.amount_captured} currency={payment.currency} />, refunded so far{' '}
                <Money amount={payment.amount_refunded} currency={payment.currency} />; at most{' '}
                <Money amount={limit} currency={payment.currency} /> can be refunded.
              </>
            )}
          </p>
          <Field
            label={label}
            name="amount"
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            onInput={(e) => setAmount(e.currentTarget.value)}
            hint={`In ${payment.currency}, e.g. 5.00.`}
            error={amountError}
          />
          {problem && !typo && <ProblemAdvice problem={problem} currency={payment.currency} action={action} />}
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
            <strong>{question(action, payment, amount)}</strong>
          </p>
          {action === 'capture' && compareAmounts(amount, limit) < 0 && (
            <p class="muted">The rest this payment holds is released: the customer will not be charged it.</p>
          )}
          {problem && <ProblemAdvice problem={problem} currency={payment.currency} action={action} />}
          <div class="row">
            <button ref={confirmRef} type="button" disabled={write.busy} onClick={() => void confirm()}>
              {unsure ? 'Try again' : `Yes, ${action === 'void' ? 'release' : action} ${amount} ${payment.currency}`}
            </button>
            {action !== 'void' && !unsure && (
              <button type="button" class="secondary" disabled={write.busy} onClick={() => setStep('amount')}>
                Change the amount
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
