import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config.js';
import { installedPluginIds, loadPaymentPlugins, type RegistryOptions } from '../src/payments/plugin-registry.js';
import { bearer, buildTestApp, expectProblem, json, type TestApp } from './helpers.js';

const base: RegistryOptions = {
  enabled: undefined,
  env: {},
  embeddedDatabase: true,
  context: { publicBaseUrl: 'http://127.0.0.1:8000', secret: (name) => `secret-${name}-0123456789abcdef0123456789` },
};

async function configError(options: Partial<RegistryOptions>): Promise<ConfigError> {
  try {
    await loadPaymentPlugins({ ...base, ...options });
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

/** A third-party plugin as an npm package would ship it: a module default-exporting a plugin. */
function externalPlugin(source: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sf-plugin-'));
  const file = path.join(dir, 'index.mjs');
  writeFileSync(file, source);
  return pathToFileURL(file).href;
}

describe('plugin discovery', () => {
  it('finds every plugin folder without a central list', () => {
    expect(installedPluginIds()).toEqual(expect.arrayContaining(['cash_on_delivery']));
  });

  it('enables installed plugins that are configured and skips the others', async () => {
    const skipped: string[] = [];
    const registry = await loadPaymentPlugins({ ...base, onSkipped: (id) => skipped.push(id) });
    const ids = registry.list().map((p) => p.id);
    expect(ids).toContain('cash_on_delivery');
    expect([...ids, ...skipped].sort()).toEqual(installedPluginIds());
  });

  it('narrows to PAYMENT_PLUGINS', async () => {
    const registry = await loadPaymentPlugins({ ...base, enabled: ['cash_on_delivery'] });
    expect(registry.list().map((p) => p.id)).toEqual(['cash_on_delivery']);
  });

  it('stops with a message naming an unknown plugin', async () => {
    const err = await configError({ enabled: ['bitcoin_wallet'] });
    expect(err.variable).toBe('PAYMENT_PLUGINS');
    expect(err.message).toContain('bitcoin_wallet');
  });

  it('loads a plugin from a package named in PAYMENT_PLUGINS', async () => {
    const specifier = externalPlugin(`export default {
      id: 'acme_pay', name: 'Acme Pay',
      configure: (env) => env.ACME_KEY ? { key: env.ACME_KEY } : undefined,
      create: () => ({
        start: async (i) => ({ redirectUrl: 'https://acme.example/pay/' + i.reference, gatewayRef: 'acme_1' }),
        parseWebhook: async () => [],
      }),
    };`);
    const registry = await loadPaymentPlugins({ ...base, enabled: [specifier], env: { ACME_KEY: 'k' } });
    expect(registry.list().map((p) => [p.id, p.name])).toEqual([['acme_pay', 'Acme Pay']]);
    const unconfigured = await configError({ enabled: [specifier] });
    expect(unconfigured.message).toMatch(/acme_pay is enabled but not configured/);
  });

  it('refuses a package that exports no plugin, or a plugin with a bad id', async () => {
    expect((await configError({ enabled: [externalPlugin('export default 42;')] })).message).toMatch(
      /does not export a payment plugin/,
    );
    const badId = externalPlugin(
      "export default { id: 'Acme-Pay', name: 'x', configure: () => ({}), create: () => ({}) };",
    );
    expect((await configError({ enabled: [badId] })).message).toMatch(/lowercase words/);
  });

  it("stops when a plugin's own configuration is wrong, naming the plugin and its message", async () => {
    const pluginContract = pathToFileURL(path.resolve('src/payments/payment-plugin.ts')).href;
    const specifier = externalPlugin(`import { PluginConfigError } from ${JSON.stringify(pluginContract)};
      export default {
        id: 'strict_pay',
        name: 'Strict',
        configure: () => { throw new PluginConfigError('STRICT_KEY must start with sk_'); },
        create: () => ({}),
      };`);
    const err = await configError({ enabled: [specifier] });
    expect(err.message).toBe('PAYMENT_PLUGINS: plugin strict_pay: STRICT_KEY must start with sk_');
  });
});

describe('payment API basics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ config: { paymentPlugins: ['cash_on_delivery'] } });
  });
  afterAll(() => t.close());

  it('lists the enabled plugins', async () => {
    expect(json(await t.app.inject({ method: 'GET', url: '/payment/storefront/api/plugins/' }))).toEqual([
      { id: 'cash_on_delivery', name: 'Cash on delivery', manual_capture: true },
    ]);
  });

  it('answers an unknown or disabled plugin with 404 payment_plugin_not_found', async () => {
    const body = { order_alias: '00000000-0000-0000-0000-000000000000' };
    expectProblem(
      await t.app.inject({ method: 'POST', url: '/payment/storefront/api/start-payment/stripe/', payload: body }),
      404,
      'payment_plugin_not_found',
    );
    expectProblem(
      await t.app.inject({
        method: 'POST',
        url: '/payment/storefront/api/webhook-view/nope/',
        payload: '{}',
        headers: { 'content-type': 'application/json' },
      }),
      404,
      'payment_plugin_not_found',
    );
    expectProblem(
      await t.app.inject({ method: 'POST', url: '/payment/storefront/api/start-payment/Bad-Id/', payload: body }),
      422,
      'validation_error',
    );
  });

  it('refuses a webhook to a plugin that takes none with 400', async () => {
    expectProblem(
      await t.app.inject({
        method: 'POST',
        url: '/payment/storefront/api/webhook-view/cash_on_delivery/',
        payload: 'anything',
        headers: { 'content-type': 'text/plain' },
      }),
      400,
      'invalid_signature',
    );
  });

  it('validates the start-payment body', async () => {
    expectProblem(
      await t.app.inject({
        method: 'POST',
        url: '/payment/storefront/api/start-payment/cash_on_delivery/',
        payload: { order_alias: 'x' },
      }),
      422,
      'validation_error',
    );
    expectProblem(
      await t.app.inject({
        method: 'POST',
        url: '/payment/storefront/api/start-payment/cash_on_delivery/',
        payload: { order_alias: '00000000-0000-0000-0000-000000000000', return_url: 'javascript:alert(1)' },
      }),
      422,
      'validation_error',
    );
    expectProblem(
      await t.app.inject({
        method: 'POST',
        url: '/payment/storefront/api/start-payment/cash_on_delivery/',
        payload: { order_alias: '00000000-0000-0000-0000-000000000000' },
      }),
      404,
      'order_not_found',
    );
  });

  it('keeps the admin payment routes for admins', async () => {
    expectProblem(
      await t.app.inject({ method: 'POST', url: '/payment/dashboard/api/payments/1/capture/' }),
      401,
      'unauthorized',
    );
    const customer = await (await import('./helpers.js')).signUp(t.app);
    expectProblem(
      await t.app.inject({
        method: 'POST',
        url: '/payment/dashboard/api/payments/1/capture/',
        headers: bearer(customer.access),
      }),
      403,
      'forbidden',
    );
  });
});
