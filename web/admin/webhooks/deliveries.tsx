import { useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { ErrorMessage, Pager, SelectField } from '../../shared/ui';
import { useDashboard } from '../context';
import { When } from '../format';
import { Outcome } from '../outcome';
import { usePages } from '../use-loaded';
import { useWrite } from '../use-write';
import { DELIVERY_STATUSES, type Delivery } from './types';

function duration(ms: number | null): string {
  return ms === null ? '—' : `${ms} ms`;
}

/**
 * An endpoint's deliveries, newest first (filtered by status, paginated): each with its state, attempts, last answer
 * and next try, and "Redeliver", which makes it due again now.
 */
export function Deliveries(props: { endpointId: number }) {
  const { api } = useDashboard();
  const [status, setStatus] = useState('');
  const chosen = DELIVERY_STATUSES.find((s) => s === status);
  const deliveries = usePages(
    (cursor) =>
      ok(
        api.GET('/webhook/dashboard/api/endpoints/{id}/deliveries/', {
          params: {
            path: { id: props.endpointId },
            query: { limit: 20, status: chosen, cursor },
          },
        }),
      ),
    `${props.endpointId} ${status}`,
  );
  const write = useWrite();

  async function redeliver(delivery: Delivery) {
    const queued = await write.run(
      () =>
        ok(api.POST('/webhook/dashboard/api/deliveries/{id}/redeliver/', { params: { path: { id: delivery.id } } })),
      (d) => `Delivery ${d.id} (${d.event_type}) is queued to be sent again now.`,
    );
    if (queued !== undefined) await deliveries.reload();
  }

  return (
    <section aria-labelledby="deliveries">
      <h2 id="deliveries">Deliveries</h2>
      <div class="row">
        <SelectField label="Delivery status" value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
          <option value="">Any</option>
          {DELIVERY_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </SelectField>
        <button type="button" class="secondary" onClick={() => void deliveries.reload()}>
          Refresh deliveries
        </button>
      </div>
      <Outcome done={write.done} problem={write.problem} />
      <ErrorMessage problem={deliveries.problem} />
      {deliveries.items === undefined && deliveries.problem === undefined && <p>Loading…</p>}
      {deliveries.items?.length === 0 && <p>No deliveries{status ? ` ${status}` : ''} yet.</p>}
      {deliveries.items !== undefined && deliveries.items.length > 0 && (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Delivery</th>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col" class="num">
                  Attempts
                </th>
                <th scope="col" class="num">
                  Response
                </th>
                <th scope="col" class="num">
                  Duration
                </th>
                <th scope="col">Next attempt</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {deliveries.items.map((d) => (
                <tr key={d.id}>
                  <td>{d.id}</td>
                  <td>{d.event_type}</td>
                  <td>
                    {d.status}
                    {d.last_error && (
                      <>
                        <br />
                        <small class="error break">{d.last_error}</small>
                      </>
                    )}
                  </td>
                  <td class="num">{d.attempts}</td>
                  <td class="num">{d.last_response_code ?? '—'}</td>
                  <td class="num">{duration(d.last_duration_ms)}</td>
                  <td>
                    <When iso={d.next_attempt_at} />
                  </td>
                  <td>
                    <When iso={d.created_at} />
                  </td>
                  <td>
                    <button type="button" class="secondary" disabled={write.busy} onClick={() => void redeliver(d)}>
                      Redeliver<span class="visually-hidden"> delivery {d.id}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager nextCursor={deliveries.next} onNext={deliveries.more} />
    </section>
  );
}
