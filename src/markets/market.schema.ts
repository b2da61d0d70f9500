import { Type } from 'typebox';
import { Id, StrictObject, StringEnum } from '../http/schemas.js';
import { roundingDirections } from '../db/schema.js';

const Code = Type.String({
  pattern: '^[A-Za-z0-9_-]{1,32}$',
  description: 'Letters, digits, "_" and "-", 1 to 32; stored lower-case: "eu", "us"',
});
const Name = Type.String({ minLength: 1, maxLength: 200 });
const Currency = Type.String({ maxLength: 8, description: 'ISO 4217 code, any case: "EUR", "JPY", "KWD"' });
const Countries = Type.Array(
  Type.String({ maxLength: 2, description: 'ISO 3166-1 alpha-2, any case, stored upper-case' }),
  {
    maxItems: 300,
    description: 'The countries the market serves; a country belongs to at most one market (else 409 naming it)',
  },
);
const PaymentPlugins = Type.Array(Type.String({ maxLength: 100 }), {
  maxItems: 50,
  description: 'Ids of enabled payment plugins the market offers; empty: every enabled plugin',
});
const ShippingMethodIds = Type.Array(Id, {
  maxItems: 200,
  description: 'Shipping methods the market offers; empty: every active method',
});
const PricesIncludeTax = Type.Boolean({ description: "Prices entered gross (VAT style) in this market's currency" });
const ExchangeRate = Type.String({
  maxLength: 40,
  description:
    "Major units of the market's currency one major unit of the store currency buys, exact, at most 10 decimals: "
    + '"151.37" (USD → JPY); "1" for a market in the store currency',
});
const RoundingStep = Type.Union([Type.String({ maxLength: 40 }), Type.Null()], {
  description:
    "Converted prices are rounded to a multiple of this (in the market's currency, at most its precision) plus "
    + 'price_ending: "1" a whole unit, "100" hundreds of yen; null: no rounding beyond the currency\'s precision',
});
const PriceEnding = Type.String({
  maxLength: 40,
  description: 'What converted prices end in, below rounding_step: "0.99", "0.95", "0" (default)',
});
const RoundingDirection = Type.Union(
  roundingDirections.map((d) => Type.Literal(d)),
  { description: 'nearest (ties upwards, the default), up or down' },
);

export const MarketInput = StrictObject(
  {
    code: Code,
    name: Name,
    currency: Currency,
    prices_include_tax: Type.Optional(Type.Boolean({ ...PricesIncludeTax, default: false })),
    exchange_rate: ExchangeRate,
    rounding_step: Type.Optional(RoundingStep),
    price_ending: Type.Optional(PriceEnding),
    rounding_direction: Type.Optional(RoundingDirection),
    countries: Type.Optional(Countries),
    payment_plugins: Type.Optional(PaymentPlugins),
    shipping_method_ids: Type.Optional(ShippingMethodIds),
  },
  {
    examples: [
      {
        code: 'jp',
        name: 'Japan',
        currency: 'JPY',
        prices_include_tax: true,
        exchange_rate: '151.37',
        rounding_step: '100',
        countries: ['JP'],
      },
    ],
  },
);

export const MarketPatch = StrictObject(
  {
    code: Type.Optional(Code),
    name: Type.Optional(Name),
    currency: Type.Optional(Currency),
    prices_include_tax: Type.Optional(PricesIncludeTax),
    exchange_rate: Type.Optional(ExchangeRate),
    rounding_step: Type.Optional(RoundingStep),
    price_ending: Type.Optional(PriceEnding),
    rounding_direction: Type.Optional(RoundingDirection),
    countries: Type.Optional(Countries),
    payment_plugins: Type.Optional(PaymentPlugins),
    shipping_method_ids: Type.Optional(ShippingMethodIds),
  },
  { examples: [{ name: 'Europe', countries: ['DE', 'FR', 'IT'] }] },
);

export const Market = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  name: Type.String(),
  currency: Type.String({ description: 'The default market: STORE_CURRENCY' }),
  prices_include_tax: Type.Boolean({ description: 'The default market: PRICES_INCLUDE_TAX' }),
  exchange_rate: Type.String({ description: 'Canonical decimal ("151.37"); "1" for the default market' }),
  rounding_step: Type.Union([Type.String(), Type.Null()]),
  price_ending: Type.String(),
  rounding_direction: StringEnum(roundingDirections),
  is_default: Type.Boolean({ description: 'The default market also serves every country no other market lists' }),
  countries: Type.Array(Type.String()),
  payment_plugins: Type.Array(Type.String(), { description: 'Empty: every enabled plugin' }),
  shipping_method_ids: Type.Array(Type.Integer(), { description: 'Empty: every active method' }),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const StorefrontMarket = Type.Object({
  code: Type.String(),
  name: Type.String(),
  currency: Type.String(),
  prices_include_tax: Type.Boolean(),
  is_default: Type.Boolean({ description: 'Serves every country no other market lists, and any request naming none' }),
  countries: Type.Array(Type.String()),
});

/** The X-Market request header of the storefront's catalog, cart, estimate and placement (decision 0031). */
export const MarketHeaderSchema = Type.String({
  description:
    'A market code ("eu"): prices in its currency. An unknown code is 422 unknown_market naming headers.x-market; '
    + "absent: the payload's market, else the market the cart keeps, else the shipping country's, else the default "
    + 'market. A cart write naming a market makes the cart keep it.',
});

/** The market an estimate or an order was priced in, as its answer names it. */
export const QuoteMarket = Type.Object({
  code: Type.String(),
  currency: Type.String(),
  prices_include_tax: Type.Boolean(),
  exchange_rate: Type.String({
    description: 'Major units of the currency per major unit of the store currency, exact ("151.37"); "1" by default',
  }),
});
