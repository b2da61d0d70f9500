import { useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { fieldError } from '../../shared/problem';
import { ErrorMessage, Field, Money } from '../../shared/ui';
import { useDashboard } from '../context';
import { useWrite } from '../use-write';
import type { Payment } from './types';

/**
 * Refunds a payment in part (an amount) or in full (no amount: all it kept that was not refunded yet). The API checks
 * the amount (format, more than 0, at most what is left) and its 422 is shown beside the field.
 */
export function RefundForm(props: { payment: Payment; onRefunded: (said: string) => Promise<void> }) {
  const { payment, onRefunded } = props;
  const { api } = useDashboard();
  const write = useWrite();
  const [amount, setAmount] = useState('');

  async function refund(event: Event) {
    event.preventDefault();
    const given = amount.trim();
    const refunded = await write.run(
      () =>
        ok(
          api.POST('/payment/dashboard/api/payments/{id}/refund/', {
            params: { path: { id: payment.id } },
            body: given === '' ? {} : { amount: given },
          }),
        ),
      () => '',
    );
    if (refunded === undefined) return;
    setAmount('');
    const what = given === '' ? 'everything left' : `${given} ${refunded.currency}`;
    await onRefunded(
      `Refunded ${what} of payment ${refunded.id}: ${refunded.amount_refunded} ${refunded.currency} refunded in all, `
        + `of ${refunded.amount_captured} ${refunded.currency} received.`,
    );
  }

  const amountError = fieldError(write.problem, 'amount');
  return (
    <form class="panel" onSubmit={refund} aria-label={`Refund payment ${payment.id}`}>
      <h3>Refund payment {payment.id}</h3>
      <p class="muted">
        Received <Money amount={payment.amount_captured} currency={payment.currency} />, refunded so far{' '}
        <Money amount={payment.amount_refunded} currency={payment.currency} />.
      </p>
      <Field
        label="Amount to refund"
        name="amount"
        inputMode="decimal"
        autoComplete="off"
        value={amount}
        onInput={(e) => setAmount(e.currentTarget.value)}
        hint={`In ${payment.currency}, e.g. 5.00. Leave it empty to refund everything not refunded yet.`}
        error={amountError}
      />
      <button type="submit" disabled={write.busy}>
        Refund
      </button>
      <ErrorMessage problem={amountError ? undefined : write.problem} />
    </form>
  );
}
