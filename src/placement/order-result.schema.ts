import { Type } from 'typebox';
import { OrderStatusField, PaymentStatusField, soldItemFields } from '../orders/order.schema.js';

const Money = Type.String({ description: "Decimal string with the store currency's exact precision" });
const Nullable = Type.Union([Type.String(), Type.Null()]);

/** The priced order of SPEC 6 "Result": the estimate's answer, and the figures of a placed order. */
export const pricedOrderFields = {
  currency: Type.String(),
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
