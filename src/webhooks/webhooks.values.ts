import type { Static } from 'typebox';
import { endpointUrl, type OutboundPolicy } from './outbound-address.js';
import type { EndpointValues } from './webhook-endpoints.repository.js';
import type { EndpointInput, EndpointPatch } from './webhooks.schema.js';

// What the admin sends, checked beyond its schema (the URL against the outbound policy) and turned into the stored
// form.

/** Wire fields of an endpoint → column values, the URL checked; absent fields stay absent (PATCH). */
export function endpointValues(body: Static<typeof EndpointPatch>, policy: OutboundPolicy): Partial<EndpointValues> {
  const values: Partial<EndpointValues> = {
    url: body.url === undefined ? undefined : endpointUrl(body.url.trim(), policy),
    events: body.events,
    description: body.description?.trim(),
    isActive: body.is_active,
  };
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}

export function newEndpointValues(body: Static<typeof EndpointInput>, policy: OutboundPolicy): EndpointValues {
  return {
    url: endpointUrl(body.url.trim(), policy),
    events: body.events,
    description: body.description?.trim() ?? '',
    isActive: body.is_active ?? true,
  };
}
