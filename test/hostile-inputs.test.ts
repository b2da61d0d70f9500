import type { InjectOptions } from 'fastify';
import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carts, events, orders } from '../src/db/schema.js';
import { scheduleDeliveries } from '../src/webhooks/webhook-delivery.js';
import { adminApi, apiAs } from './fixtures.js';
import {
  bearer,
  buildTestApp,
  expectProblem,
  json,
  type SignedIn,
  signInAdmin,
  signUp,
  type TestApp,
  uniqueEmail,
} from './helpers.js';

/*
 * The walk: every route and method of /openapi.json gets values PostgreSQL cannot store or hold (NUL, lone
 * surrogates, integers past a column's range, dates outside its calendar), one field at a time on an otherwise
 * valid request, as a guest, a customer and an admin, with real ids in the path so handlers are reached.
 */

interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  /** A tagged union (a promotion's action): every branch names its kind in `type`. */
  oneOf?: JsonSchema[];
  enum?: unknown[];
  format?: string;
  minimum?: number;
  minLength?: number;
  default?: unknown;
}
interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
  required?: boolean;
  schema: JsonSchema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}
type Path = (string | number)[];
interface Leaf {
  path: Path;
  type: 'string' | 'integer' | 'date-time';
}

const HOSTILE_STRINGS = ['a\u0000b', '\ud800', 'x\udc00y'];
/** RFC 3339 allows both; JavaScript has no Date for a leap second, PostgreSQL no year 0. */
const HOSTILE_DATES = ['0000-01-01T00:00:00Z', '2016-12-31T23:59:60Z'];
const HOSTILE_INTEGERS = [2147483648, 9223372036854775808n, -1];
/** How a client puts the hostile strings into a URL: NUL percent-encoded, a lone surrogate as its WTF-8 bytes. */
const HOSTILE_URL_TEXT = ['a%00b', '%ED%A0%80', 'x%ED%B0%80y'];

let t: TestApp;
let admin: SignedIn;
let customer: SignedIn;
const fixtures: Record<string, string | number> = {};

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signInAdmin(t);
  customer = await signUp(t.app);
  const api = adminApi(t, admin);
  const shopper = apiAs(t, customer);
  const taxClass = await api.taxClass({ name: 'Walk standard' });
  const taxRate = await api.taxRate({ tax_class_id: taxClass.id, country: 'GB', rate: '20' });
  const product = await api.product({
    name: 'Walked product',
    tax_class_id: taxClass.id,
    variants: [{ alias: 'walk-1', name: 'Walked', price: '10.00', stock: 1000, weight_grams: '100' }],
  });
  const variant = product.variants[0]!;
  const method = await api.shippingMethod({ name: 'Walk post' });
  const rate = await api.shippingRate({ shipping_method_id: method.id, weight_min_kg: '0', base_rate: '4.90' });
  const promo = await api.promoCode({ code: 'WALK10', code_type: 'percentage', value: '10' });
  const promotion = await api.post('/discount/dashboard/api/promotions/', {
    name: 'Walk sale',
    action: { type: 'order_percentage', percent: '5' },
  });
  const address = await shopper.post('/user/storefront/api/addresses/', {
    first_name: 'Ada',
    last_name: 'L',
    street_address: '1 Road',
    city: 'London',
    country: 'GB',
  });
  const order = await shopper.post('/order/storefront/api/user-order-create/', {
    variants: [{ alias: variant.alias, quantity: 1 }],
    shipping_address_id: address.id,
    shipping_method_id: method.id,
  });
  const payment = await shopper.post(
    '/payment/storefront/api/start-payment/sandbox/',
    { order_alias: order.order_alias },
    200,
  );
  const webhookEndpoint = await apiAs(t, admin).post('/webhook/dashboard/api/endpoints/', {
    url: 'https://hooks.example.com/walk',
    events: ['order.placed'],
  });
  const [webhookDelivery] = await scheduleDeliveries(t.database.db, {
    id: 'walk-event-1',
    type: 'order.placed',
    created_at: new Date().toISOString(),
    data: { order_alias: order.order_alias },
  });
  const [placed] = await t.database.db.select({ id: events.id }).from(events).where(eq(events.type, 'order.placed'));
  const market = await api.post('/market/dashboard/api/markets/', {
    code: 'walk',
    name: 'Walk market',
    currency: 'EUR',
    exchange_rate: '0.92',
    countries: ['FR'],
  });
  // A category, a collection and the product all with the handle `walk` (handles are unique per kind only).
  await api.patch(`/product/dashboard/api/products/${product.id}/`, { handle: 'walk' });
  const category = await api.post('/product/dashboard/api/categories/', { name: 'Walk', handle: 'walk' });
  const collection = await api.post('/product/dashboard/api/collections/', {
    name: 'Walk',
    handle: 'walk',
    product_ids: [product.id],
  });
  const image = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#c33' } })
    .png()
    .toBuffer();
  const uploaded = await t.app.inject({
    method: 'POST',
    url: `/product/dashboard/api/products/${product.id}/media/?alt=Walk`,
    headers: { authorization: `Bearer ${admin.access}`, 'content-type': 'image/png' },
    payload: image,
  });
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  Object.assign(fixtures, {
    media_id: JSON.parse(uploaded.body).id,
    // The image's sizes are served at /media/{key}/{file}: its stored original's name and a width and format served.
    key: JSON.parse(uploaded.body).key,
    file: '160.webp',
    category_id: category.id,
    collection_id: collection.id,
    handle: 'walk',
    productId: product.id,
    event_id: placed?.id ?? '',
    tax_class_id: taxClass.id,
    tax_rate_id: taxRate.id,
    product_id: product.id,
    product_variant_id: variant.id,
    variant_alias: variant.alias,
    shipping_method_id: method.id,
    shipping_rate_id: rate.id,
    promo_code_id: promo.id,
    promotion_id: promotion.id,
    shipping_address_id: address.id,
    billing_address_id: address.id,
    order_alias: order.order_alias,
    payment_id: payment.payment_id,
    customer_id: customer.id,
    webhook_endpoint_id: webhookEndpoint.id,
    webhook_delivery_id: webhookDelivery?.id ?? 0,
    market_id: market.id,
  });
}, 60_000);
afterAll(() => t.close());

