import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prefersHtml } from '../src/http/accept.js';
import { buildTestApp, json, type TestApp } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ config: { storeCurrency: 'EUR' } });
});
afterAll(() => t.close());

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

describe('GET /', () => {
  it('shows a browser a page naming the store and linking to the docs, OpenAPI and health checks', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/', headers: { accept: BROWSER_ACCEPT } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers.vary).toMatch(/accept/i);
    expect(res.body).toMatch(/^<!doctype html>/);
    expect(res.body).toContain('<title>Storefront</title>');
    expect(res.body).toContain('EUR');
    for (const href of ['/docs', '/openapi.json', '/healthz', '/readyz']) expect(res.body).toContain(`href="${href}"`);
  });

  it('answers an API client (no Accept, */*, or application/json) with JSON holding the same links', async () => {
    for (const accept of [undefined, '*/*', 'application/json', 'application/json, text/html']) {
      const res = await t.app.inject({ method: 'GET', url: '/', headers: accept === undefined ? {} : { accept } });
      expect(res.statusCode, accept).toBe(200);
      expect(res.headers['content-type'], accept).toBe('application/json; charset=utf-8');
      expect(json(res)).toEqual({
        name: 'Storefront',
        description: expect.any(String),
        currency: 'EUR',
        links: { docs: '/docs', openapi: '/openapi.json', health: '/healthz', readiness: '/readyz' },
      });
    }
  });

  it('links only to paths that answer', async () => {
    const { links } = json(await t.app.inject({ method: 'GET', url: '/' })) as { links: Record<string, string> };
    for (const href of Object.values(links)) {
      const res = await t.app.inject({ method: 'GET', url: href });
      expect(res.statusCode, href).toBeLessThan(400);
    }
  });

  it('is documented in the OpenAPI document with both media types, next to the health checks', async () => {
    const doc = json(await t.app.inject({ method: 'GET', url: '/openapi.json' }));
    const home = doc.paths['/'].get;
    expect(home.tags).toEqual(['operations']);
    expect(Object.keys(home.responses['200'].content)).toEqual(['application/json', 'text/html']);
  });
});

describe('choosing HTML or JSON from Accept', () => {
  it('prefers HTML only when text/html outweighs JSON', () => {
    expect(prefersHtml(BROWSER_ACCEPT)).toBe(true);
    expect(prefersHtml('text/html')).toBe(true);
    expect(prefersHtml('application/json;q=0.5, text/html')).toBe(true);
    expect(prefersHtml(undefined)).toBe(false);
    expect(prefersHtml('*/*')).toBe(false);
    expect(prefersHtml('text/html;q=0, */*')).toBe(false);
    expect(prefersHtml('text/*;q=0.5, application/json')).toBe(false);
    expect(prefersHtml('text/html, application/json')).toBe(false);
  });
});
