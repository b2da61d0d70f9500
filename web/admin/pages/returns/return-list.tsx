import { useLocation } from 'preact-iso';
import { type Answer, ok } from '../../../api/client';
import { ErrorMessage, Money, Pager, SelectField } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { shortAlias, When, words } from '../../format';
import { usePages } from '../../use-loaded';
import { RecordTable } from '../common/record-table';

type ReturnSummary = Answer<'/order/dashboard/api/returns/', 'get'>['items'][number];
type ReturnStatus = ReturnSummary['status'];

/** Every return status, in the order a return goes through them (the compiler checks none is missing). */
const RETURN_STATUSES = Object.keys({
  requested: 0,
  received: 0,
  refunded: 0,
  rejected: 0,
  cancelled: 0,
} satisfies Record<ReturnStatus, 0>) as ReturnStatus[];

/**
 * The store's returns, newest first, filtered by status (kept in the URL, `/admin/returns?status=requested`, so the
 * ones waiting can be linked); each links to its order, where it is received, refunded or rejected.
 */
export function ReturnList() {
  const { api } = useDashboard();
  const location = useLocation();
  const status = RETURN_STATUSES.find((s) => s === location.query.status);
  const returns = usePages(
    (cursor) => ok(api.GET('/order/dashboard/api/returns/', { params: { query: { limit: 20, cursor, status } } })),
    status ?? '',
  );
  const filter = (event: { currentTarget: { value: string } }) => {
    const chosen = event.currentTarget.value;
    location.route(chosen ? `/admin/returns?status=${chosen}` : '/admin/returns');
  };

  return (
    <>
      <h1>Returns</h1>
      <p>
        <a href="/admin/returns/reasons">Return reasons</a>: what customers may choose from.
      </p>
      <form class="filters" aria-label="Filter returns" onSubmit={(e) => e.preventDefault()}>
        <SelectField label="Status" name="status" value={status ?? ''} onChange={filter}>
          <option value="">Any</option>
          {RETURN_STATUSES.map((s) => (
            <option key={s} value={s}>
              {words(s)}
            </option>
          ))}
        </SelectField>
      </form>
      <ErrorMessage problem={returns.problem} />
      {returns.items === undefined && returns.problem === undefined && <p>Loading…</p>}
      {returns.items?.length === 0 && <p>{status ? `No return is ${words(status)}.` : 'No returns yet.'}</p>}
      {returns.items !== undefined && returns.items.length > 0 && (
        <RecordTable
          caption="Returns, newest first"
          columns={['Return', 'Order', 'Requested', 'Customer', 'Status', 'Units', 'Refunded']}
          numeric={['Units', 'Refunded']}
          reflow
        >
          {returns.items.map((r) => (
            <tr key={r.id}>
              <td data-label="Return">{r.id}</td>
              <td data-label="Order">
                <a href={`/admin/orders/${r.order_alias}`} title={r.order_alias}>
                  {shortAlias(r.order_alias)}
                </a>
              </td>
              <td data-label="Requested">
                <When iso={r.created_at} />
              </td>
              <td data-label="Customer" class="break">
                {r.email ?? <span class="muted">none</span>}
              </td>
              <td data-label="Status">{words(r.status)}</td>
              <td data-label="Units" class="num">
                {r.units}
              </td>
              <td data-label="Refunded" class="num">
                {r.refunded === null ? (
                  <span class="muted">—</span>
                ) : (
                  <Money amount={r.refunded} currency={r.currency} />
                )}
              </td>
            </tr>
          ))}
        </RecordTable>
      )}
      <Pager nextCursor={returns.next} onNext={returns.more} />
    </>
  );
}
