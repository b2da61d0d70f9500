import { Type } from 'typebox';
import { Id, StrictObject } from '../http/schemas.js';

const Name = Type.String({ minLength: 1, maxLength: 200 });
const Description = Type.String({ maxLength: 2000 });
const Country = Type.String({
  maxLength: 2,
  description: 'ISO 3166-1 alpha-2, any case, stored upper-case; empty or absent: any country',
});
const Place = (what: string) =>
  Type.String({ maxLength: 100, description: `Empty or absent: any ${what}; matched case-insensitively` });
const Weight = Type.String({
  maxLength: 32,
  description: 'Kilograms as a decimal string, at most 3 decimals: "0", "2.5"',
});
const Money = Type.String({
  maxLength: 32,
  description: 'Amount in the store currency, with at most its precision, e.g. "4.90"',
});

const MethodTaxClass = Type.Union([Id, Type.Null()], {
  description:
    "Shipping is taxed at this class's rate for the address (its own, else the default rate); "
    + "null or absent, or no rate there: at the highest rate of the order's lines",
});

export const ShippingMethodInput = StrictObject(
  {
    name: Name,
    description: Type.Optional(Description),
    is_active: Type.Optional(Type.Boolean({ default: true })),
    tax_class_id: Type.Optional(MethodTaxClass),
  },
  { examples: [{ name: 'Express', description: 'Next working day', tax_class_id: 1 }] },
);

export const ShippingMethodPatch = StrictObject(
  {
    name: Type.Optional(Name),
    description: Type.Optional(Description),
    is_active: Type.Optional(Type.Boolean()),
    tax_class_id: Type.Optional(MethodTaxClass),
  },
  { examples: [{ description: '3 to 5 working days', is_active: true }] },
);

export const ShippingMethod = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  is_active: Type.Boolean(),
  tax_class_id: Type.Union([Type.Integer(), Type.Null()]),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const StorefrontShippingMethod = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
});

const WeightMax = Type.Union([Weight, Type.Null()], {
  description: 'Inclusive upper end in kg, above weight_min_kg; null or absent: no limit',
});
const PerKg = Type.String({
  maxLength: 32,
  description: 'Charged per kg above weight_min_kg, in the store currency; default "0"',
});

const RatePriceInput = StrictObject({
  currency: Type.String({ maxLength: 8, description: 'ISO 4217, any case; not the store currency' }),
  base_rate: Type.String({ maxLength: 32, description: 'In this currency, at most its precision: "4.50", "800"' }),
  per_kg_rate: Type.Optional(
    Type.String({ maxLength: 32, description: 'Per kg above weight_min_kg, in this currency; default "0"' }),
  ),
});

const RatePrices = Type.Array(RatePriceInput, {
  maxItems: 200,
  description:
    "The rate's amounts in other currencies, replaced whole when sent: a market in one of them charges these; in a "
    + "currency left out, the store-currency amounts converted at the market's rate",
});

export const ShippingRateInput = StrictObject(
  {
    shipping_method_id: Id,
    country: Type.Optional(Country),
    state: Type.Optional(Place('state')),
    city: Type.Optional(Place('city')),
    weight_min_kg: Weight,
    weight_max_kg: Type.Optional(WeightMax),
    base_rate: Money,
    per_kg_rate: Type.Optional(PerKg),
    prices: Type.Optional(RatePrices),
  },
  {
    examples: [
      {
        shipping_method_id: 1,
        country: 'FR',
        weight_min_kg: '0',
        weight_max_kg: '10',
        base_rate: '6.90',
        per_kg_rate: '1.00',
        prices: [{ currency: 'EUR', base_rate: '6.50', per_kg_rate: '0.90' }],
      },
    ],
  },
);

export const ShippingRatePatch = StrictObject(
  {
    shipping_method_id: Type.Optional(Id),
    country: Type.Optional(Country),
    state: Type.Optional(Place('state')),
    city: Type.Optional(Place('city')),
    weight_min_kg: Type.Optional(Weight),
    weight_max_kg: Type.Optional(WeightMax),
    base_rate: Type.Optional(Money),
    per_kg_rate: Type.Optional(PerKg),
    prices: Type.Optional(RatePrices),
  },
  { examples: [{ base_rate: '5.50', per_kg_rate: '0.60' }, { prices: [{ currency: 'JPY', base_rate: '800' }] }] },
);

export const ShippingRateQuery = Type.Object({ shipping_method_id: Type.Optional(Id) });

export const ShippingRate = Type.Object({
  id: Type.Integer(),
  shipping_method_id: Type.Integer(),
  country: Type.String({ description: 'Empty: any country' }),
  state: Type.String({ description: 'Empty: any state' }),
  city: Type.String({ description: 'Empty: any city' }),
  weight_min_kg: Type.String({ description: 'Canonical: no trailing zeros ("0", "2.5")' }),
  weight_max_kg: Type.Union([Type.String(), Type.Null()]),
  base_rate: Type.String(),
  per_kg_rate: Type.String(),
  prices: Type.Array(Type.Object({ currency: Type.String(), base_rate: Type.String(), per_kg_rate: Type.String() }), {
    description: 'Amounts in other currencies, by currency; at the precision of each',
  }),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const StorefrontMethodQuery = Type.Object({
  country: Type.String({
    minLength: 2,
    maxLength: 2,
    description: 'ISO 3166-1 alpha-2 of the delivery address (required)',
  }),
  state: Type.Optional(
    Type.String({ maxLength: 100, description: 'State of the delivery address; absent: any state could match' }),
  ),
});

export const ShippingDestinationsSchema = Type.Object({
  all_countries: Type.Boolean({
    description:
      'An active method has a rate for any country: the store ships everywhere (countries still lists those named)',
  }),
  countries: Type.Array(Type.String({ minLength: 2, maxLength: 2 }), {
    description: 'ISO 3166-1 alpha-2 codes the active methods have rates for, sorted',
  }),
});