/** The fixture an `{id}` path parameter takes, by the collection named just before it. */
const ID_OF_COLLECTION: Record<string, string> = {
  addresses: 'shipping_address_id',
  products: 'product_id',
  variants: 'product_variant_id',
  'tax-classes': 'tax_class_id',
  'tax-rates': 'tax_rate_id',
  'shipping-methods': 'shipping_method_id',
  'shipping-rates': 'shipping_rate_id',
  'promo-codes': 'promo_code_id',
  promotions: 'promotion_id',
  payments: 'payment_id',
  endpoints: 'webhook_endpoint_id',
  deliveries: 'webhook_delivery_id',
  events: 'event_id',
  markets: 'market_id',
  categories: 'category_id',
  collections: 'collection_id',
  media: 'media_id',
};

function pathIdFor(route: string): string | number {
  const segments = route.split('/');
  const collection = segments[segments.indexOf('{id}') - 1] ?? '';
  const id = fixtures[ID_OF_COLLECTION[collection] ?? ''];
  if (id === undefined) throw new Error(`no fixture for {id} under ${collection}: add one to ID_OF_COLLECTION`);
  return id;
}

/** The first branch that is not `null`: the one a client fills in (of a tagged union, its first kind). */
function concrete(schema: JsonSchema): JsonSchema {
  return schema.anyOf?.find((s) => s.type !== 'null') ?? schema.oneOf?.[0] ?? schema;
}

/** Optional fields a request needs in practice (a guest order's email, a percentage code's value). */
const ALWAYS_FILLED = new Set(['email', 'value']);

let sequence = 0;
/** A value the route accepts for this field, so that a request differing in one field reaches the handler. */
function sampleLeaf(schema: JsonSchema, name: string): unknown {
  sequence += 1;
  const known: Record<string, unknown> = {
    email: uniqueEmail('walk'),
    password: 'correct horse battery',
    refresh: customer.refresh,
    country: 'GB',
    price: '10.00',
    compare_at_price: '12.00',
    cost_price: '5.00',
    weight_grams: '100',
    rate: '20',
    value: '10',
    weight_min_kg: '0',
    weight_max_kg: '10',
    base_rate: '4.90',
    per_kg_rate: '0',
    min_purchase_amount: '1.00',
    code: `WALK${sequence}`,
    code_type: 'percentage',
    order_alias: fixtures.order_alias,
    return_url: 'https://shop.example/done',
    cancel_url: 'https://shop.example/cancel',
    amount: '0.01',
    percent: '10',
    url: 'https://hooks.example.com/walk',
    currency: 'EUR',
    exchange_rate: '0.92',
    handle: `walk-${sequence}`,
  };
  if (name in known) return known[name];
  if (name in fixtures && schema.type === 'integer') return fixtures[name];
  if (schema.enum) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.type === 'integer') return schema.minimum ?? 1;
  if (schema.type === 'boolean') return false;
  if (schema.format === 'date-time') return '2030-01-01T00:00:00Z';
  if (name === 'alias') return `walk-${sequence}`;
  return 'Walk';
}

/** A valid body holding the required fields, plus the branch that leads to `want` (the field being tried). */
function sample(schemaIn: JsonSchema, name: string, want: Path = []): unknown {
  // Of a tagged union, the kind that has the field being tried.
  const branch = schemaIn.oneOf?.find((b) => want[0] !== undefined && String(want[0]) in (b.properties ?? {}));
  const schema = branch ?? concrete(schemaIn);
  if (schema.type === 'object' || schema.properties) {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(schema.properties ?? {})) {
      const wanted = want[0] === key;
      if (wanted || schema.required?.includes(key) || ALWAYS_FILLED.has(key)) {
        out[key] = sample(child, key, wanted ? want.slice(1) : []);
      }
    }
    return out;
  }
  if (schema.type === 'array') {
    const orderLines = schema.items?.required?.includes('quantity') && schema.items.properties?.alias;
    // A line naming a variant the store has (a return's line also a reason, and whatever else it requires).
    if (orderLines && want.length === 0) {
      const line = sample(schema.items ?? {}, name) as Record<string, unknown>;
      return [{ ...line, alias: fixtures.variant_alias, quantity: 1 }];
    }
    return [sample(schema.items ?? {}, name, want.slice(1))];
  }
  return sampleLeaf(schema, name);
}

