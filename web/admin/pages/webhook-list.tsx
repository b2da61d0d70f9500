import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { ErrorMessage } from '../../shared/ui';
import { useDashboard } from '../context';
import { When } from '../format';
import { Outcome } from '../outcome';
import { useLoaded } from '../use-loaded';
import { EndpointActions } from '../webhooks/endpoint-actions';
import { EndpointForm } from '../webhooks/endpoint-form';
import { SecretNotice } from '../webhooks/secret-notice';
import type { Endpoint, EndpointWithSecret } from '../webhooks/types';

function EndpointState(props: { endpoint: Endpoint }) {
  const { endpoint } = props;
  if (!endpoint.is_active) {
    return <span class="error">off{endpoint.disabled_reason && `: ${endpoint.disabled_reason}`}</span>;
  }
  if (endpoint.failing_since) {
    return (
      <span class="error">
        on, failing since <When iso={endpoint.failing_since} />
      </span>
    );
  }
  return <span>on</span>;
}

/** Webhook endpoints: each with its state and events, switched on and off or deleted here; a form to add one. */
export function WebhookList() {
  const { api } = useDashboard();
  const endpoints = useLoaded(() => ok(api.GET('/webhook/dashboard/api/endpoints/')), 'endpoints');
  const [created, setCreated] = useState<EndpointWithSecret>();
  const deleted = useLocation().query.deleted;
  // Deleted on its own page, which then sent the admin here.
  const [said, setSaid] = useState<string | undefined>(
    deleted && `Endpoint ${deleted} is deleted, with its deliveries.`,
  );

  const changed = async (message: string) => {
    setSaid(message);
    await endpoints.reload();
  };

  return (
    <>
      <h1>Webhooks</h1>
      <p class="muted">
        Each endpoint gets a POST for every event it subscribes to, signed with its secret (Standard Webhooks).
      </p>
      <h2>Endpoints</h2>
      <ErrorMessage problem={endpoints.problem} />
      {endpoints.data === undefined && endpoints.problem === undefined && <p>Loading…</p>}
      {endpoints.data?.length === 0 && <p>No endpoints yet.</p>}
      {endpoints.data !== undefined && endpoints.data.length > 0 && (
        <div class="table-wrap">
          <table class="reflow">
            <thead>
              <tr>
                <th scope="col">Endpoint</th>
                <th scope="col">Events</th>
                <th scope="col">State</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {endpoints.data.map((endpoint) => (
                <tr key={endpoint.id}>
                  <td data-label="Endpoint" class="break">
                    <span>
                      <a href={`/admin/webhooks/${endpoint.id}`}>{endpoint.url}</a>
                      {endpoint.description && (
                        <>
                          <br />
                          <small class="muted">{endpoint.description}</small>
                        </>
                      )}
                    </span>
                  </td>
                  <td data-label="Events">
                    <small>{endpoint.events.join(', ')}</small>
                  </td>
                  <td data-label="State">
                    <EndpointState endpoint={endpoint} />
                  </td>
                  <td data-label="Actions">
                    <EndpointActions endpoint={endpoint} onChanged={changed} onDeleted={changed} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Outcome done={said} />
      <h2>Add an endpoint</h2>
      {created && <SecretNotice endpoint={created} rotated={false} />}
      <EndpointForm
        submit="Create endpoint"
        save={(body) => ok(api.POST('/webhook/dashboard/api/endpoints/', { body }))}
        saved={(endpoint) => `Endpoint ${endpoint.id} created for ${endpoint.url}.`}
        onSaved={async (endpoint) => {
          setCreated(endpoint);
          await endpoints.reload();
        }}
      />
    </>
  );
}
