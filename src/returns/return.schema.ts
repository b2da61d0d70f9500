import { Type } from 'typebox';
import { returnStates } from '../db/schema.js';
import { Count, Id, StrictObject, StringEnum } from '../http/schemas.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const ReturnStateField = StringEnum(returnStates, {
  description:
    'requested → received (the goods are back) → refunded; rejected (from requested or received) or cancelled (from '
    + 'requested)',
});

export const ReturnReason = Type.Object({
  code: Type.String({ description: 'What a return line names as its `reason`' }),
  label: Type.String({ description: 'What the customer reads' }),
  active: Type.Boolean({ description: 'Offered for new returns' }),
  position: Type.Integer({ description: 'Where it comes in the list' }),
});

/** A return of shipped units of an order, as customers and admins read it. */
export const Return = Type.Object({
  id: Type.Integer(),
  order_alias: Type.String(),
  status: ReturnStateField,
  currency: Type.String(),
  note: Type.String({ description: "The customer's (or admin's) words about the return" }),
  requested_by: StringEnum(['customer', 'admin'] as const),
  reject_reason: Nullable(Type.String({ description: 'Why it was rejected, when it was' })),
  lines: Type.Array(
    Type.Object({
      alias: Type.String({ description: "The order line's alias" }),
      name: Type.String(),
      sku: Nullable(Type.String()),
      quantity: Type.Integer(),
      reason: Type.Object({ code: Type.String(), label: Type.String() }),
      restock: Nullable(
        Type.Boolean({ description: 'Once received: whether its units went back into stock; null before' }),
      ),
    }),
  ),
  refund: Nullable(
    Type.Object(
      {
        goods: Type.String({ description: 'Unit price × units returned' }),
        discount: Type.String({ description: "The units' share of their lines' discounts (and the shipping's)" }),
        tax: Type.String({ description: "The units' share of their lines' tax (and the shipping's)" }),
        shipping: Type.String({
          description: 'Shipping given back (after its discount, before its tax on net prices)',
        }),
        amount: Type.String({ description: 'What the customer got back' }),
        shipping_included: Type.Boolean(),
      },
      { description: 'What it gave back, once refunded (docs/pricing.md, "What a returned unit refunds")' },
    ),
  ),
  estimated_refund: Nullable(
    Type.Object(
      {
        amount: Type.String({ description: 'What refunding it now gives back, shipping kept' }),
        amount_with_shipping: Type.String({ description: 'The same with what is left of the shipping' }),
        to_customer: Type.String({
          description:
            'Of `amount`, what goes back to the customer as money on their payments; the rest lowers what is still '
            + 'due (an order not yet paid in full)',
        }),
        to_customer_with_shipping: Type.String({ description: 'The same for `amount_with_shipping`' }),
      },
      { description: 'While requested or received: what refunding it would give back now' },
    ),
  ),
  next_statuses: Type.Array(ReturnStateField, { description: 'The states it may move to now' }),
  created_at: Type.String(),
  received_at: Nullable(Type.String()),
  refunded_at: Nullable(Type.String()),
  rejected_at: Nullable(Type.String()),
  cancelled_at: Nullable(Type.String()),
});

/** An order's returns, what each line may still return, and the reasons offered. */
export const OrderReturns = Type.Object({
  items: Type.Array(Return),
  returnable: Type.Array(
    Type.Object({
      alias: Type.String(),
      name: Type.String(),
      sku: Nullable(Type.String()),
      quantity: Type.Integer({ description: 'Units ordered' }),
      returnable: Type.Integer({ description: 'Units shipped and not in a return yet (rejected and cancelled aside)' }),
    }),
  ),
  reasons: Type.Array(ReturnReason, { description: 'The reasons a new return may give (active ones)' }),
  return_instructions: Nullable(
    Type.String({
      description:
        "How to send a return's items back (where to, what to put in the parcel), as the store gives it "
        + '(RETURN_INSTRUCTIONS); null: the store gives none',
    }),
  ),
});

/** A return in the store's list of returns. */
export const ReturnSummary = Type.Object({
  id: Type.Integer(),
  order_alias: Type.String(),
  email: Nullable(Type.String()),
  status: ReturnStateField,
  currency: Type.String(),
  units: Type.Integer({ description: 'Units it gives back' }),
  refunded: Nullable(Type.String({ description: 'What it gave back, once refunded' })),
  created_at: Type.String(),
});

export const ReturnParams = Type.Object({
  order_alias: Type.String({ pattern: '^[0-9a-fA-F-]{36}$' }),
  return_id: Id,
});

export const RequestReturnBody = StrictObject(
  {
    lines: Type.Array(
      StrictObject({
        alias: Type.String({ minLength: 1, maxLength: 200, description: "The order line's alias" }),
        quantity: Count({ minimum: 1 }),
        reason: Type.String({ minLength: 1, maxLength: 100, description: 'A return reason code (GET …/returns/)' }),
      }),
      { minItems: 1, maxItems: 500 },
    ),
    note: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { examples: [{ lines: [{ alias: 'mug-blue', quantity: 1, reason: 'damaged' }], note: 'The handle came off' }] },
);

export const ReceiveReturnBody = Type.Union(
  [
    StrictObject({
      lines: Type.Optional(
        Type.Array(StrictObject({ alias: Type.String({ minLength: 1, maxLength: 200 }), restock: Type.Boolean() }), {
          minItems: 1,
          maxItems: 500,
          description: 'Per line of the return: whether its units go back into stock; a line not named: yes',
        }),
      ),
    }),
    Type.Null(),
  ],
  { examples: [{ lines: [{ alias: 'mug-blue', restock: false }] }, {}] },
);

export const RefundReturnBody = Type.Union(
  [
    StrictObject({
      refund_shipping: Type.Optional(
        Type.Boolean({ description: 'Give back what is left of the shipping too (default: no)', default: false }),
      ),
    }),
    Type.Null(),
  ],
  { examples: [{ refund_shipping: true }, {}] },
);

export const RejectReturnBody = Type.Union(
  [
    StrictObject({ reason: Type.Optional(Type.String({ maxLength: 500, description: 'Shown to the customer' })) }),
    Type.Null(),
  ],
  { examples: [{ reason: 'Returned after the 30 days the store allows' }] },
);

export const ReturnReasonParams = Type.Object({ code: Type.String({ pattern: '^[a-z0-9_]{1,50}$' }) });

export const CreateReturnReasonBody = StrictObject(
  {
    code: Type.String({ pattern: '^[a-z0-9_]{1,50}$', description: 'Lower-case letters, digits and _' }),
    label: Type.String({ minLength: 1, maxLength: 200 }),
    position: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
  },
  { examples: [{ code: 'arrived_late', label: 'Arrived too late', position: 70 }] },
);

export const UpdateReturnReasonBody = StrictObject(
  {
    label: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    active: Type.Optional(Type.Boolean()),
    position: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
  },
  { description: 'The fields to change; none changes nothing', examples: [{ active: false }] },
);
