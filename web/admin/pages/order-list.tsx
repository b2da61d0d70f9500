import { useLocation } from 'preact-iso';
import { useEffect, useState } from 'preact/hooks';
import { ok, type paths } from '../../api/client';
import { fieldError } from '../../shared/problem';
import { ErrorMessage, Field, Pager, SelectField } from '../../shared/ui';
import { useDashboard } from '../context';
import { words } from '../format';
import { ORDER_STATUSES, PAYMENT_STATUSES } from '../orders/order-statuses';
import { OrderTable } from '../orders/order-table';
import { usePages } from '../use-loaded';

type OrderQuery = paths['/order/dashboard/api/orders/']['get']['parameters']['query'];

/** The filters as the page's URL keeps them (`/admin/orders?status=approved&find=…`), so a list can be linked. */
interface Filters {
  status: string;
  payment_status: string;
  find: string;
  customer: string;
  from: string;
  to: string;
}

const FILTER_KEYS = ['status', 'payment_status', 'find', 'customer', 'from', 'to'] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function filtersOf(query: Record<string, string>): Filters {
  return {
    status: query.status ?? '',
    payment_status: query.payment_status ?? '',
    find: query.find ?? '',
    customer: query.customer ?? '',
    from: query.from ?? '',
    to: query.to ?? '',
  };
}

/**
 * A day (yyyy-mm-dd) at `time` in the admin's time zone, as the API takes it; anything else (a URL edited by hand)
 * is sent as it is, for the API to say what is wrong with it.
 */
function moment(day: string, time: string): string | undefined {
  if (day === '') return undefined;
  const at = new Date(`${day}T${time}`);
  return Number.isNaN(at.getTime()) ? day : at.toISOString();
}

/** The API's query for the filters: the dates are whole days. */
function apiQuery(filters: Filters, cursor: string | undefined): OrderQuery {
  const status = ORDER_STATUSES.find((s) => s === filters.status);
  const paymentStatus = PAYMENT_STATUSES.find((s) => s === filters.payment_status);
  return {
    limit: 20,
    cursor,
    status,
    payment_status: paymentStatus,
    email: filters.find.trim() || undefined,
    // Not a number: sent as NaN, which the API refuses (422 naming customer_id).
    customer_id: filters.customer ? Number(filters.customer) : undefined,
    created_from: moment(filters.from, '00:00:00'),
    created_to: moment(filters.to, '23:59:59.999'),
  };
}

/** All orders, newest first: filtered by status, payment status, customer email and dates; an alias opens its order. */
export function OrderList() {
  const { api } = useDashboard();
  const location = useLocation();
  const applied = filtersOf(location.query);
  const [form, setForm] = useState<Filters>(applied);
  const key = FILTER_KEYS.map((k) => applied[k]).join('\n');
  // Back and forward change the filters in the URL: the form follows.
  useEffect(() => setForm(filtersOf(location.query)), [key]);
  const orders = usePages(
    (cursor) => ok(api.GET('/order/dashboard/api/orders/', { params: { query: apiQuery(applied, cursor) } })),
    key,
  );

  const set = (name: keyof Filters) => (event: { currentTarget: { value: string } }) =>
    setForm((before) => ({ ...before, [name]: event.currentTarget.value }));

  function search(event: Event) {
    event.preventDefault();
    const find = form.find.trim();
    if (UUID.test(find)) {
      location.route(`/admin/orders/${find.toLowerCase()}`);
      return;
    }
    const params = new URLSearchParams();
    for (const k of FILTER_KEYS) if (form[k].trim()) params.set(k, form[k].trim());
    const query = params.toString();
    location.route(query ? `/admin/orders?${query}` : '/admin/orders');
  }

  function clear() {
    setForm(filtersOf({}));
    location.route('/admin/orders');
  }

  const filtered = FILTER_KEYS.some((k) => applied[k] !== '');
  return (
    <>
      <h1>Orders</h1>
      <form onSubmit={search} aria-label="Filter orders" class="filters">
        <Field
          label="Customer email or order alias"
          type="search"
          name="find"
          value={form.find}
          onInput={set('find')}
          hint="An email finds that customer's orders; an alias opens its order."
          error={fieldError(orders.problem, 'querystring.email')}
        />
        <SelectField label="Status" name="status" value={form.status} onChange={set('status')}>
          <option value="">Any</option>
          {ORDER_STATUSES.map((s) => (
            <option key={s} value={s}>
              {words(s)}
            </option>
          ))}
        </SelectField>
        <SelectField label="Payment" name="payment_status" value={form.payment_status} onChange={set('payment_status')}>
          <option value="">Any</option>
          {PAYMENT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {words(s)}
            </option>
          ))}
        </SelectField>
        <Field
          label="Customer id"
          name="customer"
          inputMode="numeric"
          value={form.customer}
          onInput={set('customer')}
          error={fieldError(orders.problem, 'querystring.customer_id')}
        />
        <Field
          label="Placed from"
          type="date"
          name="from"
          value={form.from}
          onInput={set('from')}
          error={fieldError(orders.problem, 'querystring.created_from')}
        />
        <Field
          label="Placed until"
          type="date"
          name="to"
          value={form.to}
          onInput={set('to')}
          error={fieldError(orders.problem, 'querystring.created_to')}
        />
        <div class="row">
          <button type="submit">Search</button>
          {filtered && (
            <button type="button" class="secondary" onClick={clear}>
              Clear filters
            </button>
          )}
        </div>
      </form>
      <ErrorMessage problem={orders.problem} />
      {orders.items === undefined && orders.problem === undefined && <p>Loading…</p>}
      {orders.items?.length === 0 && <p>{filtered ? 'No order matches these filters.' : 'No orders yet.'}</p>}
      {orders.items !== undefined && orders.items.length > 0 && (
        <OrderTable orders={orders.items} caption={filtered ? 'Orders matching the filters' : 'Orders, newest first'} />
      )}
      <Pager nextCursor={orders.next} onNext={orders.more} />
    </>
  );
}
