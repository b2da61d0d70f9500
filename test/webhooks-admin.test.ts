import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  buildTestApp,
  expectProblem,
  json,
  type SignedIn,
  signInAdmin,
  signUp,
  type TestApp,
} from './helpers.js';

// The admin API of outbound webhooks: endpoints, their secret, deliveries' routes as far as they need no delivery
// (test/webhooks-delivery.test.ts sends them). This store refuses private addresses, as a production one does.

const closed = { allowPrivate: false, timeoutMs: 10_000, retryBaseMs: 5_000, retryMaxDelayMs: 3_600_000 };

let t: TestApp;
let admin: SignedIn;
let customer: SignedIn;
beforeAll(async () => {
  t = await buildTestApp({ config: { webhooks: closed } });
  admin = await signInAdmin(t);
  customer = await signUp(t.app);
});
afterAll(() => t.close());

const base = '/webhook/dashboard/api';
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const callAs =
  ({ token = admin.access }: { token?: string } = {}) =>
  (method: Method, url: string, payload?: object) =>
    t.app.inject({ method, url: `${base}${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });
const call = (method: Method, url: string, payload?: object) => callAs()(method, url, payload);
const fields = (body: { errors: { field: string }[] }) => body.errors.map((e) => e.field);

const valid = { url: 'https://hooks.example.com/storefront', events: ['order.placed', 'payment.succeeded'] };
const create = async (payload: object = valid) => {
  const res = await call('POST', '/endpoints/', payload);
  if (res.statusCode !== 201) throw new Error(`create endpoint: ${res.statusCode} ${res.body}`);
  return json(res);
};

describe('webhook endpoints', () => {
  it('creates an endpoint and shows its signing secret in that answer only', async () => {
    const created = await create({ ...valid, description: '  ERP sync  ' });
    expect(created).toMatchObject({
      url: 'https://hooks.example.com/storefront',
      events: ['order.placed', 'payment.succeeded'],
      description: 'ERP sync',
      is_active: true,
      disabled_reason: null,
      failing_since: null,
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(created.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);

    const read = json(await call('GET', `/endpoints/${created.id}/`));
    expect(read).not.toHaveProperty('secret');
    const { secret: _secret, ...shown } = created;
    expect(read).toEqual(shown);
    const listed = json(await call('GET', '/endpoints/'));
    expect(listed.find((e: { id: number }) => e.id === created.id)).toEqual(shown);
    expect(listed.every((e: object) => !('secret' in e))).toBe(true);
    expect(JSON.stringify(listed)).not.toContain(created.secret);
  });

  it('gives every endpoint a secret of its own', async () => {
    const [a, b] = await Promise.all([create(), create()]);
    expect(a.secret).not.toBe(b.secret);
  });

  it('changes, switches off and deletes an endpoint', async () => {
    const created = await create();
    const url = `/endpoints/${created.id}/`;
    const changed = json(
      await call('PATCH', url, {
        url: 'http://hooks.example.com:8080/in',
        events: ['order.cancelled'],
        is_active: false,
      }),
    );
    expect(changed).toMatchObject({
      url: 'http://hooks.example.com:8080/in',
      events: ['order.cancelled'],
      is_active: false,
      disabled_reason: null,
    });
    expect(changed).not.toHaveProperty('secret');
    expect(json(await call('PATCH', url, { description: 'kept' }))).toMatchObject({
      description: 'kept',
      events: ['order.cancelled'],
    });
    expect((await call('DELETE', url)).statusCode).toBe(204);
    expectProblem(await call('GET', url), 404, 'webhook_endpoint_not_found');
    expectProblem(await call('PATCH', url, { description: 'x' }), 404, 'webhook_endpoint_not_found');
    expectProblem(await call('DELETE', url), 404, 'webhook_endpoint_not_found');
    expectProblem(await call('POST', `${url}rotate-secret/`), 404, 'webhook_endpoint_not_found');
    expectProblem(await call('GET', `${url}deliveries/`), 404, 'webhook_endpoint_not_found');
  });

  it('rotates the secret: the answer shows the new one, reads never do', async () => {
    const created = await create();
    const rotated = json(await call('POST', `/endpoints/${created.id}/rotate-secret/`));
    expect(rotated.id).toBe(created.id);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    expect(json(await call('GET', `/endpoints/${created.id}/`))).not.toHaveProperty('secret');
  });

  it.each([
    [{ events: ['order.placed'] }, 'url'],
    [{ url: 'https://hooks.example.com/' }, 'events'],
    [{ ...valid, events: [] }, 'events'],
    [{ ...valid, events: ['order.placed', 'order.placed'] }, 'events'],
    [{ ...valid, events: ['order.shipped'] }, 'events[0]'],
    [{ ...valid, events: 'order.placed' }, 'events'],
    [{ ...valid, url: 'ftp://hooks.example.com/' }, 'url'],
    [{ ...valid, url: 'hooks.example.com/in' }, 'url'],
    [{ ...valid, url: 'https://user:secret@hooks.example.com/' }, 'url'],
    [{ ...valid, url: `https://hooks.example.com/${'x'.repeat(2048)}` }, 'url'],
    [{ ...valid, description: 'd'.repeat(501) }, 'description'],
    [{ ...valid, is_active: 'yes' }, 'is_active'],
    [{ ...valid, secret: 'whsec_mine' }, 'secret'],
  ])('refuses %o with 422 naming %s', async (payload, field) => {
    expect(fields(expectProblem(await call('POST', '/endpoints/', payload), 422, 'validation_error'))).toContain(field);
  });

  it.each([
    'http://127.0.0.1:9000/hook',
    'http://[::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://10.0.0.5/hook',
    'http://192.168.1.10/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://100.64.0.1/',
    'http://[fd00::1]/',
    'http://localhost:3000/hook',
    'http://2130706433/',
  ])('refuses %s with 422 while private addresses are not allowed, on create and on change', async (url) => {
    const body = expectProblem(await call('POST', '/endpoints/', { ...valid, url }), 422, 'validation_error');
    expect(body.errors).toEqual([{ field: 'url', message: expect.stringMatching(/not a public address/) }]);
    const created = await create();
    expectProblem(await call('PATCH', `/endpoints/${created.id}/`, { url }), 422, 'validation_error');
    expect(json(await call('GET', `/endpoints/${created.id}/`)).url).toBe(valid.url);
  });

  it('lists a new endpoint with no deliveries', async () => {
    const created = await create();
    expect(json(await call('GET', `/endpoints/${created.id}/deliveries/`))).toEqual({ items: [], next_cursor: null });
    const bad = await call('GET', `/endpoints/${created.id}/deliveries/?status=lost`);
    expect(fields(expectProblem(bad, 422, 'validation_error'))).toContain('querystring.status');
  });

  it('answers 404 for a delivery that does not exist', async () => {
    expectProblem(await call('GET', '/deliveries/99999/'), 404, 'webhook_delivery_not_found');
    expectProblem(await call('POST', '/deliveries/99999/redeliver/'), 404, 'webhook_delivery_not_found');
  });
});

