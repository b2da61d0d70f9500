import { useLocation, useRoute } from 'preact-iso';
import { useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { ErrorMessage } from '../../shared/ui';
import { useDashboard } from '../context';
import { When } from '../format';
import { Outcome } from '../outcome';
import { useLoaded } from '../use-loaded';
import { useWrite } from '../use-write';
import { Deliveries } from '../webhooks/deliveries';
import { EndpointActions } from '../webhooks/endpoint-actions';
import { EndpointForm } from '../webhooks/endpoint-form';
import { SecretNotice } from '../webhooks/secret-notice';
import type { EndpointWithSecret } from '../webhooks/types';

/** One webhook endpoint: its state, its settings (changed here), a new signing secret, and its deliveries. */
export function WebhookDetail() {
  const { api } = useDashboard();
  const { route } = useLocation();
  const id = Number(useRoute().params.id);
  const path = { id };
  const endpoint = useLoaded(
    () => ok(api.GET('/webhook/dashboard/api/endpoints/{id}/', { params: { path } })),
    `${id}`,
  );
  const [rotated, setRotated] = useState<EndpointWithSecret>();
  const [confirmRotate, setConfirmRotate] = useState(false);
  const [said, setSaid] = useState<string>();
  const rotation = useWrite();

  async function rotate() {
    const answer = await rotation.run(() =>
      ok(api.POST('/webhook/dashboard/api/endpoints/{id}/rotate-secret/', { params: { path } })),
    );
    setConfirmRotate(false);
    if (answer !== undefined) setRotated(answer);
  }

  const e = endpoint.data;
  if (e === undefined) {
    return (
      <>
        <h1>Webhook endpoint</h1>
        <ErrorMessage problem={endpoint.problem} />
        {endpoint.problem === undefined && <p>Loading…</p>}
        <p>
          <a href="/admin/webhooks">All endpoints</a>
        </p>
      </>
    );
  }
  return (
    <>
      <p>
        <a href="/admin/webhooks">All endpoints</a>
      </p>
      <h1>
        Webhook endpoint <span class="break">{e.url}</span>
      </h1>
      <dl class="totals">
        <dt>State</dt>
        <dd>{e.is_active ? 'on' : `off${e.disabled_reason ? `: ${e.disabled_reason}` : ''}`}</dd>
        <dt>Failing since</dt>
        <dd>
          <When iso={e.failing_since} />
        </dd>
        <dt>Created</dt>
        <dd>
          <When iso={e.created_at} />
        </dd>
      </dl>
      <EndpointActions
        endpoint={e}
        onChanged={async (message) => {
          setSaid(message);
          await endpoint.reload();
        }}
        onDeleted={() => route(`/admin/webhooks?deleted=${e.id}`)}
      />
      <Outcome done={said} />

      <h2>Signing secret</h2>
      {rotated && <SecretNotice endpoint={rotated} rotated />}
      {!confirmRotate && (
        <button type="button" class="secondary" onClick={() => setConfirmRotate(true)}>
          Rotate secret
        </button>
      )}
      {confirmRotate && (
        <div class="panel">
          <p>Replace the signing secret? The current one stops verifying deliveries at once.</p>
          <div class="row">
            <button type="button" disabled={rotation.busy} onClick={() => void rotate()}>
              Yes, rotate it
            </button>
            <button type="button" class="secondary" onClick={() => setConfirmRotate(false)}>
              Keep it
            </button>
          </div>
        </div>
      )}
      <ErrorMessage problem={rotation.problem} />

      <h2>Settings</h2>
      <EndpointForm
        key={e.id}
        initial={e}
        submit="Save"
        save={(body) => ok(api.PATCH('/webhook/dashboard/api/endpoints/{id}/', { params: { path }, body }))}
        saved={() => 'Saved.'}
        onSaved={endpoint.reload}
      />

      <Deliveries endpointId={e.id} />
    </>
  );
}
