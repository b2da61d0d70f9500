import { ok } from '../../api/client';
import type { Problem } from '../../shared/problem';
import { ErrorMessage, Money } from '../../shared/ui';
import { useDashboard } from '../context';
import { DateList, words } from '../format';
import { Outcome } from '../outcome';
import { RecordTable } from '../pages/common/record-table';
import { useWrite } from '../use-write';
import { OpenReturnDialog } from './open-return-dialog';
import { ConfirmPanel, useOpenMove } from './order-section-moves';
import { ReceiveReturnDialog } from './receive-return-dialog';
import { RefundReturnDialog } from './refund-return-dialog';
import { RejectReturnDialog } from './reject-return-dialog';
import { unitsText } from './shipment-words';
import type { Order, OrderReturns as Returns, Return } from './types';

type Open = { kind: 'open' } | { kind: 'receive' | 'refund' | 'reject' | 'cancel'; ret: Return };

/** A line's restock answer once received: back in stock or not; nothing before. */
function restockWords(restock: boolean | null): string {
  if (restock === null) return '';
  return restock ? ', back in stock' : ', not restocked';
}

/** What a return gave back (its refund's figures), or what refunding it now would (while open). */
function Figures(props: { ret: Return }) {
  const { ret } = props;
  const money = (amount: string) => <Money amount={amount} currency={ret.currency} />;
  if (ret.refund) {
    const r = ret.refund;
    return (
      <div>
        Refunded <strong>{money(r.amount)}</strong>
        <div>
          <small class="muted">
            goods {r.goods}, discount −{r.discount}, tax {r.tax}, shipping {r.shipping}
            {r.shipping_included ? '' : ' (kept)'}
          </small>
        </div>
      </div>
    );
  }
  if (ret.estimated_refund) {
    const { amount, amount_with_shipping: withShipping } = ret.estimated_refund;
    return (
      <div>
        Estimated {money(amount)}
        {withShipping !== amount && (
          <div>
            <small class="muted">with shipping {money(withShipping)}</small>
          </div>
        )}
      </div>
    );
  }
  return <span class="muted">—</span>;
}

/**
 * The order's returns: each with its status, units and reasons, restock answers once received, and its money (the
 * refund's figures, or the estimate while open), with the moves its `next_statuses` allow: receive (restock per line),
 * refund (the money stated, shipping if asked), reject (a reason), cancel (after a confirmation). "Open a return"
 * asks for one on the customer's behalf, for units shipped and not in a return yet.
 */
