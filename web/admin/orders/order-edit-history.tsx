import type { Answer } from '../../api/client';
import type { Problem } from '../../shared/problem';
import { ErrorMessage, Money } from '../../shared/ui';
import { When } from '../format';
import { editLineText } from './edit-words';

export type EditHistory = Answer<'/order/dashboard/api/orders/{order_alias}/edits/', 'get'>;

/**
 * The order's edits, newest first (shown once there is one): when, by which admin, why (the note given), what each
 * changed and the total before and after.
 */
export function OrderEditHistory(props: { history: EditHistory | undefined; problem: Problem | undefined }) {
  const { history } = props;
  if (props.problem) return <ErrorMessage problem={props.problem} />;
  if (history === undefined || history.items.length === 0) return null;
  const money = (amount: string) => <Money amount={amount} currency={history.currency} />;
  return (
    <section aria-labelledby="order-edits">
      <h2 id="order-edits">Edits</h2>
      <ul class="plain">
        {history.items.map((edit) => (
          <li key={edit.id} class="panel">
            <p>
              <strong>
                Total {money(edit.total_before)} → {money(edit.total_after)}
              </strong>{' '}
              <small class="muted">
                <When iso={edit.created_at} />
                {edit.edited_by !== null && ` · by admin ${edit.edited_by}`}
              </small>
            </p>
            <ul>
              {edit.lines.map((line) => (
                <li key={line.alias}>{editLineText(line, history.currency)}</li>
              ))}
            </ul>
            {edit.note !== '' && <p class="break">Note: {edit.note}</p>}
          </li>
        ))}
      </ul>
    </section>
  );
}
