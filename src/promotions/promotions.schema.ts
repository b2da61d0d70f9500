import { type TProperties, type TSchema, Type } from 'typebox';
import { PageQuery } from '../http/paging.js';
import { Count, Id, INT4_MAX, StrictObject, TaggedUnion } from '../http/schemas.js';
import { type KindField, type KindFields, perCurrencyName, unknownSort } from '../pricing/promotions/kind-fields.js';
import type { WirePromotionAction, WirePromotionCondition } from '../pricing/promotions/promotion.types.js';
import { actionModules, conditionModules } from '../pricing/promotions/registry.js';

// The admin API's promotions (SPEC section 10). Each condition kind's and action kind's schema is built from its
// module's fields (src/pricing/promotions/kind-fields.ts), one branch per module of the registry, in its order.

export const Nullable = <T extends TSchema>(schema: T, description: string) =>
  Type.Union([schema, Type.Null()], { description });

export const Code = Type.String({
  minLength: 1,
  maxLength: 50,
  pattern: '^[A-Za-z0-9_-]+$',
  description: 'Letters, digits, "_" and "-"; stored upper-case and unique case-insensitively',
  examples: ['SUMMER25'],
});

export const DateTime = (description: string) =>
  Nullable(
    Type.String({ format: 'date-time' }),
    `${description}; ISO 8601 with a time zone, e.g. "2025-01-01T00:00:00Z"`,
  );

export const Limit = (description: string) => Nullable(Count({ minimum: 1 }), `${description}; null: unlimited`);

const Money = (description: string, example: string) =>
  Type.String({
    maxLength: 32,
    description: `${description}: money in the store currency at its exact precision, above 0`,
    examples: [example],
  });

const Percent = Type.String({
  maxLength: 32,
  description: 'Percent off, above 0 up to 100 with at most 4 decimals ("100": free)',
  examples: ['12.5'],
});

const ProductIds = (description: string) =>
  Type.Array(Id, { minItems: 1, maxItems: 1000, uniqueItems: true, description: `${description}; each once` });

const Units = (description: string) => Type.Integer({ minimum: 1, maximum: INT4_MAX, description });

/** A field's schema, by its sort. Optional ones may be absent (and, but for a flag, null). */
function fieldSchema(field: KindField): TSchema {
  switch (field.sort) {
    case 'money':
      return Money(field.description, field.example);
    case 'percent':
      return Percent;
    case 'units':
      return Units(field.description);
    case 'unitsOrNull':
      return Type.Optional(Nullable(Units(field.countDescription), field.description));
    case 'productIds':
      return ProductIds(field.description);
    case 'productScope':
      return Type.Optional(
        Nullable(ProductIds(field.description), `${field.description}; absent or null: every product`),
      );
    case 'flag':
      return Type.Optional(Type.Boolean({ default: field.default, description: field.description }));
    default:
      return unknownSort(field);
  }
}

/** A money field's amounts in other currencies (decision 0037), by ISO 4217 code. */
export const PerCurrency = (name: string) =>
  Type.Record(
    Type.String({ pattern: '^[A-Za-z]{3}$' }),
    Type.String({ maxLength: 32, description: 'In this currency, at its exact precision, above 0' }),
    {
      maxProperties: 200,
      description:
        `\`${name}\` in other currencies than the store's, e.g. {"EUR": "4.00", "JPY": "800"}: an order in one of `
        + 'them gets the promotion with that amount; in a currency without one (when a field of the promotion has '
        + 'none), not at all. Absent or {}: the store currency only',
    },
  );

/** One kind's branch: its `type`, then its fields in the module's order (a money field's per currency after it). */
function kindSchema(kind: { type: string; description: string; example: unknown; fields: KindFields }) {
  const properties: TProperties = { type: Type.Literal(kind.type) };
  for (const [name, field] of Object.entries(kind.fields)) {
    properties[name] = fieldSchema(field);
    if (field.sort === 'money') properties[perCurrencyName(name)] = Type.Optional(PerCurrency(name));
  }
  return StrictObject(properties, { description: kind.description, examples: [kind.example] });
}

const conditionBranches = Object.values(conditionModules).map(kindSchema);
const actionBranches = Object.values(actionModules).map(kindSchema);
const typesOf = (modules: object) => Object.keys(modules).join(', ');
/** The branches as TaggedUnion takes them: each has a literal `type` (built above). */
type Branches = Parameters<typeof TaggedUnion>[0];

// Conditions: all of a promotion's conditions must hold for it to apply.
export const PromotionCondition = Type.Unsafe<WirePromotionCondition>(
  TaggedUnion(conditionBranches as Branches, {
    description: `A condition, by \`type\`: ${typesOf(conditionModules)}`,
  }),
);

