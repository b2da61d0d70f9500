import { Money } from '../../shared/ui';
import { dateTimeText } from '../../../src/orders/customer-words.js';
import { isZeroAmount } from '../payment-step';
import type { Payment, PaymentPlugin } from '../use-order';

/** A payment attempt's state in the shopper's words. */
const STATUS: Record<string, string> = {
  pending: 'Started, not paid yet',
  expired: 'Expired',
  superseded: 'Replaced by another method',
  failed: 'Declined',
  authorized: 'Authorized',
  voided: 'Released, not taken',
  succeeded: 'Paid',
  partially_refunded: 'Partly refunded',
  refunded: 'Refunded',
};

function statusText(payment: Payment, plugin: PaymentPlugin | undefined): string {
  // Cash on delivery stays pending until the shop records the cash.
  if (payment.status === 'pending' && plugin?.manual_capture) return 'To pay on delivery';
  return STATUS[payment.status] ?? payment.status;
}

/** The order's payment attempts: each one's amount, how it went, its method and date, and what was refunded of it. */
export function OrderPayments(props: { payments?: Payment[]; plugins: PaymentPlugin[] }) {
  const { payments, plugins } = props;
  return (
    <section aria-labelledby="payments">
      <h2 id="payments">Payments and refunds</h2>
      {payments === undefined && <p>Loading…</p>}
      {payments?.length === 0 && <p>No payment yet.</p>}
      {payments && payments.length > 0 && (
        <ul class="payments">
          {payments.map((p) => {
            const plugin = plugins.find((m) => m.id === p.plugin_id);
            return (
              <li key={p.id}>
                <strong>
                  <Money amount={p.amount} currency={p.currency} />
                </strong>{' '}
                · {statusText(p, plugin)}{' '}
                <span class="muted">
                  · {plugin?.name ?? p.plugin_id.replace(/_/g, ' ')} · {dateTimeText(p.created_at)}
                </span>
                {!isZeroAmount(p.amount_refunded) && (
                  <div>
                    Refunded <Money amount={p.amount_refunded} currency={p.currency} />
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
