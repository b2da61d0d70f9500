import { Type } from 'typebox';
import { orderStatuses, paymentStatuses } from '../db/schema.js';
import { Page } from '../http/paging.js';
import { StringEnum } from '../http/schemas.js';
import { LineImage } from '../media/media.schema.js';
import { Fulfillment, FulfillmentStatusField } from './fulfillment.schema.js';

const Money = Type.String();
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Address = Type.Object({
  first_name: Type.String(),
  last_name: Type.String(),
  street_address: Type.String(),
  city: Type.String(),
  postal_code: Type.String(),
  state: Type.String(),
  country: Type.String(),
  email: Type.String(),
  phone_number: Type.String(),
});

export const OrderStatusSchema = Type.Union(orderStatuses.map((s) => Type.Literal(s)));
export const PaymentStatusSchema = Type.Union(paymentStatuses.map((s) => Type.Literal(s)));

/** An order's statuses as answers carry them (the request schemas above are unions, checked by the validator). */
export const OrderStatusField = StringEnum(orderStatuses);
export const PaymentStatusField = StringEnum(paymentStatuses);

/**
 * What a line sells, as it was when the order was placed (or is priced now, in an estimate): the same fields in every
 * answer that has lines (src/orders/order-line.ts).
 */
export const soldItemFields = {
  name: Type.String({
    description:
      'What to call the line: "Product - Variant" ("Organic Cotton T-Shirt - Small"), the product\'s name alone when '
      + "the variant's name is empty or the same, the variant's alone when the product's is unknown",
  }),
  product_name: Nullable(
    Type.String({
      description:
        "The product's name at placement; null only on a line placed before it was kept whose product was deleted",
    }),
  ),
  variant_name: Type.String({ description: "The variant's name at placement" }),
  sku: Nullable(Type.String({ description: "The variant's SKU at placement" })),
  options: Type.Array(Type.Object({ name: Type.String(), value: Type.String() }), {
    description:
      'The option values of the variant at placement ("Size": "Small"), in the options\' order; empty when the product '
      + 'has no options of its own (only the stand-in "Title") or the line was placed before lines kept them',
  }),
  image: LineImage,
  tax_class: Nullable(Type.String({ description: "The name of the product's tax class at placement; null: none" })),
};

const summaryFields = {
  order_id: Type.Integer(),
  order_alias: Type.String(),
  status: OrderStatusField,
  payment_status: PaymentStatusField,
  fulfillment_status: FulfillmentStatusField,
  created_at: Type.String(),
  currency: Type.String(),
  customer_id: Nullable(Type.Integer()),
  email: Nullable(Type.String()),
  total_items: Type.Integer(),
  subtotal: Money,
  discount: Money,
  shipping_fee: Money,
  estimated_tax: Money,
  total: Money,
  ledger: Type.Object(
    {
      authorized: Type.String({ description: 'Money its payments were authorized for (held, or held and taken)' }),
      captured: Type.String({ description: 'Money taken' }),
      refunded: Type.String({ description: 'Money given back' }),
      returned: Type.String({
        description:
          'What refunded returns gave back for goods (and shipping) that came back: no longer charged, never a credit',
      }),
      credited: Type.String({
        description: 'Money given back without changing the order (the goodwill part of refunds): never owed again',
      }),
      capturable: Type.String({
        description: 'Money open authorizations still hold (an admin may capture or void it)',
      }),
      refundable: Type.String({ description: 'captured − refunded' }),
      balance_due: Type.String({
        description:
          'max(0, total − returned − credited) − (captured − refunded), the total counting as 0.00 once cancelled; '
          + 'negative: money owed back to the customer',
      }),
      refund_due: Type.String({ description: 'Money owed back: −balance_due when negative, else 0' }),
      to_pay: Type.String({ description: 'What start-payment asks for: balance_due less what authorizations hold' }),
    },
    { description: "The order's money as a ledger (docs/payments.md)" },
  ),
};

