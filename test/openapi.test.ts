import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoIfEmpty } from '../src/demo/demo-seed.js';
import { compileBodyValidator } from '../src/http/validation.js';
import { currencyExponent } from '../src/shared/currency.js';
import { bearer, buildTestApp, json, type SignedIn, signInAdmin, type TestApp } from './helpers.js';

/** The parts of /openapi.json these tests read. */
interface Media {
  schema?: Record<string, unknown>;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
interface Operation {
  parameters?: { in: string; name: string; required?: boolean; schema?: Record<string, unknown> }[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { headers?: Record<string, unknown> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
}

let t: TestApp;
let admin: SignedIn;
let doc: Document;
beforeAll(async () => {
  t = await buildTestApp();
  // The demo store: the examples name its variants (`demo-tshirt-s`), its shipping method 1 and its tax classes.
  await seedDemoIfEmpty(t.database.db, currencyExponent(t.config.storeCurrency), t.config.storeCurrency);
  admin = await signInAdmin(t);
  doc = json(await t.app.inject({ method: 'GET', url: '/openapi.json' }));
});
afterAll(() => t.close());

/** Every operation of the document, in its order: `POST /user/storefront/api/signup/`. */
function operations(): { name: string; method: string; path: string; operation: Operation }[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      name: `${method.toUpperCase()} ${path}`,
      method: method.toUpperCase(),
      path,
      operation,
    })),
  );
}

/** The examples of an operation's JSON body: its media type's `example` or `examples`. */
function bodyExamples(operation: Operation): unknown[] {
  const media = operation.requestBody?.content['application/json'];
  if (media === undefined) return [];
  const named = Object.values(media.examples ?? {}).map((e) => e.value);
  return media.example === undefined ? named : [media.example, ...named];
}

/** Path parameters of the examples' requests: rows the demo store (or an earlier example) has. */
const pathValues: Record<string, string> = {
  id: '1',
  product_variant_id: '1',
  order_alias: '00000000-0000-4000-8000-000000000000',
  payment_plugin_id: 'sandbox',
};

/** The example of the operation's JSON body (the first, where there are several). */
function exampleOf(path: string, method: string): unknown {
  const operation = doc.paths[path]?.[method];
  if (operation === undefined) throw new Error(`no ${method} ${path}`);
  return bodyExamples(operation)[0];
}

/** Every `examples` array in a schema, with the schema it illustrates. */
function schemaExamples(schema: unknown, at = ''): { at: string; schema: Record<string, unknown>; example: unknown }[] {
  if (typeof schema !== 'object' || schema === null) return [];
  if (Array.isArray(schema)) return schema.flatMap((item, i) => schemaExamples(item, `${at}/${i}`));
  const own = schema as Record<string, unknown>;
  const found = Array.isArray(own.examples) ? own.examples.map((example) => ({ at, schema: own, example })) : [];
  const nested = Object.entries(own)
    .filter(([keyword]) => !['examples', 'example', 'default', 'const', 'enum'].includes(keyword))
    .flatMap(([keyword, value]) => schemaExamples(value, `${at}/${keyword}`));
  return [...found, ...nested];
}