/** Every string and integer a client can send in this schema, at any depth and in any branch. */
function leaves(schema: JsonSchema, path: Path = []): Leaf[] {
  if (schema.anyOf) return schema.anyOf.flatMap((branch) => leaves(branch, path));
  if (schema.oneOf) return schema.oneOf.flatMap((branch) => leaves(branch, path));
  if (schema.type === 'object' || schema.properties) {
    return Object.entries(schema.properties ?? {}).flatMap(([key, child]) => leaves(child, [...path, key]));
  }
  if (schema.type === 'array') return leaves(schema.items ?? {}, [...path, 0]);
  if (schema.type === 'string' && schema.format === 'date-time') return [{ path, type: 'date-time' }];
  if (schema.type === 'string' || schema.type === 'integer') return [{ path, type: schema.type }];
  return [];
}

function withValue(body: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = (Array.isArray(body) ? [...body] : { ...(body as object) }) as Record<string | number, unknown>;
  copy[path[0]!] = withValue(copy[path[0]!] ?? (typeof path[1] === 'number' ? [] : {}), path.slice(1), value);
  return copy;
}

/** JSON text that keeps a bigint exact (9223372036854775808 as a JSON number, not a rounded float). */
function jsonText(value: unknown): string {
  const marked = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `@@big:${v}@@` : v));
  return marked.replace(/"@@big:(-?\d+)@@"/g, '$1');
}

function hostileFor(type: Leaf['type']): unknown[] {
  if (type === 'integer') return HOSTILE_INTEGERS;
  return type === 'date-time' ? [...HOSTILE_STRINGS, ...HOSTILE_DATES] : HOSTILE_STRINGS;
}

function hostileInUrl(schema: JsonSchema): string[] {
  if (schema.type === 'integer') return HOSTILE_INTEGERS.map(String);
  return schema.format === 'date-time' ? [...HOSTILE_URL_TEXT, ...HOSTILE_DATES] : HOSTILE_URL_TEXT;
}

const VALID = 'valid request';
interface Probe {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  what: string;
}

let openapi: { paths: Record<string, Record<string, Operation>> };

function probesFor(route: string, method: string, op: Operation): Probe[] {
  const params = op.parameters ?? [];
  const pathValue = (p: Parameter): string => {
    if (p.name === 'id') return String(pathIdFor(route));
    if (p.name === 'payment_plugin_id') return 'sandbox';
    return String(fixtures[p.name] ?? sampleLeaf(concrete(p.schema), p.name));
  };
  const requiredQuery = params.filter((p) => p.in === 'query' && p.required && p.schema.default === undefined);
  const urlFor = (override?: { param: Parameter; raw: string }) => {
    let url = route;
    for (const p of params.filter((q) => q.in === 'path')) {
      url = url.replace(`{${p.name}}`, override?.param === p ? override.raw : encodeURIComponent(pathValue(p)));
    }
    const query = requiredQuery
      .filter((p) => p !== override?.param)
      .map((p) => `${p.name}=${encodeURIComponent(String(sampleLeaf(concrete(p.schema), p.name)))}`);
    if (override?.param.in === 'query') query.push(`${override.param.name}=${override.raw}`);
    return query.length > 0 ? `${url}?${query.join('&')}` : url;
  };
  const bodySchema = op.requestBody?.content['application/json']?.schema;
  const headers: Record<string, string> = bodySchema ? { 'content-type': 'application/json' } : {};
  const base = { method, headers, body: bodySchema ? jsonText(sample(bodySchema, '')) : undefined };
  // GET estimate takes the POST's body as JSON in ?payload=: walk that body there too.
  const payloadSchema = params.some((p) => p.in === 'query' && p.name === 'payload')
    ? openapi.paths[route]?.post?.requestBody?.content['application/json']?.schema
    : undefined;
  const payloadUrl = (payload: unknown) => `${route}?payload=${encodeURIComponent(jsonText(payload))}`;

  const probes: Probe[] = [];
  // A valid DELETE would remove the fixtures the other routes need; its hostile variants delete nothing.
  if (method !== 'DELETE') {
    probes.push({ ...base, url: payloadSchema ? payloadUrl(sample(payloadSchema, '')) : urlFor(), what: VALID });
  }
  for (const p of params) {
    if (p.in === 'header') {
      for (const value of HOSTILE_STRINGS) {
        const what = `header ${p.name}=${JSON.stringify(value)}`;
        probes.push({ ...base, url: urlFor(), headers: { ...headers, [p.name]: value }, what });
      }
      continue;
    }
    for (const raw of hostileInUrl(concrete(p.schema))) {
      probes.push({ ...base, url: urlFor({ param: p, raw }), what: `${p.in} ${p.name}=${raw}` });
    }
  }
  for (const leaf of bodySchema ? leaves(bodySchema) : []) {
    for (const value of hostileFor(leaf.type)) {
      const body = jsonText(withValue(sample(bodySchema!, '', leaf.path), leaf.path, value));
      probes.push({ ...base, url: urlFor(), body, what: `body ${leaf.path.join('.')}=${jsonText(value)}` });
    }
  }
  for (const leaf of payloadSchema ? leaves(payloadSchema) : []) {
    for (const value of hostileFor(leaf.type)) {
      const url = payloadUrl(withValue(sample(payloadSchema!, '', leaf.path), leaf.path, value));
      probes.push({ method, headers: {}, url, what: `?payload= ${leaf.path.join('.')}=${jsonText(value)}` });
    }
  }
  return probes;
}