export function OrderReturns(props: {
  order: Order;
  returns: Returns | undefined;
  problem: Problem | undefined;
  onChanged: () => Promise<void>;
}) {
  const { order, returns, onChanged } = props;
  const { api } = useDashboard();
  const write = useWrite();
  const { open, setOpen, said, setSaid, questionRef, opening, done, closed } = useOpenMove<Open>(write, onChanged);
  const returnable = (returns?.returnable ?? []).filter((l) => l.returnable > 0);
  const items = returns?.items ?? [];

  async function cancel(ret: Return) {
    setSaid(undefined);
    const params = { path: { order_alias: order.order_alias, return_id: ret.id } };
    const url = '/order/dashboard/api/orders/{order_alias}/returns/{return_id}/cancel/' as const;
    const cancelled = await write.run(
      () => ok(api.POST(url, { params })),
      (a) => `Return ${a.id} cancelled: its units can be returned again.`,
    );
    setOpen(undefined);
    if (cancelled) await onChanged();
  }

  // Nothing shipped, nothing returned: nothing to show.
  if (returns !== undefined && items.length === 0 && returnable.length === 0 && said === undefined) return null;
  return (
    <section aria-labelledby="order-returns">
      <h2 id="order-returns">Returns</h2>
      {returnable.length > 0 && (
        <p>
          Returnable: {unitsText(returnable.map((l) => ({ name: l.name, quantity: l.returnable })))}.{' '}
          <button type="button" class="secondary" onClick={() => opening({ kind: 'open' })}>
            Open a return
          </button>
        </p>
      )}
      <ErrorMessage problem={props.problem} />
      {returns === undefined && props.problem === undefined && <p>Loading…</p>}
      {returns !== undefined && items.length === 0 && <p>No return yet.</p>}
      {items.length > 0 && (
        <RecordTable
          caption="Returns of this order"
          columns={['Return', 'Status', 'Items', 'Money', 'Dates', 'Actions']}
          reflow
        >
          {items.map((r) => (
            <tr key={r.id}>
              <td data-label="Return">
                {r.id}
                <div>
                  <small class="muted">by {r.requested_by}</small>
                </div>
              </td>
              <td data-label="Status">
                {words(r.status)}
                {r.reject_reason && <div class="break">({r.reject_reason})</div>}
              </td>
              <td data-label="Items">
                <ul class="plain">
                  {r.lines.map((l) => (
                    <li key={l.alias}>
                      {l.quantity} × {l.name}{' '}
                      <small class="muted">
                        ({l.reason.label}
                        {restockWords(l.restock)})
                      </small>
                    </li>
                  ))}
                </ul>
                {r.note && <div class="break muted">“{r.note}”</div>}
              </td>
              <td data-label="Money">
                <Figures ret={r} />
              </td>
              <td data-label="Dates">
                <DateList
                  dates={[
                    ['requested', r.created_at],
                    ['received', r.received_at],
                    ['refunded', r.refunded_at],
                    ['rejected', r.rejected_at],
                    ['cancelled', r.cancelled_at],
                  ]}
                />
              </td>
              <td data-label="Actions">
                <div class="row">
                  {r.next_statuses.includes('received') && (
                    <button type="button" onClick={() => opening({ kind: 'receive', ret: r })}>
                      Receive<span class="visually-hidden"> return {r.id}</span>
                    </button>
                  )}
                  {r.next_statuses.includes('refunded') && (
                    <button type="button" onClick={() => opening({ kind: 'refund', ret: r })}>
                      Refund<span class="visually-hidden"> return {r.id}</span>
                    </button>
                  )}
                  {r.next_statuses.includes('rejected') && (
                    <button type="button" class="secondary" onClick={() => opening({ kind: 'reject', ret: r })}>
                      Reject<span class="visually-hidden"> return {r.id}</span>
                    </button>
                  )}
                  {r.next_statuses.includes('cancelled') && (
                    <button type="button" class="secondary" onClick={() => opening({ kind: 'cancel', ret: r })}>
                      Cancel<span class="visually-hidden"> return {r.id}</span>
                    </button>
                  )}
                </div>
              </td>
            </tr>
          ))}
        </RecordTable>
      )}
      {open?.kind === 'cancel' && (
        <ConfirmPanel
          questionRef={questionRef}
          busy={write.busy}
          confirm={`Yes, cancel return ${open.ret.id}`}
          onConfirm={() => void cancel(open.ret)}
          onKeep={() => setOpen(undefined)}
        >
          Cancel return {open.ret.id}? Its units ({unitsText(open.ret.lines)}) can be returned again. Nothing came back:
          no money or stock moves.
        </ConfirmPanel>
      )}
      {open?.kind === 'open' && returns && (
        <OpenReturnDialog order={order} returns={returns} onDone={done} onClose={closed} />
      )}
      {open?.kind === 'receive' && (
        <ReceiveReturnDialog key={open.ret.id} order={order} ret={open.ret} onDone={done} onClose={closed} />
      )}
      {open?.kind === 'refund' && (
        <RefundReturnDialog key={open.ret.id} order={order} ret={open.ret} onDone={done} onClose={closed} />
      )}
      {open?.kind === 'reject' && (
        <RejectReturnDialog key={open.ret.id} order={order} ret={open.ret} onDone={done} onClose={closed} />
      )}
      <Outcome done={said ?? write.done} problem={write.problem} />
    </section>
  );
}
