import { useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { ErrorMessage } from '../../shared/ui';
import { useDashboard } from '../context';
import { useWrite } from '../use-write';
import type { Endpoint } from './types';

/**
 * Switches an endpoint on or off, and deletes it (after asking: its deliveries and their log go with it).
 * `onChanged` and `onDeleted` get what was done, in words, once the API has done it.
 */
export function EndpointActions(props: {
  endpoint: Endpoint;
  onChanged: (said: string) => Promise<void>;
  onDeleted: (said: string) => void | Promise<void>;
}) {
  const { endpoint, onChanged, onDeleted } = props;
  const { api } = useDashboard();
  const write = useWrite();
  const [confirming, setConfirming] = useState(false);
  const path = { id: endpoint.id };

  async function switchTo(on: boolean) {
    const changed = await write.run(() =>
      ok(api.PATCH('/webhook/dashboard/api/endpoints/{id}/', { params: { path }, body: { is_active: on } })),
    );
    if (changed) await onChanged(`Endpoint ${changed.id} is ${on ? 'on: it gets new events again' : 'off'}.`);
  }

  async function remove() {
    const removed = await write.run(async () => {
      await ok(api.DELETE('/webhook/dashboard/api/endpoints/{id}/', { params: { path } }));
      return true;
    });
    setConfirming(false);
    if (removed) await onDeleted(`Endpoint ${endpoint.id} (${endpoint.url}) is deleted, with its deliveries.`);
  }

  return (
    <div>
      <div class="row">
        <button
          type="button"
          class="secondary"
          disabled={write.busy}
          onClick={() => void switchTo(!endpoint.is_active)}
        >
          {endpoint.is_active ? 'Disable' : 'Enable'}
          <span class="visually-hidden"> endpoint {endpoint.id}</span>
        </button>
        {!confirming && (
          <button type="button" class="secondary" disabled={write.busy} onClick={() => setConfirming(true)}>
            Delete<span class="visually-hidden"> endpoint {endpoint.id}</span>
          </button>
        )}
      </div>
      {confirming && (
        <div class="panel">
          <p>Delete this endpoint, its deliveries and their log?</p>
          <div class="row">
            <button type="button" disabled={write.busy} onClick={() => void remove()}>
              Yes, delete it
            </button>
            <button type="button" class="secondary" onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </div>
        </div>
      )}
      <ErrorMessage problem={write.problem} />
    </div>
  );
}
