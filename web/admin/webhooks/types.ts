import type { Answer, paths, RequestBody } from '../../api/client';

/** A webhook endpoint as listed and read (never with its secret). */
export type Endpoint = Answer<'/webhook/dashboard/api/endpoints/{id}/', 'get'>;
/** The answer to a create or a rotation: the endpoint with its signing secret, shown this once. */
export type EndpointWithSecret = Answer<'/webhook/dashboard/api/endpoints/{id}/rotate-secret/', 'post'>;
export type EndpointInput = RequestBody<'/webhook/dashboard/api/endpoints/', 'post'>;
export type WebhookEventType = EndpointInput['events'][number];
export type Delivery = Answer<'/webhook/dashboard/api/endpoints/{id}/deliveries/', 'get'>['items'][number];
export type DeliveryStatus = NonNullable<
  NonNullable<paths['/webhook/dashboard/api/endpoints/{id}/deliveries/']['get']['parameters']['query']>['status']
>;

/** Every event type an endpoint may subscribe to, in the order the form lists them (the compiler checks it is all). */
export const WEBHOOK_EVENT_TYPES = Object.keys({
  'order.placed': 0,
  'order.paid': 0,
  'order.status_changed': 0,
  'order.cancelled': 0,
  'order.expired': 0,
  'order.paid_after_expiry': 0,
  'order.edited': 0,
  'payment.succeeded': 0,
  'payment.failed': 0,
  'payment.refunded': 0,
  'payment.authorized': 0,
  'payment.captured': 0,
  'payment.voided': 0,
  'fulfillment.created': 0,
  'fulfillment.shipped': 0,
  'fulfillment.delivered': 0,
  'fulfillment.cancelled': 0,
  'return.requested': 0,
  'return.received': 0,
  'return.refunded': 0,
  'return.rejected': 0,
  'return.cancelled': 0,
} satisfies Record<WebhookEventType, 0>) as WebhookEventType[];

export const DELIVERY_STATUSES = Object.keys({ pending: 0, succeeded: 0, failed: 0 } satisfies Record<
  DeliveryStatus,
  0
>) as DeliveryStatus[];
