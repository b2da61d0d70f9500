import { Type } from 'typebox';
import { Count, Id, StrictObject } from '../http/schemas.js';
import { PerCurrency } from './promotions.schema.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T, description: string) =>
  Type.Union([schema, Type.Null()], { description });

const Code = Type.String({
  minLength: 1,
  maxLength: 50,
  pattern: '^[A-Za-z0-9_-]+$',
  description: 'Letters, digits, "_" and "-"; stored upper-case and unique case-insensitively',
});
const CodeType = Type.Union([Type.Literal('percentage'), Type.Literal('fixed'), Type.Literal('free_shipping')]);
const Value = Type.String({
  maxLength: 32,
  description:
    'percentage: percent, above 0 up to 100, at most 4 decimals ("12.5"); '
    + 'fixed: amount in the store currency, above 0 ("5.00"); free_shipping: absent or "0"',
});
const DateTime = (description: string) =>
  Nullable(
    Type.String({ format: 'date-time' }),
    `${description}; ISO 8601 with a time zone, e.g. "2025-01-01T00:00:00Z"`,
  );
const Limit = (description: string) => Nullable(Count({ minimum: 1 }), `${description}; null: unlimited`);
const Ids = (description: string) =>
  Nullable(
    Type.Array(Id, { maxItems: 1000, uniqueItems: true }),
    `${description}, each once; null or empty: no restriction`,
  );

const AmountsShown = (description: string) =>
  Type.Record(Type.String(), Type.String(), {
    description: `${description}: by ISO 4217 code, each at its currency's precision (decision 0037)`,
  });

const fields = {
  code: Code,
  code_type: CodeType,
  value: Value,
  amounts: PerCurrency('value (a fixed code only)'),
  is_active: Type.Boolean(),
  starts_at: DateTime('Valid from'),
  expires_at: DateTime('Valid until (exclusive), after starts_at'),
  min_purchase_amount: Nullable(Type.String({ maxLength: 32 }), 'Order subtotal needed, in the store currency'),
  min_purchase_amounts: PerCurrency('min_purchase_amount'),
  redemption_limit: Limit('Redemptions allowed across all customers'),
  usage_limit_per_customer: Limit('Redemptions allowed per customer'),
  specific_customers: Ids('User ids allowed to use the code'),
  applicable_products: Ids('Product ids the discount applies to'),
  new_customers_only: Type.Boolean(),
};

type Fields = typeof fields;
const optional = <K extends keyof Fields>(keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, Type.Optional(fields[k])])) as {
    [P in K]: ReturnType<typeof Type.Optional<Fields[P]>>;
  };

const optionalOnCreate = [
  'value',
  'amounts',
  'is_active',
  'starts_at',
  'expires_at',
  'min_purchase_amount',
  'min_purchase_amounts',
  'redemption_limit',
  'usage_limit_per_customer',
  'specific_customers',
  'applicable_products',
  'new_customers_only',
] as const;

export const PromoCodeInput = StrictObject(
  {
    code: fields.code,
    code_type: fields.code_type,
    ...optional(optionalOnCreate),
  },
  {
    examples: [
      {
        code: 'WELCOME5',
        code_type: 'fixed',
        value: '5.00',
        amounts: { EUR: '4.00' },
        min_purchase_amount: '30.00',
        min_purchase_amounts: { EUR: '25.00' },
        usage_limit_per_customer: 1,
        new_customers_only: true,
      },
    ],
  },
);
export const PromoCodePatch = StrictObject(optional([...optionalOnCreate, 'code', 'code_type']), {
  examples: [{ value: '7.5', redemption_limit: 100, expires_at: '2030-01-01T00:00:00Z' }],
});

export const PromoCode = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  code_type: CodeType,
  value: Type.String({ description: 'percentage: percent ("12.5"); fixed: money string ("5.00"); free_shipping: "0"' }),
  amounts: AmountsShown('A fixed code’s value in other currencies ({} when none, and for other types)'),
  is_active: Type.Boolean(),
  starts_at: Type.Union([Type.String(), Type.Null()]),
  expires_at: Type.Union([Type.String(), Type.Null()]),
  min_purchase_amount: Type.Union([Type.String(), Type.Null()]),
  min_purchase_amounts: AmountsShown('The minimum in other currencies ({} when none)'),
  redemption_limit: Type.Union([Type.Integer(), Type.Null()]),
  usage_limit_per_customer: Type.Union([Type.Integer(), Type.Null()]),
  specific_customers: Type.Union([Type.Array(Type.Integer()), Type.Null()]),
  applicable_products: Type.Union([Type.Array(Type.Integer()), Type.Null()]),
  new_customers_only: Type.Boolean(),
  times_used: Type.Integer({ description: 'Redemptions so far' }),
  created_at: Type.String(),
  updated_at: Type.String(),
});