function operations(): [string, string, Operation][] {
  const all = Object.entries(openapi.paths).flatMap(([route, ops]) =>
    Object.entries(ops).map(([method, op]): [string, string, Operation] => [route, method.toUpperCase(), op]),
  );
  // Deletions last, so every other route still finds the fixtures.
  return [...all.filter(([, m]) => m !== 'DELETE'), ...all.filter(([, m]) => m === 'DELETE')];
}

/** One probe sent as each caller: who sent it, the status, the problem's code on a 422, the body. */
async function probeAs(callers: [string, Record<string, string>][], probe: Probe) {
  const answers: { who: string; status: number; code: string; body: string }[] = [];
  for (const [who, auth] of callers) {
    const res = await t.app.inject({
      method: probe.method as InjectOptions['method'],
      url: probe.url,
      headers: { ...auth, ...probe.headers },
      ...(probe.body ? { payload: probe.body } : {}),
    });
    const code = res.statusCode === 422 ? json(res).code : String(res.statusCode);
    answers.push({ who, status: res.statusCode, code, body: res.body });
  }
  return answers;
}

describe('hostile values on every route of the OpenAPI document', () => {
  it('never answers 5xx to NUL, lone surrogates, out-of-range integers or unstorable dates, whoever asks', async () => {
    openapi = json(await t.app.inject({ method: 'GET', url: '/openapi.json' }));
    const callers: [string, Record<string, string>][] = [
      ['guest', {}],
      ['customer', bearer(customer.access)],
      ['admin', bearer(admin.access)],
    ];
    const failures: string[] = [];
    const unreached: string[] = [];
    let sent = 0;
    for (const [route, method, op] of operations()) {
      for (const probe of probesFor(route, method, op)) {
        const answers = await probeAs(callers, probe);
        sent += answers.length;
        for (const a of answers.filter((answer) => answer.status >= 500)) {
          failures.push(`${method} ${route} as ${a.who}, ${probe.what}: ${a.status} ${a.body.slice(0, 200)}`);
        }
        // The walk proves something only if the unaltered request passes validation for someone: if a new route
        // lands here, teach sampleLeaf a valid value for its fields.
        const stopped = answers.every((a) => a.code === 'validation_error');
        if (probe.what === VALID && stopped) unreached.push(`${method} ${route}`);
      }
    }
    expect(sent).toBeGreaterThan(1000);
    expect(failures).toEqual([]);
    expect(unreached).toEqual([]);
  }, 300_000);
});

/** Sends the request and expects a 422 whose errors name `field` with a message matching `message`. */
async function expectFieldError(request: InjectOptions, field: string, message: RegExp) {
  const body = expectProblem(await t.app.inject(request), 422, 'validation_error');
  expect(body.errors).toContainEqual({ field, message: expect.stringMatching(message) });
}

const NUL = /NUL character/;
const SURROGATE = /unpaired surrogate/;
const TOO_BIG = /must be <= 2147483647/;
const asAdmin = () => bearer(admin.access);
const asCustomer = () => bearer(customer.access);
const adminSends = (method: 'POST' | 'PATCH', url: string, payload: object): InjectOptions => ({
  method,
  url,
  headers: asAdmin(),
  payload,
});
const orderOf = (extra: object) => ({ variants: [{ alias: fixtures.variant_alias, quantity: 1 }], ...extra });