describe('who may manage webhooks', () => {
  const routes: [Method, string][] = [
    ['GET', '/endpoints/'],
    ['POST', '/endpoints/'],
    ['GET', '/endpoints/1/'],
    ['PATCH', '/endpoints/1/'],
    ['DELETE', '/endpoints/1/'],
    ['POST', '/endpoints/1/rotate-secret/'],
    ['GET', '/endpoints/1/deliveries/'],
    ['GET', '/deliveries/1/'],
    ['POST', '/deliveries/1/redeliver/'],
  ];

  it.each(routes)('%s %s: 401 without a token, 403 for a customer', async (method, url) => {
    const payload = method === 'POST' || method === 'PATCH' ? valid : undefined;
    const guest = await t.app.inject({ method, url: `${base}${url}`, ...(payload ? { payload } : {}) });
    expectProblem(guest, 401, 'unauthorized');
    expectProblem(await callAs({ token: customer.access })(method, url, payload), 403, 'forbidden');
  });

  it('lists every route in the OpenAPI document', async () => {
    const doc = json(await t.app.inject({ method: 'GET', url: '/openapi.json' }));
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        `${base}/endpoints/`,
        `${base}/endpoints/{id}/`,
        `${base}/endpoints/{id}/rotate-secret/`,
        `${base}/endpoints/{id}/deliveries/`,
        `${base}/deliveries/{id}/`,
        `${base}/deliveries/{id}/redeliver/`,
      ]),
    );
  });
});
