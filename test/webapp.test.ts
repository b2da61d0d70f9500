import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompress } from '../scripts/build.mjs';
import { loadWebApps } from '../src/webapp/webapp.js';
import { buildTestApp, expectProblem, type TestApp } from './helpers.js';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/** A style sheet worth compressing. */
const STYLES = Array.from({ length: 200 }, (_, i) => `.c${i} { margin: ${i}px; }`).join('\n');

/** A dist/public as vite builds it (two pages and hashed assets), precompressed as scripts/build.mjs does. */
function builtApps(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sf-web-'));
  mkdirSync(path.join(root, 'admin'));
  mkdirSync(path.join(root, 'assets'));
  writeFileSync(
    path.join(root, 'index.html'),
    '<!doctype html><title>shop</title><script src="/assets/s-1a2b.js"></script>',
  );
  writeFileSync(path.join(root, 'admin', 'index.html'), '<!doctype html><title>dashboard</title>');
  writeFileSync(path.join(root, 'assets', 's-1a2b.js'), 'console.log("shop")');
  writeFileSync(path.join(root, 'assets', 'styles-3c4d.css'), STYLES);
  precompress(path.join(root, 'assets'));
  return root;
}

describe('the web apps', () => {
  let t: TestApp;
  let root: string;
  beforeAll(async () => {
    root = builtApps();
    t = await buildTestApp({ webApps: loadWebApps(root) ?? null });
  });
  afterAll(async () => {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('gives a browser the storefront at / and an API client the JSON', async () => {
    const page = await t.app.inject({ url: '/', headers: { accept: BROWSER } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<title>shop</title>');
    expect(page.headers['cache-control']).toBe('no-cache');
    const api = await t.app.inject({ url: '/' });
    expect(api.json()).toMatchObject({ name: 'Storefront', currency: 'USD' });
  });

  it("gives a browser the storefront's page for its client-side routes, the dashboard's under /admin/", async () => {
    for (const url of ['/products/3', '/cart', '/checkout?step=2', '/account/orders/abc']) {
      const page = await t.app.inject({ url, headers: { accept: BROWSER } });
      expect(page.statusCode, url).toBe(200);
      expect(page.body, url).toContain('<title>shop</title>');
    }
    for (const url of ['/admin', '/admin/', '/admin/orders/12', '/admin/promotions']) {
      const page = await t.app.inject({ url, headers: { accept: BROWSER } });
      expect(page.statusCode, url).toBe(200);
      expect(page.body, url).toContain('<title>dashboard</title>');
    }
  });

  it('keeps problem+json 404s for API paths, API clients and other methods', async () => {
    expectProblem(
      await t.app.inject({ url: '/product/storefront/api/nothing-here/', headers: { accept: BROWSER } }),
      404,
      'route_not_found',
    );
    expectProblem(await t.app.inject({ url: '/cart' }), 404, 'route_not_found');
    expectProblem(
      await t.app.inject({ method: 'POST', url: '/cart', headers: { accept: BROWSER } }),
      404,
      'route_not_found',
    );
  });

  it('serves hashed assets for a year, immutable, and a missing asset is a 404', async () => {
    const asset = await t.app.inject({ url: '/assets/s-1a2b.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.body).toContain('shop');
    expect((await t.app.inject({ url: '/assets/nope-0000.js' })).statusCode).toBe(404);
  });

  it('sends assets as the build compressed them: brotli, else gzip, else as they are', async () => {
    const url = '/assets/styles-3c4d.css';
    const br = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^text\/css/);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(STYLES);
    const gz = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(STYLES);
    const plain = await t.app.inject({ url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(STYLES);
    // 19 bytes: compressing would make it longer, so the build wrote no .br or .gz for it.
    const tiny = await t.app.inject({ url: '/assets/s-1a2b.js', headers: { 'accept-encoding': 'br' } });
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body).toContain('shop');
  });

  it('lets pages load scripts from this origin only and never be framed', async () => {
    const page = await t.app.inject({ url: '/admin/', headers: { accept: BROWSER } });
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('without built web apps', () => {
  it('shows a browser a page of links saying how to build them', async () => {
    const t = await buildTestApp();
    try {
      const page = await t.app.inject({ url: '/', headers: { accept: BROWSER } });
      expect(page.body).toContain('npm run build');
      expectProblem(await t.app.inject({ url: '/cart', headers: { accept: BROWSER } }), 404, 'route_not_found');
    } finally {
      await t.close();
    }
  });

  it('finds nothing to serve in a folder without both pages', () => {
    expect(loadWebApps(os.tmpdir())).toBeUndefined();
  });
});
