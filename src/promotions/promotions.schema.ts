import { type TSchema, Type } from 'typebox';
import { PageQuery } from '../catalog/catalog.schema.js';
import { Count, Id, INT4_MAX, StrictObject, TaggedUnion } from '../http/schemas.js';

// The admin API's promotions (SPEC section 10). One schema per condition kind and per action kind; a new kind is a
// branch here, its stored form (src/db/schema.ts), its checks (promotions.values.ts) and its mapping
// (promotions.mapper.ts).

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

/** An optional product scope: absent or null means every product. */
const Scope = (description: string) =>
  Type.Optional(Nullable(ProductIds(description), `${description}; absent or null: every product`));

const Units = (description: string) => Type.Integer({ minimum: 1, maximum: INT4_MAX, description });

const Kind = <K extends string>(kind: K) => Type.Literal(kind);

// Conditions: all of a promotion's conditions must hold for it to apply.

export const MinSubtotalCondition = StrictObject(
  { type: Kind('min_subtotal'), amount: Money('The smallest subtotal, before any discount, inclusive', '50.00') },
  {
    description: "The order's subtotal before discounts is at least `amount` (50.00 qualifies for 50.00)",
    examples: [{ type: 'min_subtotal', amount: '50.00' }],
  },
);

export const MinQuantityCondition = StrictObject(
  {
    type: Kind('min_quantity'),
    quantity: Units('Units needed, at least 1'),
    products: Scope('Products whose units count'),
  },
  {
    description: 'At least `quantity` units in the order, counted over the lines of `products` (every line if absent)',
    examples: [{ type: 'min_quantity', quantity: 3, products: [12, 14] }],
  },
);

export const ContainsProductsCondition = StrictObject(
  { type: Kind('contains_products'), products: ProductIds('Product ids, any of which must be in the order') },
  {
    description: 'Any of `products` is in the order',
    examples: [{ type: 'contains_products', products: [12] }],
  },
);

export const PromotionCondition = TaggedUnion([MinSubtotalCondition, MinQuantityCondition, ContainsProductsCondition], {
  description: 'A condition, by `type`: min_subtotal, min_quantity, contains_products',
});

// Actions: what a promotion gives. `products` narrows the lines it acts on; absent or null: every line.

export const OrderPercentageAction = StrictObject(
  { type: Kind('order_percentage'), percent: Percent, products: Scope('Lines it acts on') },
  {
    description: 'Percent off the eligible lines together, allocated over them',
    examples: [{ type: 'order_percentage', percent: '10' }],
  },
);

export const OrderFixedAction = StrictObject(
  { type: Kind('order_fixed'), amount: Money('Amount off', '5.00'), products: Scope('Lines it acts on') },
  {
    description: 'An amount off the eligible lines together (at most their subtotal), allocated over them',
    examples: [{ type: 'order_fixed', amount: '5.00', products: [3] }],
  },
);

const MaxUnits = Type.Optional(
  Nullable(Units('At least 1'), 'Only this many units, the cheapest first; absent or null: every eligible unit'),
);

export const ItemPercentageAction = StrictObject(
  { type: Kind('item_percentage'), percent: Percent, products: Scope('Lines it acts on'), max_units: MaxUnits },
  {
    description: 'Percent off each eligible unit (rounded per unit)',
    examples: [{ type: 'item_percentage', percent: '20', products: [7], max_units: 2 }],
  },
);

export const ItemFixedAction = StrictObject(
  {
    type: Kind('item_fixed'),
    amount: Money('Amount off each unit, capped at its price', '1.50'),
    products: Scope('Lines it acts on'),
    max_units: MaxUnits,
  },
  {
    description: 'An amount off each eligible unit, capped at the unit price',
    examples: [{ type: 'item_fixed', amount: '1.50', products: [7] }],
  },
);

export const BuyXGetYAction = StrictObject(
  {
    type: Kind('buy_x_get_y'),
    buy_quantity: Units('Units to buy for each reward, at least 1'),
    buy_products: Scope('Products whose units count as bought'),
    get_quantity: Units('Units rewarded each time, at least 1'),
    get_products: Scope('Products that can be rewarded'),
    percent: Percent,
    repeat: Type.Optional(
      Type.Boolean({
        default: true,
        description: 'true (default): once per `buy_quantity` units; false: once per order',
      }),
    ),
  },
  {
    description:
      'For every `buy_quantity` units bought from `buy_products`, `get_quantity` units of `get_products` (the cheapest, not counting units used to qualify) get `percent` off',
    examples: [{ type: 'buy_x_get_y', buy_quantity: 2, get_quantity: 1, percent: '100', repeat: true }],
  },
);

export const ShippingPercentageAction = StrictObject(
  { type: Kind('shipping_percentage'), percent: Percent },
  { description: 'Percent off the shipping fee', examples: [{ type: 'shipping_percentage', percent: '50' }] },
);

export const ShippingFixedAction = StrictObject(
  { type: Kind('shipping_fixed'), amount: Money('Amount off the shipping fee, at most the fee', '3.00') },
  { description: 'An amount off the shipping fee', examples: [{ type: 'shipping_fixed', amount: '3.00' }] },
);

export const FreeShippingAction = StrictObject(
  { type: Kind('free_shipping') },
  { description: 'No shipping fee', examples: [{ type: 'free_shipping' }] },
);

const actionBranches = [
  OrderPercentageAction,
  OrderFixedAction,
  ItemPercentageAction,
  ItemFixedAction,
  BuyXGetYAction,
  ShippingPercentageAction,
  ShippingFixedAction,
  FreeShippingAction,
] as const;

export const PromotionAction = TaggedUnion([...actionBranches], {
  description:
    'What the promotion gives, by `type`: order_percentage, order_fixed, item_percentage, item_fixed, buy_x_get_y, shipping_percentage, shipping_fixed, free_shipping',
});

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
  conditions: Type.Array(Type.Union([MinSubtotalCondition, MinQuantityCondition, ContainsProductsCondition])),
  action: Type.Union([...actionBranches]),
  times_used: Type.Integer({ description: 'Redemptions so far' }),
  archived_at: Type.Union([Type.String(), Type.Null()], { description: 'Set by DELETE; archived ones never apply' }),
  created_at: Type.String(),
  updated_at: Type.String(),
});
