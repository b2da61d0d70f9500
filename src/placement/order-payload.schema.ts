import { type Static, Type } from 'typebox';
import { addressFields } from '../addresses/address.schema.js';
import { Count, Id, StrictObject } from '../http/schemas.js';

const Amount = StrictObject({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  price: Type.String({ maxLength: 32, description: 'Decimal string in the order\'s currency, e.g. "15.00"' }),
});

/** An address given inline: every field optional but the country (taxes and shipping need it). */
export const InlineAddress = StrictObject({
  ...(Object.fromEntries(Object.entries(addressFields).map(([k, v]) => [k, Type.Optional(v)])) as {
    [K in keyof typeof addressFields]: ReturnType<typeof Type.Optional<(typeof addressFields)[K]>>;
  }),
  country: addressFields.country,
});

/** Two T-shirts and a mug to California, standard shipping, promo code SAVE10: 67.52 on the demo store (api.md). */
const demoOrder = {
  variants: [{ alias: 'demo-tshirt-s', quantity: 2 }, { alias: 'demo-mug' }],
  shipping_address: {
    first_name: 'Ada',
    last_name: 'Lovelace',
    street_address: '1 Main St',
    city: 'Los Angeles',
    postal_code: '90001',
    state: 'CA',
    country: 'US',
    email: 'ada@example.com',
  },
  shipping_method_id: 1,
  promocode: 'SAVE10',
};

/** The body examples of the OpenAPI document: an estimate, and a placement refused if its total is not 67.52. */
export const orderPayloadExamples = {
  estimate: demoOrder,
  placement: { ...demoOrder, expected_total: '67.52' },
};

/** The order payload of the seed's section 2.2, shared by estimate and every placement. */
export function orderPayloadSchema(limits: { maxLineQuantity: number }, example: object) {
  return StrictObject(
    {
      variants: Type.Array(
        StrictObject({
          alias: Type.String({ minLength: 1, maxLength: 100 }),
          quantity: Count({ minimum: 1, maximum: limits.maxLineQuantity, default: 1 }),
        }),
        { minItems: 1, maxItems: 1000, description: 'Lines by variant alias; lines with the same alias are summed' },
      ),
      shipping_address: Type.Optional(InlineAddress),
      shipping_address_id: Type.Optional(Id),
      billing_address: Type.Optional(InlineAddress),
      billing_address_id: Type.Optional(Id),
      shipping_method_id: Type.Optional(Id),
      custom_shipping_amount: Type.Optional(Amount),
      custom_discount_amount: Type.Optional(Amount),
      promocode: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
      expected_total: Type.Optional(
        Type.String({
          maxLength: 32,
          description:
            'Placement only: the total the customer saw (money string in the order\'s currency, e.g. "93.45"). If the '
            + 'order would cost anything '
            + 'else, nothing is placed and the answer is 409 total_changed with the new figures.',
          examples: ['93.45'],
        }),
      ),
      market: Type.Optional(
        Type.String({
          maxLength: 64,
          description:
            'The market to price in (a code such as "eu"), when no X-Market header is sent. A shipping address in '
            + "another market's country prices the order in that market (market_changed). An unknown code is 422 "
            + 'unknown_market.',
          examples: ['eu'],
        }),
      ),
      currency: Type.Optional(
        Type.String({
          maxLength: 8,
          description:
            "The currency the client shows (ISO 4217). Checked, never chosen: unless it is the market's currency, "
            + 'nothing is priced or placed and the answer is 422 currency_mismatch.',
          examples: ['EUR'],
        }),
      ),
      customer_id: Type.Optional(Id),
      note: Type.Optional(Type.String({ maxLength: 2000 })),
    },
    { examples: [example] },
  );
}

export type OrderPayload = Static<ReturnType<typeof orderPayloadSchema>>;
export type InlineAddressInput = Static<typeof InlineAddress>;