describe('the OpenAPI document', () => {
  it('gives every operation that takes a body an example of it', () => {
    const withBody = operations().filter((op) => op.operation.requestBody?.content['application/json']);
    expect(withBody.length).toBeGreaterThan(30);
    const without = withBody.filter((op) => bodyExamples(op.operation).length === 0).map((op) => op.name);
    expect(without).toEqual([]);
  });

  it('gives an estimate and a placement example that work as written on a fresh demo store', async () => {
    const estimate = await t.app.inject({
      method: 'POST',
      url: '/order/storefront/api/estimate/',
      payload: exampleOf('/order/storefront/api/estimate/', 'post') as object,
    });
    expect(estimate.statusCode, estimate.body).toBe(200);
    const placement = exampleOf('/order/storefront/api/create/', 'post') as { expected_total: string };
    expect(json(estimate).total).toBe(placement.expected_total);
    const placed = await t.app.inject({ method: 'POST', url: '/order/storefront/api/create/', payload: placement });
    expect(placed.statusCode, placed.body).toBe(201);
    // The order the next examples (status change, payment) act on.
    pathValues.order_alias = json(placed).order_alias;
  });

  it('gives examples the routes accept: no body example is refused as invalid', async () => {
    const refused: string[] = [];
    // In the document's order: a collection's POST creates the row its PATCH example then changes (id 1).
    for (const { name, method, path, operation } of operations()) {
      for (const example of bodyExamples(operation)) {
        const url = path.replace(/\{(\w+)\}/g, (_, param: string) => pathValues[param] ?? '1');
        const res = await t.app.inject({
          method: method as 'POST',
          url,
          headers: bearer(admin.access),
          payload: example as object,
        });
        const code = res.headers['content-type']?.toString().includes('problem') ? json(res).code : undefined;
        if (res.statusCode === 400 || code === 'validation_error')
          refused.push(`${name}: ${res.statusCode} ${res.body}`);
      }
    }
    expect(refused).toEqual([]);
  });

  it('gives examples of fields their own schemas accept', () => {
    const wrong = operations().flatMap(({ name, operation }) =>
      schemaExamples(operation.requestBody?.content['application/json']?.schema)
        .filter(({ schema, example }) => {
          const { examples: _examples, ...rest } = schema;
          return !compileBodyValidator(rest)(example);
        })
        .map(({ at, example }) => `${name} ${at}: ${JSON.stringify(example)}`),
    );
    expect(wrong).toEqual([]);
  });

  it('lets a client leave out what the API defaults: quantity, limit', () => {
    const add = doc.paths['/cart/storefront/api/carts/add/']?.post;
    expect(add?.requestBody?.content['application/json']?.schema?.required).toEqual(['product_variant_id']);
    const list = doc.paths['/product/storefront/api/products/']?.get;
    expect(list?.parameters?.find((p) => p.name === 'limit')?.required).toBe(false);
  });

  it('types every page cursor as the text next_cursor is, and the server takes that text', async () => {
    const cursors = operations().flatMap(({ name, operation }) =>
      (operation.parameters ?? []).filter((p) => p.in === 'query' && p.name === 'cursor').map((p) => ({ name, p })),
    );
    expect(cursors.length).toBeGreaterThanOrEqual(7);
    for (const { name, p } of cursors) expect(p.schema?.type, name).toBe('string');
    const first = json(await t.app.inject({ method: 'GET', url: '/product/storefront/api/products/?limit=1' }));
    expect(typeof first.next_cursor).toBe('string');
    const next = await t.app.inject({
      method: 'GET',
      url: `/product/storefront/api/products/?limit=1&cursor=${first.next_cursor}`,
    });
    expect(next.statusCode).toBe(200);
  });

  it('documents the guest tokens: X-Cart-Token at sign-in and on the cart, X-Order-Token to read or pay', () => {
    const header = (path: string, method: string, name: string) =>
      doc.paths[path]?.[method]?.parameters?.find((p) => p.in === 'header' && p.name === name);
    for (const path of [
      '/user/storefront/api/signup/',
      '/user/storefront/api/login/',
      '/cart/storefront/api/carts/add/',
    ]) {
      expect(header(path, 'post', 'x-cart-token'), path).toBeDefined();
    }
    expect(doc.paths['/cart/storefront/api/carts/']?.get?.responses['200']?.headers?.['x-cart-token']).toBeDefined();
    expect(header('/order/storefront/api/orders/{order_alias}/', 'get', 'x-order-token')).toBeDefined();
    const pay = '/payment/storefront/api/start-payment/{payment_plugin_id}/';
    expect(header(pay, 'post', 'x-order-token')).toBeDefined();
    expect(header(pay, 'post', 'idempotency-key')).toBeDefined();
    expect(header('/order/storefront/api/create/', 'post', 'idempotency-key')).toBeDefined();
  });
});