describe('strings the database cannot store', () => {
  it('refuses NUL and lone surrogates in sign-up and login fields, naming the field', async () => {
    const signup = '/user/storefront/api/signup/';
    const login = '/user/storefront/api/login/';
    const password = 'long enough';
    await expectFieldError({ method: 'POST', url: signup, payload: { email: 'a\u0000b@x', password } }, 'email', NUL);
    await expectFieldError(
      {
        method: 'POST',
        url: signup,
        payload: { email: uniqueEmail(), password: 'correct horse', first_name: '\ud800' },
      },
      'first_name',
      SURROGATE,
    );
    await expectFieldError(
      { method: 'POST', url: login, payload: { email: `${customer.email}\u0000`, password: 'x' } },
      'email',
      NUL,
    );
  });

  it('refuses them in stored addresses, on creation and on change', async () => {
    const base = '/user/storefront/api/addresses/';
    const address = { first_name: 'Ada', last_name: 'L', street_address: '1 Rd', city: 'Lon\u0000don', country: 'GB' };
    await expectFieldError({ method: 'POST', url: base, headers: asCustomer(), payload: address }, 'city', NUL);
    await expectFieldError(
      {
        method: 'PATCH',
        url: `${base}${fixtures.shipping_address_id}/`,
        headers: asCustomer(),
        payload: { street_address: 'x\udc00' },
      },
      'street_address',
      SURROGATE,
    );
  });

  it('refuses them in products, variants, tax, shipping and promo codes', async () => {
    const product = { name: 'Bad\u0000name', variants: [{ name: '\ud800', price: '1.00' }] };
    const res = await t.app.inject(adminSends('POST', '/product/dashboard/api/products/', product));
    expect(expectProblem(res, 422, 'validation_error').errors).toEqual([
      { field: 'name', message: expect.stringMatching(NUL) },
      { field: 'variants[0].name', message: expect.stringMatching(SURROGATE) },
    ]);
    const variants = `/product/dashboard/api/products/${fixtures.product_id}/variants/`;
    await expectFieldError(adminSends('POST', variants, { name: 'v', price: '1.00', sku: 'S\u0000' }), 'sku', NUL);
    const variant = `/product/dashboard/api/variants/${fixtures.product_variant_id}/`;
    await expectFieldError(adminSends('PATCH', variant, { name: '\udc00' }), 'name', SURROGATE);
    await expectFieldError(adminSends('POST', '/tax/dashboard/api/tax-classes/', { name: 'Zero\u0000' }), 'name', NUL);
    await expectFieldError(
      adminSends('POST', '/tax/dashboard/api/tax-rates/', {
        tax_class_id: fixtures.tax_class_id,
        country: 'US',
        state: 'T\ud800X',
        rate: '5',
      }),
      'state',
      SURROGATE,
    );
    await expectFieldError(
      adminSends('POST', '/shipping/dashboard/api/shipping-methods/', { name: 'Post\u0000' }),
      'name',
      NUL,
    );
    await expectFieldError(
      adminSends('POST', '/shipping/dashboard/api/shipping-rates/', {
        shipping_method_id: fixtures.shipping_method_id,
        city: '\ud800',
        weight_min_kg: '0',
        base_rate: '1',
      }),
      'city',
      SURROGATE,
    );
    await expectFieldError(
      adminSends('POST', '/discount/dashboard/api/promo-codes/', {
        code: 'NULVALUE',
        code_type: 'percentage',
        value: '1\u0000',
      }),
      'value',
      NUL,
    );
  });

  it('refuses them in query and path parameters and validated headers, prefixed by where they were sent', async () => {
    await expectFieldError(
      { method: 'GET', url: '/product/dashboard/api/products/?q=a%00b', headers: asAdmin() },
      'querystring.q',
      NUL,
    );
    await expectFieldError(
      { method: 'GET', url: '/order/dashboard/api/orders/?email=a%00%40x', headers: asAdmin() },
      'querystring.email',
      NUL,
    );
    await expectFieldError(
      { method: 'GET', url: '/shipping/storefront/api/shipping-methods/?country=US&state=T%00X' },
      'querystring.state',
      NUL,
    );
    await expectFieldError(
      { method: 'GET', url: '/order/dashboard/api/orders/a%00b/', headers: asAdmin() },
      'params.order_alias',
      NUL,
    );
    await expectFieldError(
      {
        method: 'POST',
        url: '/order/storefront/api/guest-user-order-create/',
        headers: { 'idempotency-key': 'k\ud800' },
        payload: orderOf({ shipping_address: { country: 'GB', email: 'guest@example.com' } }),
      },
      'headers.idempotency-key',
      SURROGATE,
    );
  });

  it('refuses them in order addresses and other order fields, in a body or in ?payload=', async () => {
    await expectFieldError(
      {
        method: 'POST',
        url: '/order/storefront/api/guest-user-order-create/',
        payload: orderOf({ shipping_address: { country: 'GB', email: 'guest@example.com', city: 'Lon\u0000don' } }),
      },
      'shipping_address.city',
      NUL,
    );
    await expectFieldError(
      {
        method: 'POST',
        url: '/order/storefront/api/user-order-create/',
        headers: asCustomer(),
        payload: orderOf({
          shipping_address_id: fixtures.shipping_address_id,
          billing_address: { country: 'GB', street_address: '\udc00' },
        }),
      },
      'billing_address.street_address',
      SURROGATE,
    );
    const payload = orderOf({ shipping_address: { country: 'GB', city: 'x\u0000' }, promocode: '\ud800' });
    const url = `/order/storefront/api/estimate/?payload=${encodeURIComponent(JSON.stringify(payload))}`;
    const res = await t.app.inject({ method: 'GET', url });
    expect(expectProblem(res, 422, 'validation_error').errors).toEqual([
      { field: 'shipping_address.city', message: expect.stringMatching(NUL) },
      { field: 'promocode', message: expect.stringMatching(SURROGATE) },
    ]);
  });

  it('refuses them in the names of fields too', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/order/storefront/api/estimate/',
      headers: { 'content-type': 'application/json' },
      body: '{"variants":[{"alias":"a","quantity":1}],"x\\u0000":1}',
    });
    expect(expectProblem(res, 422, 'validation_error').errors).toContainEqual({
      field: 'x\u0000',
      message: expect.stringMatching(NUL),
    });
  });
});

