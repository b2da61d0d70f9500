import { Type } from 'typebox';
import { fulfillmentStates, fulfillmentStatuses } from '../db/schema.js';
import { Count, Id, StrictObject, StringEnum } from '../http/schemas.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const FulfillmentStatusField = StringEnum(fulfillmentStatuses, {
  description:
    'How far the order has gone out (decision 0027): unfulfilled, partially_fulfilled / fulfilled (some / every unit '
    + 'in a shipment not yet shipped), partially_shipped / shipped (some / every unit shipped), '
    + 'delivered (every unit), partially_returned / returned (every unit went out, and some / every unit came '
    + 'back: returns received or refunded)',
});
export const FulfillmentStateField = StringEnum(fulfillmentStates);

/** A shipment of some of an order's units, as the order's answers show it (customers and admins alike). */
export const Fulfillment = Type.Object({
  id: Type.Integer(),
  status: FulfillmentStateField,
  carrier: Nullable(Type.String()),
  tracking_number: Nullable(Type.String()),
  tracking_url: Nullable(Type.String({ description: "The carrier's tracking page for this shipment" })),
  lines: Type.Array(
    Type.Object({
      alias: Type.String({ description: "The order line's alias" }),
      name: Type.String(),
      sku: Nullable(Type.String()),
      quantity: Type.Integer(),
    }),
  ),
  created_at: Type.String(),
  shipped_at: Nullable(Type.String()),
  delivered_at: Nullable(Type.String()),
  cancelled_at: Nullable(Type.String()),
});

/** A fulfillment as admins read it: with the states it may move to next and where its order stands now. */
export const AdminFulfillment = Type.Object({
  ...Fulfillment.properties,
  next_statuses: Type.Array(FulfillmentStateField, {
    description: 'The states it may move to now (ship, deliver, cancel); empty once delivered or cancelled',
  }),
  order: Type.Object({
    order_alias: Type.String(),
    status: Type.String(),
    fulfillment_status: FulfillmentStatusField,
  }),
});

export const FulfillmentParams = Type.Object({
  order_alias: Type.String({ pattern: '^[0-9a-fA-F-]{36}$' }),
  fulfillment_id: Id,
});

const trackingFields = {
  carrier: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'e.g. ups, dhl' })),
  tracking_number: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  tracking_url: Type.Optional(
    Type.String({
      maxLength: 2000,
      description:
        "An http(s) link to the shipment's tracking page; default: the carrier's template (CARRIER_TRACKING_URLS) "
        + 'with the tracking number',
    }),
  ),
};

/** A new fulfillment; no body (or `{}`): every unit still fulfillable, no tracking yet. */
export const CreateFulfillmentBody = Type.Union(
  [
    StrictObject({
      lines: Type.Optional(
        Type.Array(
          StrictObject({
            alias: Type.String({ minLength: 1, maxLength: 200, description: "The order line's alias" }),
            quantity: Count({ minimum: 1 }),
          }),
          { minItems: 1, maxItems: 500, description: 'Units per order line; default: every unit still fulfillable' },
        ),
      ),
      ...trackingFields,
    }),
    Type.Null(),
  ],
  {
    examples: [{ lines: [{ alias: 'mug-blue', quantity: 1 }], carrier: 'ups', tracking_number: '1Z999AA10123456784' }],
  },
);

/** Tracking known at shipping replaces what the fulfillment had; no body (or `{}`) keeps it. */
export const ShipFulfillmentBody = Type.Union([StrictObject(trackingFields), Type.Null()], {
  examples: [{ carrier: 'dhl', tracking_number: 'JD014600006281230704' }, {}],
});

/** The answer to shipping a fulfillment: the fulfillment, and what shipping it captured (CAPTURE_ON_SHIPMENT). */
export const ShippedFulfillment = Type.Object({
  ...AdminFulfillment.properties,
  captures: Type.Array(
    Type.Object({
      payment_id: Type.Integer(),
      amount: Type.String({ description: 'What this shipment asked the payment to capture' }),
      status: StringEnum(['succeeded', 'failed'] as const),
      detail: Nullable(Type.String({ description: 'Why it failed: capture it by hand (payments.md)' })),
    }),
    {
      description:
        'With PAYMENT_CAPTURE=manual and CAPTURE_ON_SHIPMENT=true: the captures of the value of the units shipped so '
        + 'far not yet captured (decision 0027); empty otherwise. The shipment stays shipped whatever they answered',
    },
  ),
});
