import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, expectProblem, json, type TestApp } from './helpers.js';

let t: TestApp;
const signupUrl = '/user/storefront/api/signup/';

beforeAll(async () => {
  t = await buildTestApp();
  t.app.get('/test/boom', async () => {
    throw new Error('secret internal detail at /srv/app/db.ts:42');
  });
  t.app.get('/test/db-down', async () => {
    throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  });
});
afterAll(() => t.close());

describe('errors are problem+json', () => {
  it('answers malformed JSON with 400 malformed_json', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: signupUrl,
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expectProblem(res, 400, 'malformed_json');
  });

  it('answers an empty JSON body with 400 malformed_json', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: signupUrl,
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expectProblem(res, 400, 'malformed_json');
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=x'])(
    'answers a %s body with 415 unsupported_media_type',
    async (type) => {
      const res = await t.app.inject({
        method: 'POST',
        url: signupUrl,
        headers: { 'content-type': type },
        payload: 'email=a',
      });
      expectProblem(res, 415, 'unsupported_media_type');
    },
  );

  it('answers a body without a content type with 415', async () => {
    const res = await t.app.inject({ method: 'POST', url: signupUrl, payload: Buffer.from('{"email":"a@b.co"}') });
    expectProblem(res, 415, 'unsupported_media_type');
  });

  it('answers a body over 1 MiB with 413 payload_too_large', async () => {
    const payload = JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(1024 * 1024) });
    const res = await t.app.inject({
      method: 'POST',
      url: signupUrl,
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expectProblem(res, 413, 'payload_too_large');
  });

  it('answers an unknown route with 404 route_not_found', async () => {
    expectProblem(await t.app.inject({ method: 'GET', url: '/no/such/route/' }), 404, 'route_not_found');
    expectProblem(await t.app.inject({ method: 'DELETE', url: '/user/storefront/api/login/' }), 404, 'route_not_found');
  });

  it('answers a route with or without its trailing slash', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/user/storefront/api/me' });
    expectProblem(res, 401, 'unauthorized');
  });

  it('names every bad field, in request notation, for a 422', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: signupUrl,
      payload: { email: 5, password: 'short', role: 'admin' },
    });
    const body = expectProblem(res, 422, 'validation_error');
    const fields = body.errors.map((e: { field: string }) => e.field).sort();
    expect(fields).toEqual(['email', 'password', 'role']);
    expect(body.errors.find((e: { field: string }) => e.field === 'role').message).toBe('is not an allowed field');
  });

  it('reports a missing field as required', async () => {
    const body = expectProblem(
      await t.app.inject({ method: 'POST', url: signupUrl, payload: { email: 'a@b.co' } }),
      422,
      'validation_error',
    );
    expect(body.errors).toEqual([{ field: 'password', message: 'is required' }]);
  });

  it('never takes a string or a boolean for a number, nor a number for a string', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: signupUrl,
      payload: { email: 'a@b.co', password: 12345678 },
    });
    expectProblem(res, 422, 'validation_error');
  });

  it('refuses a JSON array or scalar where an object is expected', async () => {
    for (const payload of ['[]', '"x"', '42', 'null']) {
      const res = await t.app.inject({
        method: 'POST',
        url: signupUrl,
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect([400, 422]).toContain(res.statusCode);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
  });

  it('hides the cause of a 500 and returns the request id that is logged', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/test/boom', headers: { 'x-request-id': 'trace-123' } });
    const body = expectProblem(res, 500, 'internal_error');
    expect(res.body).not.toContain('secret internal detail');
    expect(res.body).not.toContain('db.ts');
    expect(body.request_id).toBe('trace-123');
    expect(res.headers['x-request-id']).toBe('trace-123');
  });

  it('answers 503 database_unavailable when the database cannot be reached', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/test/db-down' });
    expectProblem(res, 503, 'database_unavailable');
    expect(res.headers['retry-after']).toBe('5');
  });

  it('generates a request id when the client sends none or an unsafe one', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'bad id\nwith newline' },
    });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('operations endpoints', () => {
  it('reports the process up on /healthz and the database reachable on /readyz', async () => {
    expect(json(await t.app.inject({ method: 'GET', url: '/healthz' }))).toEqual({ status: 'ok' });
    expect(json(await t.app.inject({ method: 'GET', url: '/readyz' }))).toEqual({ status: 'ok' });
  });
});

describe('value-or-null fields', () => {
  it('report one error for a wrong value, not one per branch', async () => {
    const admin = await (await import('./helpers.js')).signInAdmin(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/product/dashboard/api/products/',
      headers: { authorization: `Bearer ${admin.access}` },
      payload: { name: 'X', variants: [{ name: 'A', price: '1.00', sku: 5 }] },
    });
    const body = expectProblem(res, 422, 'validation_error');
    expect(body.errors).toEqual([{ field: 'variants[0].sku', message: 'must be string' }]);
  });
});
