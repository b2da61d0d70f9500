import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactedPaths } from '../src/app.js';
import { bearer, buildTestApp, json, type TestApp } from './helpers.js';

const lines: string[] = [];
let t: TestApp;
beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  t = await buildTestApp({ logger: { level: 'info', stream, redact: { paths: redactedPaths, censor: '[redacted]' } } });
});
afterAll(() => t.close());

describe('OpenAPI document', () => {
  it('is generated from the route schemas as OpenAPI 3.1', async () => {
    const doc = json(await t.app.inject({ method: 'GET', url: '/openapi.json' }));
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/user/storefront/api/signup/',
        '/user/storefront/api/login/',
        '/user/storefront/api/token/refresh/',
        '/user/storefront/api/me/',
        '/user/storefront/api/addresses/',
        '/user/storefront/api/addresses/{id}/',
        '/healthz',
        '/readyz',
      ]),
    );
    const signup = doc.paths['/user/storefront/api/signup/'].post;
    expect(signup.requestBody.content['application/json'].schema.additionalProperties).toBe(false);
    expect(Object.keys(signup.responses)).toEqual(expect.arrayContaining(['201', '409', '422', '429']));
    expect(doc.components.schemas.Problem).toBeDefined();
    expect(doc.paths['/user/storefront/api/me/'].get.security).toEqual([{ bearerAuth: [] }]);
  });

  it('serves a reference page at /docs that loads nothing from another host', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const external = [...page.body.matchAll(/(?:src|href)="(https?:\/\/[^"]+)"/g)].map((m) => m[1]);
    expect(external).toEqual([]);
    const scripts = [...page.body.matchAll(/src="\.?\/?([^"]+\.js)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      const res = await t.app.inject({ method: 'GET', url: `/docs/${script?.replace(/^docs\//, '')}` });
      expect(res.statusCode, script).toBe(200);
    }
  });
});

describe('request logs', () => {
  it('writes one JSON line per request: method, route, status, duration and request id, no secrets', async () => {
    lines.length = 0;
    const signup = await t.app.inject({
      method: 'POST',
      url: '/user/storefront/api/signup/',
      payload: { email: 'logged@example.com', password: 'very secret password' },
      headers: { 'x-request-id': 'log-test-1' },
    });
    const { access, refresh } = json(signup);
    await t.app.inject({
      method: 'GET',
      url: '/user/storefront/api/me/',
      headers: { ...bearer(access), 'x-request-id': 'log-test-2' },
    });
    await t.app.inject({ method: 'POST', url: '/user/storefront/api/token/refresh/', payload: { refresh } });

    const entries = lines.map((l) => JSON.parse(l));
    const requests = entries.filter((e) => e.msg === 'request');
    expect(requests).toHaveLength(3);
    expect(requests[0]).toMatchObject({
      reqId: 'log-test-1',
      method: 'POST',
      route: '/user/storefront/api/signup/',
      status: 201,
      duration_ms: expect.any(Number),
    });
    expect(requests[1]).toMatchObject({
      reqId: 'log-test-2',
      method: 'GET',
      route: '/user/storefront/api/me/',
      status: 200,
    });
    const all = lines.join('\n');
    for (const secret of ['very secret password', access, refresh]) expect(all).not.toContain(secret);
  });
});