describe("integers past their column's range", () => {
  it('bounds ids, cursors and counts by PostgreSQL integer, naming the field', async () => {
    const get = (url: string, headers = asAdmin()): InjectOptions => ({ method: 'GET', url, headers });
    await expectFieldError(get('/product/storefront/api/products/?cursor=2147483648'), 'querystring.cursor', TOO_BIG);
    await expectFieldError(
      get('/order/dashboard/api/orders/?cursor=9223372036854775808'),
      'querystring.cursor',
      TOO_BIG,
    );
    await expectFieldError(get('/order/storefront/api/orders/?cursor=-1', asCustomer()), 'querystring.cursor', />= 0/);
    await expectFieldError(
      get('/order/dashboard/api/orders/?customer_id=2147483648'),
      'querystring.customer_id',
      TOO_BIG,
    );
    await expectFieldError(get('/product/dashboard/api/products/2147483648/'), 'params.id', TOO_BIG);
    await expectFieldError(
      adminSends('POST', '/product/dashboard/api/products/', {
        name: 'p',
        tax_class_id: 2147483648,
        variants: [{ name: 'v', price: '1' }],
      }),
      'tax_class_id',
      TOO_BIG,
    );
    await expectFieldError(
      adminSends('PATCH', `/product/dashboard/api/products/${fixtures.product_id}/`, { tax_class_id: 2147483648 }),
      'tax_class_id',
      TOO_BIG,
    );
    await expectFieldError(
      adminSends('POST', '/discount/dashboard/api/promo-codes/', {
        code: 'BIGIDS',
        code_type: 'free_shipping',
        specific_customers: [2147483648],
      }),
      'specific_customers[0]',
      TOO_BIG,
    );
    const huge = await t.app.inject({
      method: 'POST',
      url: '/order/storefront/api/estimate/',
      headers: { 'content-type': 'application/json' },
      body: '{"variants":[{"alias":"a","quantity":9223372036854775808}]}',
    });
    expect(expectProblem(huge, 422, 'validation_error').errors).toContainEqual({
      field: 'variants[0].quantity',
      message: expect.stringMatching(/must be <=/),
    });
  });

  it('still pages with the cursor it hands out', async () => {
    const first = json(await t.app.inject({ method: 'GET', url: '/product/storefront/api/products/?limit=1' }));
    expect(first.next_cursor).toEqual(expect.any(String));
    const url = `/product/storefront/api/products/?limit=1&cursor=${first.next_cursor}`;
    const next = await t.app.inject({ method: 'GET', url });
    expect(next.statusCode).toBe(200);
    expect(json(next).items.map((p: { id: number }) => p.id)).not.toContain(first.items[0].id);
  });
});

describe('numbers and names in paths and queries', () => {
  it('takes integers only as decimal digits: a space, hex or an exponent is a 422 naming the field', async () => {
    const get = (url: string, headers = asAdmin()): InjectOptions => ({ method: 'GET', url, headers });
    const DECIMAL = /written in decimal digits/;
    await expectFieldError(get('/product/storefront/api/products/%201/'), 'params.id', DECIMAL);
    await expectFieldError(get('/product/storefront/api/products/0x10/'), 'params.id', DECIMAL);
    await expectFieldError(get('/product/storefront/api/products/?cursor=1e3'), 'querystring.cursor', DECIMAL);
    await expectFieldError(get('/order/dashboard/api/orders/?limit=+5'), 'querystring.limit', DECIMAL);
    const plain = await t.app.inject(get(`/product/storefront/api/products/${fixtures.product_id}/`));
    expect(plain.statusCode).toBe(200);
  });

  it('lists the allowed values when a status or type filter names none of them', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/order/dashboard/api/orders/?status=lost',
      headers: asAdmin(),
    });
    expect(expectProblem(res, 422, 'validation_error').errors).toEqual([
      {
        field: 'querystring.status',
        message: 'must be one of: "pending", "approved", "processing", "shipped", "delivered", "cancelled"',
      },
    ]);
    const events = await t.app.inject({
      method: 'GET',
      url: '/event/dashboard/api/events/?type=nope',
      headers: asAdmin(),
    });
    expect(expectProblem(events, 422, 'validation_error').errors[0].message).toMatch(
      /^must be one of: "order.placed", /,
    );
  });

  it('refuses a body sent to an action that takes none, and takes none or {}', async () => {
    const endpoint = { url: 'https://hooks.example.com/a', events: ['order.placed'] };
    const created = json(await t.app.inject(adminSends('POST', '/webhook/dashboard/api/endpoints/', endpoint)));
    const rotate = `/webhook/dashboard/api/endpoints/${created.id}/rotate-secret/`;
    const refused = await t.app.inject({ method: 'POST', url: rotate, headers: asAdmin(), payload: { x: 1 } });
    expect(expectProblem(refused, 422, 'validation_error').errors).toEqual([
      { field: 'body', message: 'must be empty' },
    ]);
    expect((await t.app.inject({ method: 'POST', url: rotate, headers: asAdmin(), payload: {} })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: rotate, headers: asAdmin() })).statusCode).toBe(200);
  });
});

