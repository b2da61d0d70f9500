import { Type } from 'typebox';
import { QuoteMarket } from '../markets/market.schema.js';
import { OrderStatusField, PaymentStatusField, soldItemFields } from '../orders/order.schema.js';

const Money = Type.String({ description: "Decimal string with the exact precision of the answer's currency" });
const Nullable = Type.Union([Type.String(), Type.Null()]);

/** The priced order of SPEC 6 "Result": the estimate's answer, and the figures of a placed order. */
export const pricedOrderFields = {
  currency: Type.String({ description: "ISO 4217: the market's currency, that of every amount of the answer" }),
  market: Type.Optional(
    Type.Object(QuoteMarket.properties, {
      description:
        'The market it is priced in and the exchange rate used (decision 0031); absent when that is the default '
        + 'market (the store currency, rate 1) and no other market was asked for',
    }),
  ),
  market_changed: Type.Optional(
    Type.Boolean({
      description:
        "Present (true) when the shipping country's market is not the market the request asked for: the order is "
        + "priced in the shipping country's market",
    }),
  ),
  payment_plugins: Type.Optional(
    Type.Array(Type.String(), {
      description:
        'The estimate outside the default market: the payment plugins its market offers whose gateway can take the '
        + 'total exactly (Stripe takes KWD only in multiples of 0.010). Offer only these; another is refused',
    }),
  ),
  subtotal: Money,
  discount: Money,
  discount_name: Nullable,
  promotions: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      code: Nullable,
      kind: Type.String({ description: "The promotion's action, e.g. order_percentage, buy_x_get_y, free_shipping" }),
      amount: Money,
    }),
    { description: 'The promotions that took something off, in the order they applied (SPEC section 10)' },
  ),
  shipping_fee: Type.String({ description: 'Before any shipping discount' }),
  shipping_discount: Type.String({ description: 'What promotions took off shipping; part of discount' }),
  shipping_name: Nullable,
  estimated_tax: Money,
  total_without_tax: Money,
  total: Money,
  total_items: Type.Integer(),
  lines: Type.Array(
    Type.Object({
      alias: Type.String(),
      product_variant_id: Type.Integer(),
      ...soldItemFields,
      quantity: Type.Integer(),
      unit_price: Money,
      subtotal: Money,
      discount: Money,
      tax_rate: Type.String({ description: 'Percent, e.g. "15.00"' }),
      tax: Money,
      total: Money,
      adjustments: Type.Array(Type.Object({ promotion_id: Type.Integer(), amount: Money }), {
        description: 'What each applied promotion took off this line',
      }),
    }),
  ),
  tax_details: Type.Array(Type.Object({ tax_class: Type.String(), tax_percentage: Type.String(), tax_amount: Money })),
};

export const PricedOrderSchema = Type.Object(pricedOrderFields);

export const PlacedOrderSchema = Type.Object({
  ...pricedOrderFields,
  order_id: Type.Integer(),
  order_alias: Type.String(),
  status: OrderStatusField,
  payment_status: PaymentStatusField,
  order_token: Type.Optional(
    Type.String({ description: 'Guests only: send it as X-Order-Token to read the order or pay for it' }),
  ),
});
