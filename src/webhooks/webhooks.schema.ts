import { Type } from 'typebox';
import { Page, PageQuery } from '../http/paging.js';
import { StrictObject } from '../http/schemas.js';
import { webhookDeliveryStatuses } from '../db/schema.js';
import { webhookEventTypes } from './webhook-events.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'http:// or https://, without user name or password; see WEBHOOK_ALLOW_PRIVATE for private addresses',
});
const EventType = Type.Enum(webhookEventTypes);
const Events = Type.Array(EventType, {
  minItems: 1,
  uniqueItems: true,
  description: 'The event types delivered to this endpoint',
});
const Description = Type.String({ maxLength: 500 });

export const EndpointInput = StrictObject(
  {
    url: Url,
    events: Events,
    description: Type.Optional(Description),
    is_active: Type.Optional(Type.Boolean({ default: true })),
  },
  {
    examples: [
      {
        url: 'https://erp.example.com/hooks/storefront',
        events: ['order.paid', 'order.cancelled'],
        description: 'ERP: ship paid orders',
      },
    ],
  },
);

export const EndpointPatch = StrictObject(
  {
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    description: Type.Optional(Description),
    is_active: Type.Optional(
      Type.Boolean({ description: 'true switches a disabled endpoint on again and clears disabled_reason' }),
    ),
  },
  { examples: [{ events: ['order.paid', 'order.cancelled', 'payment.refunded'], is_active: true }] },
);

const endpointFields = {
  id: Type.Integer(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  description: Type.String(),
  is_active: Type.Boolean(),
  disabled_reason: Nullable(Type.String({ description: 'Why the service switched the endpoint off' })),
  failing_since: Nullable(Type.String({ description: 'First failed attempt since the last successful one' })),
  created_at: Type.String(),
  updated_at: Type.String(),
};

export const Endpoint = Type.Object(endpointFields);

export const EndpointWithSecret = Type.Object({
  ...endpointFields,
  secret: Type.String({
    description: 'The signing secret (whsec_…), shown in this answer only: keep it now; rotate to get another',
  }),
});

const DeliveryStatus = Type.Enum(webhookDeliveryStatuses);

const deliveryFields = {
  id: Type.Integer(),
  endpoint_id: Type.Integer(),
  event_id: Type.String(),
  event_type: Type.String(),
  message_id: Type.String({ description: 'The webhook-id header, the same on every attempt' }),
  status: DeliveryStatus,
  attempts: Type.Integer(),
  next_attempt_at: Nullable(Type.String({ description: 'Next try; null once succeeded or failed' })),
  last_response_code: Nullable(Type.Integer()),
  last_duration_ms: Nullable(Type.Integer()),
  last_error: Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
};

export const Delivery = Type.Object(deliveryFields);

export const Attempt = Type.Object({
  attempted_at: Type.String(),
  response_code: Nullable(Type.Integer({ description: 'null: no answer (timeout, refused address, network error)' })),
  duration_ms: Type.Integer(),
  error: Nullable(Type.String()),
  response_snippet: Nullable(Type.String({ description: 'The first 256 bytes of the answer, at most' })),
});

export const DeliveryDetail = Type.Object({
  ...deliveryFields,
  payload: Type.Unknown({ description: 'The event envelope as sent: {id, type, created_at, data}' }),
  attempt_log: Type.Array(Attempt),
});

export const DeliveryQuery = Type.Object({ status: Type.Optional(DeliveryStatus), ...PageQuery.properties });

export const DeliveryPage = Page(Delivery);
