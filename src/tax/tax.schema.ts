import { Type } from 'typebox';
import { Id, StrictObject } from '../http/schemas.js';

const ClassName = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'Unique, case-insensitively: "Standard", "Reduced"',
});
const Country = Type.String({
  minLength: 2,
  maxLength: 2,
  description: 'ISO 3166-1 alpha-2, any case; stored upper-case',
});
const State = Type.String({
  maxLength: 100,
  description: 'Empty or absent: the whole country. Matched case-insensitively',
});
const Rate = Type.String({
  maxLength: 32,
  description: 'Percent as a decimal string, 0 to 100, at most 4 decimals: "15", "7.25"',
});

export const TaxClassInput = StrictObject({ name: ClassName }, { examples: [{ name: 'Books' }] });
export const TaxClassPatch = StrictObject(
  { name: Type.Optional(ClassName) },
  { examples: [{ name: 'Standard rate' }] },
);

export const TaxClass = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
});

const RateClass = Type.Union([Id, Type.Null()], {
  description: 'The class the rate is for; null: the default rate of the place, for classes without a rate there',
});

export const TaxRateInput = StrictObject(
  {
    tax_class_id: RateClass,
    country: Country,
    state: Type.Optional(State),
    rate: Rate,
    is_active: Type.Optional(Type.Boolean({ default: true })),
  },
  { examples: [{ tax_class_id: 1, country: 'FR', rate: '20' }] },
);

export const TaxRatePatch = StrictObject(
  {
    tax_class_id: Type.Optional(RateClass),
    country: Type.Optional(Country),
    state: Type.Optional(State),
    rate: Type.Optional(Rate),
    is_active: Type.Optional(Type.Boolean()),
  },
  { examples: [{ rate: '7.5', is_active: true }] },
);

export const TaxRateQuery = Type.Object({
  tax_class_id: Type.Optional(Type.Union([Id, Type.Literal('null')], { description: 'A class id, or "null"' })),
  country: Type.Optional(Country),
});

export const TaxRate = Type.Object({
  id: Type.Integer(),
  tax_class_id: Type.Union([Type.Integer(), Type.Null()], { description: 'Null: a default rate' }),
  country: Type.String(),
  state: Type.String({ description: 'Empty: the whole country' }),
  rate: Type.String({ description: 'Percent, canonical: no trailing zeros ("7.25", "15", "0")' }),
  is_active: Type.Boolean(),
  created_at: Type.String(),
  updated_at: Type.String(),
});