// Actions: what a promotion gives. `products` narrows the lines it acts on; absent or null: every line.
export const PromotionAction = Type.Unsafe<WirePromotionAction>(
  TaggedUnion(actionBranches as Branches, {
    description: `What the promotion gives, by \`type\`: ${typesOf(actionModules)}`,
  }),
);

const fields = {
  name: Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'Shown on the order and in the result; trimmed, not blank',
    examples: ['Summer sale'],
  }),
  code: Nullable(Code, 'The code a customer types; null or absent: automatic, applies to every order that qualifies'),
  is_active: Type.Boolean({ description: 'Default true' }),
  starts_at: DateTime('Applies from'),
  expires_at: DateTime('Applies until (exclusive), after starts_at'),
  priority: Type.Integer({
    minimum: -INT4_MAX - 1,
    maximum: INT4_MAX,
    description: 'Higher applies first (ties: lower id first); default 0',
  }),
  combinable: Type.Boolean({
    description: 'Default true; false: exclusive, applies alone when it beats the combinable ones together',
  }),
  redemption_limit: Limit('Redemptions allowed across all customers'),
  usage_limit_per_customer: Limit('Redemptions allowed per customer (a user, or a guest by email)'),
  new_customers_only: Type.Boolean({ description: "Default false; true: a customer's first order only" }),
  specific_customers: Nullable(
    Type.Array(Id, { maxItems: 1000, uniqueItems: true }),
    'User ids allowed, each once; null or empty: anyone',
  ),
  conditions: Type.Array(PromotionCondition, {
    maxItems: 20,
    description: 'All must hold; default none. Replaced whole by a PATCH',
  }),
  action: PromotionAction,
};

type Fields = typeof fields;
const optional = <K extends keyof Fields>(keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, Type.Optional(fields[k])])) as {
    [P in K]: ReturnType<typeof Type.Optional<Fields[P]>>;
  };

const optionalOnCreate = [
  'code',
  'is_active',
  'starts_at',
  'expires_at',
  'priority',
  'combinable',
  'redemption_limit',
  'usage_limit_per_customer',
  'new_customers_only',
  'specific_customers',
  'conditions',
] as const;

export const PromotionInput = StrictObject(
  { name: fields.name, action: fields.action, ...optional(optionalOnCreate) },
  {
    description: 'A new promotion',
    examples: [
      {
        name: 'Summer sale',
        code: 'SUMMER25',
        conditions: [{ type: 'min_subtotal', amount: '50.00' }],
        action: { type: 'order_percentage', percent: '25' },
      },
    ],
  },
);

export const PromotionPatch = StrictObject(optional([...optionalOnCreate, 'name', 'action']), {
  description: 'Fields to change; null clears a nullable one; `conditions` and `action` are replaced whole',
  examples: [{ expires_at: '2030-01-01T00:00:00Z', conditions: [{ type: 'min_subtotal', amount: '20.00' }] }],
});

export const PromotionQuery = Type.Object({
  ...PageQuery.properties,
  is_active: Type.Optional(Type.Boolean({ description: 'Only promotions switched on (true) or off (false)' })),
  code: Type.Optional(Type.String({ maxLength: 50, description: 'The promotion with this code (ignoring case)' })),
  automatic: Type.Optional(Type.Boolean({ description: 'true: only automatic promotions; false: only codes' })),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'Name contains (ignoring case)' })),
  archived: Type.Boolean({
    default: false,
    description: 'true: only archived promotions; false (default): the others',
  }),
});

/** A promotion as answered: every optional field of a condition or action is present, null when not set. */
export const Promotion = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  code: Type.Union([Type.String(), Type.Null()], { description: 'Null: automatic' }),
  is_active: Type.Boolean(),
  starts_at: Type.Union([Type.String(), Type.Null()]),
  expires_at: Type.Union([Type.String(), Type.Null()]),
  priority: Type.Integer(),
  combinable: Type.Boolean(),
  redemption_limit: Type.Union([Type.Integer(), Type.Null()]),
  usage_limit_per_customer: Type.Union([Type.Integer(), Type.Null()]),
  new_customers_only: Type.Boolean(),
  specific_customers: Type.Union([Type.Array(Type.Integer()), Type.Null()]),
  conditions: Type.Array(Type.Unsafe<WirePromotionCondition>(Type.Union(conditionBranches))),
  action: Type.Unsafe<WirePromotionAction>(Type.Union(actionBranches)),
  times_used: Type.Integer({ description: 'Redemptions so far' }),
  archived_at: Type.Union([Type.String(), Type.Null()], { description: 'Set by DELETE; archived ones never apply' }),
  created_at: Type.String(),
  updated_at: Type.String(),
});