describe('date-times PostgreSQL or JavaScript cannot hold', () => {
  it('refuses year 0000 and leap seconds, naming the field', async () => {
    await expectFieldError(
      adminSends('POST', '/discount/dashboard/api/promo-codes/', {
        code: 'YEARZERO',
        code_type: 'free_shipping',
        starts_at: '0000-01-01T00:00:00Z',
      }),
      'starts_at',
      /date-time/,
    );
    const url = '/order/dashboard/api/orders/?created_from=2016-12-31T23:59:60Z';
    await expectFieldError({ method: 'GET', url, headers: asAdmin() }, 'querystring.created_from', /date-time/);
  });

  it('refuses a moment past 9999 in UTC and an offset PostgreSQL cannot read, naming the field', async () => {
    await expectFieldError(
      adminSends('POST', '/discount/dashboard/api/promo-codes/', {
        code: 'FAR',
        code_type: 'percentage',
        value: '5',
        expires_at: '9999-12-31T23:59:59-01:00',
      }),
      'expires_at',
      /date-time/,
    );
    const url = (from: string) => `/order/dashboard/api/orders/?created_from=${encodeURIComponent(from)}`;
    await expectFieldError(
      { method: 'GET', url: url('9999-12-31T23:59:59-23:59'), headers: asAdmin() },
      'querystring.created_from',
      /date-time/,
    );
    await expectFieldError(
      { method: 'GET', url: url('2026-01-01T00:00:00+16:00'), headers: asAdmin() },
      'querystring.created_from',
      /date-time/,
    );
    const ordinary = await t.app.inject({ method: 'GET', url: url('2026-01-01T00:00:00+14:00'), headers: asAdmin() });
    expect(ordinary.statusCode).toBe(200);
  });
});

describe('bodies built to break the parser or the walk', () => {
  it('answers JSON nested thousands deep with a 422, at the top or inside a field', async () => {
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const headers = { 'content-type': 'application/json' };
    for (const payload of [deep, `{"alias":"x","quantity":1,"note":${deep}}`]) {
      const res = await t.app.inject({ method: 'POST', url: '/cart/storefront/api/carts/add/', headers, payload });
      expectProblem(res, 422, 'validation_error');
    }
  });

  it('refuses a JSON body declared in a charset other than UTF-8 instead of misreading it', async () => {
    const send = (type: string) =>
      t.app.inject({
        method: 'POST',
        url: '/user/storefront/api/login/',
        headers: { 'content-type': type },
        payload: JSON.stringify({ email: 'nobody@example.com', password: 'wrong password' }),
      });
    expectProblem(await send('application/json; charset=utf-16'), 415, 'unsupported_media_type');
    expectProblem(await send('application/json; charset=latin1'), 415, 'unsupported_media_type');
    expectProblem(await send('application/json; charset=UTF-8'), 401, 'invalid_credentials');
  });

  it('refuses __proto__ as a field name by name, not as broken JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/cart/storefront/api/carts/add/',
      headers: { 'content-type': 'application/json' },
      payload: '{"product_variant_id":1,"quantity":1,"__proto__":{"admin":true}}',
    });
    const body = expectProblem(res, 422, 'validation_error');
    expect(body.errors).toEqual([{ field: '__proto__', message: 'is not an allowed field name' }]);
  });
});

describe('ordinary text in any script', () => {
  const name = 'Café 中文 😀';
  const city = 'Zürich 北京 🏔️';
  const first = 'Zoë 🙂';

  it('keeps accented letters, CJK and emoji (surrogate pairs) in accounts, addresses, products, orders', async () => {
    const signedUp = await t.app.inject({
      method: 'POST',
      url: '/user/storefront/api/signup/',
      payload: { email: uniqueEmail(), password: 'correct horse', first_name: first },
    });
    expect(signedUp.statusCode).toBe(201);
    expect(json(signedUp).user.first_name).toBe(first);

    const address = await t.app.inject({
      method: 'POST',
      url: '/user/storefront/api/addresses/',
      headers: asCustomer(),
      payload: { first_name: first, last_name: 'L', street_address: '1 Rue 🏠', city, country: 'CH' },
    });
    expect(address.statusCode).toBe(201);
    expect(json(address)).toMatchObject({ first_name: first, city, street_address: '1 Rue 🏠' });

    const product = await t.app.inject(
      adminSends('POST', '/product/dashboard/api/products/', {
        name,
        variants: [{ alias: 'unicode-1', name: '☕️ grande', price: '3.50', stock: 10 }],
      }),
    );
    expect(product.statusCode).toBe(201);
    const search = `/product/dashboard/api/products/?q=${encodeURIComponent('中文 😀')}`;
    const found = json(await t.app.inject({ method: 'GET', url: search, headers: asAdmin() }));
    expect(found.items.map((p: { name: string }) => p.name)).toEqual([name]);

    const order = json(
      await t.app.inject({
        method: 'POST',
        url: '/order/storefront/api/guest-user-order-create/',
        payload: {
          variants: [{ alias: 'unicode-1', quantity: 1 }],
          shipping_address: { country: 'GB', email: 'zoe@example.com', city, first_name: first },
        },
      }),
    );
    const placed = await t.app.inject({
      method: 'GET',
      url: `/order/storefront/api/orders/${order.order_alias}/`,
      headers: { 'x-order-token': order.order_token },
    });
    expect(json(placed).shipping_address).toMatchObject({ city, first_name: first });
  });
});

