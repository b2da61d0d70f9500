import { useEffect, useState } from 'preact/hooks';
import { type Answer, ok } from '../../api/client';
import { asProblem, type Problem } from '../../shared/problem';
import { ErrorMessage, Money } from '../../shared/ui';
import { useShop } from '../context';
import { orderTokenHeader } from '../order-tokens';
import { dateTimeText } from '../order-words';

type Payment = Answer<'/payment/storefront/api/orders/{order_alias}/payments/', 'get'>[number];

const STATUS: Record<string, string> = {
  pending: 'Waiting for the payment',
  expired: 'Expired',
  failed: 'Declined',
  succeeded: 'Paid',
  partially_refunded: 'Partly refunded',
  refunded: 'Refunded',
};

const isZero = (amount: string) => /^[0.]*$/.test(amount);

/** The order's payment attempts: what each took and what was refunded of it. Read again when `version` changes. */
export function OrderPayments(props: { alias: string; version: string }) {
  const { api } = useShop();
  const [payments, setPayments] = useState<Payment[]>();
  const [problem, setProblem] = useState<Problem>();

  useEffect(() => {
    ok(
      api.GET('/payment/storefront/api/orders/{order_alias}/payments/', {
        params: { path: { order_alias: props.alias }, header: orderTokenHeader(props.alias) },
      }),
    )
      .then(setPayments)
      .catch((err: unknown) => setProblem(asProblem(err)));
  }, [api, props.alias, props.version]);

  return (
    <section aria-labelledby="payments">
      <h2 id="payments">Payments and refunds</h2>
      <ErrorMessage problem={problem} />
      {payments === undefined && !problem && <p>Loading…</p>}
      {payments?.length === 0 && <p>No payment yet.</p>}
      {payments && payments.length > 0 && (
        <ul class="payments">
          {payments.map((p) => (
            <li key={p.id}>
              <strong>{STATUS[p.status] ?? p.status}</strong>: <Money amount={p.amount} currency={p.currency} />{' '}
              <span class="muted">
                ({p.plugin_id.replace(/_/g, ' ')}, {dateTimeText(p.created_at)})
              </span>
              {!isZero(p.amount_refunded) && (
                <div>
                  Refunded <Money amount={p.amount_refunded} currency={p.currency} />
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