export const OrderSummary = Type.Object(summaryFields);

export const OrderDetail = Type.Object({
  ...summaryFields,
  discount_name: Nullable(Type.String()),
  promocode: Nullable(Type.String()),
  promotions: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      code: Nullable(Type.String()),
      kind: Type.String({ description: "The promotion's action, e.g. order_percentage, buy_x_get_y, free_shipping" }),
      amount: Money,
    }),
    { description: 'The promotions that took something off, in the order they applied (SPEC section 10)' },
  ),
  shipping_discount: Type.String({ description: 'What promotions took off shipping (part of discount)' }),
  shipping_name: Nullable(Type.String()),
  total_without_tax: Money,
  prices_include_tax: Type.Boolean({
    description: 'Its prices include their tax (a VAT market): the tax is part of the total, not added to it',
  }),
  lines: Type.Array(
    Type.Object({
      alias: Type.String(),
      product_variant_id: Nullable(Type.Integer()),
      ...soldItemFields,
      quantity: Type.Integer(),
      unit_price: Money,
      subtotal: Money,
      discount: Money,
      adjustments: Type.Array(Type.Object({ promotion_id: Type.Integer(), amount: Money }), {
        description: 'What each applied promotion took off this line',
      }),
      tax_rate: Type.String(),
      tax: Money,
      total: Money,
    }),
  ),
  tax_details: Type.Array(Type.Object({ tax_class: Type.String(), tax_percentage: Type.String(), tax_amount: Money })),
  shipping_address: Nullable(Address),
  billing_address: Nullable(Address),
  note: Type.String(),
  /** `expired`: cancelled by the service, unpaid past UNPAID_ORDER_TTL_MINUTES; null otherwise. */
  cancel_reason: Nullable(Type.String()),
  updated_at: Type.String(),
  fulfillments: Type.Array(Fulfillment, {
    description: "The order's shipments, oldest first, with their tracking links (cancelled ones included)",
  }),
});

/**
 * An order as admins read it: with the statuses its state machine lets it move to next (src/orders/order-states.ts).
 */
/** The market of an order outside the default market, as admins see it (decision 0031). */
export const OrderMarket = Type.Object(
  {
    id: Type.Integer(),
    code: Type.String(),
    name: Type.String(),
    currency: Type.String({ description: "The market's currency, the order's" }),
    exchange_rate: Type.String({
      description: 'Units of the currency per unit of the store currency, locked when the order was placed',
    }),
    store_currency: Type.String({ description: 'STORE_CURRENCY' }),
    total_in_store_currency: Type.String({
      description: 'The total divided by the rate, rounded once, in the store currency: for reports, never charged',
    }),
  },
  {
    examples: [
      {
        id: 3,
        code: 'jp',
        name: 'Japan',
        currency: 'JPY',
        exchange_rate: '151.37',
        store_currency: 'USD',
        total_in_store_currency: '55.21',
      },
    ],
  },
);

export const AdminOrderDetail = Type.Object({
  ...OrderDetail.properties,
  next_statuses: Type.Array(OrderStatusField, {
    description:
      'The statuses a PATCH may move the order to now (cancelled included where allowed); empty for a final status',
  }),
  market: Type.Union([OrderMarket, Type.Null()], {
    description: "The order's market, its locked rate and its total in the store currency; null in the default market",
  }),
});

export const AliasParams = Type.Object({ order_alias: Type.String({ pattern: '^[0-9a-fA-F-]{36}$' }) });

/**
 * How a guest proves an order is theirs: the `order_token` its placement answered with, or the token of a link to the
 * order (an order email's `?token=`, decision 0030), which works until the link expires.
 */
export const OrderTokenHeader = Type.Optional(
  Type.String({
    description:
      "A guest's order: the order_token its placement answered with, or the token of the order's link in an order "
      + 'email (its token= parameter; 410 order_link_expired once the link has expired)',
  }),
);

export const OrderPage = Page(OrderSummary);