describe('hostile market codes in the X-Market header and the payload', () => {
  // Each names no market: it is a 422 problem naming where it came from, whatever route it reaches, and nothing is
  // written. "\u212AW" is KELVIN SIGN + W, which JavaScript lower-cases to "kw", the code of a market made here: a code
  // is matched only as the ASCII it is stored as, never after Unicode case mapping.
  const HOSTILE_CODES = [
    'x'.repeat(5000),
    '\u212AW',
    'ｋｗ',
    'kw\u0301',
    '日本',
    'k\u0000w',
    'k\tw',
    'kw\u0007',
    "kw' or '1'='1",
    'kw; drop table markets; --',
    '%6b%77',
    'kw,eu',
    '*',
  ];
  const walkOrder = {
    variants: [{ alias: 'walk-1', quantity: 1 }],
    shipping_address: { first_name: 'Ada', last_name: 'L', country: 'GB', email: 'market-walk@example.com' },
  };
  const orderCount = async () => (await t.database.db.select({ n: count() }).from(orders))[0]?.n;

  beforeAll(async () => {
    await apiAs(t, admin).post('/market/dashboard/api/markets/', {
      code: 'kw',
      name: 'Kuwait',
      currency: 'KWD',
      exchange_rate: '0.3075',
      countries: ['KW'],
    });
  });

  it('refuses each in the header of the catalog, the cart, the estimate and a placement (422, no write)', async () => {
    const before = await orderCount();
    const cartsBefore = (await t.database.db.select({ n: count() }).from(carts))[0]?.n;
    for (const code of HOSTILE_CODES) {
      const headers = { 'x-market': code };
      const requests: InjectOptions[] = [
        { method: 'GET', url: '/product/storefront/api/products/', headers },
        { method: 'GET', url: '/cart/storefront/api/carts/', headers },
        {
          method: 'POST',
          url: '/cart/storefront/api/carts/add/',
          headers,
          payload: { product_variant_id: fixtures.product_variant_id, quantity: 1 },
        },
        { method: 'POST', url: '/order/storefront/api/estimate/', headers, payload: walkOrder },
        { method: 'POST', url: '/order/storefront/api/guest-user-order-create/', headers, payload: walkOrder },
      ];
      for (const request of requests) {
        const res = await t.app.inject(request);
        const what = `${request.method} ${request.url} x-market=${JSON.stringify(code.slice(0, 20))}`;
        expect(res.statusCode, `${what}: ${res.body}`).toBe(422);
        expect(res.headers['content-type'], what).toMatch(/^application\/problem\+json/);
        expect(json(res).errors?.[0]?.field, what).toBe('headers.x-market');
      }
    }
    expect(await orderCount()).toBe(before);
    expect(await t.database.db.select({ n: count() }).from(carts)).toEqual([{ n: cartsBefore }]);
  });

  it('refuses the header sent twice, whatever the two say', async () => {
    for (const values of [
      ['kw', 'kw'],
      ['kw', 'default'],
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/order/storefront/api/estimate/',
        headers: { 'x-market': values },
        payload: walkOrder,
      });
      expect(json(res).errors, res.body).toEqual([{ field: 'headers.x-market', message: expect.any(String) }]);
      expectProblem(res, 422, 'unknown_market');
    }
  });

  it('refuses each as the payload’s market of an estimate and a placement (422, nothing placed)', async () => {
    const before = await orderCount();
    for (const code of [...HOSTILE_CODES.filter((c) => c.length <= 64), 'x'.repeat(65)]) {
      for (const url of ['/order/storefront/api/estimate/', '/order/storefront/api/guest-user-order-create/']) {
        const res = await t.app.inject({ method: 'POST', url, payload: { ...walkOrder, market: code } });
        const what = `${url} market=${JSON.stringify(code.slice(0, 20))}`;
        expect(res.statusCode, `${what}: ${res.body}`).toBe(422);
        expect(res.headers['content-type'], what).toMatch(/^application\/problem\+json/);
        expect(json(res).errors?.[0]?.field, what).toBe('market');
      }
    }
    expect(await orderCount()).toBe(before);
  });
});
