import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ConfigError } from '../config.js';
import {
  type PaymentCapability,
  type PaymentGateway,
  type PaymentPlugin,
  type PluginContext,
  PluginConfigError,
} from './payment-plugin.js';

/** A plugin that is installed, configured and enabled. */
export interface EnabledPlugin {
  id: string;
  name: string;
  manualCapture: boolean;
  /** What the plugin declared it can do (PaymentCapability), checked against the gateway's methods at start. */
  capabilities: ReadonlySet<PaymentCapability>;
  gateway: PaymentGateway;
}

/** The gateway method each capability needs: a plugin declaring one without the other does not start. */
const capabilityMethods: Partial<Record<PaymentCapability, keyof PaymentGateway>> = {
  capture: 'capture',
  partial_capture: 'capture',
  void: 'void',
  refund: 'refund',
  partial_refund: 'refund',
};

/** A plugin's capabilities: as declared, or, for a plugin that declares none, refunds when it can refund. */
function capabilitiesOf(plugin: PaymentPlugin<unknown>, gateway: PaymentGateway): ReadonlySet<PaymentCapability> {
  const declared: readonly PaymentCapability[] =
    plugin.capabilities ?? (gateway.refund ? ['refund', 'partial_refund'] : []);
  for (const capability of declared) {
    const method = capabilityMethods[capability];
    if (method !== undefined && typeof gateway[method] !== 'function')
      throw new PluginConfigError(`plugin ${plugin.id} declares ${capability} but its gateway has no ${method}()`);
  }
  return new Set(declared);
}

export interface PaymentRegistry {
  get(id: string): EnabledPlugin | undefined;
  list(): EnabledPlugin[];
  /** Lets self-hosted gateways deliver webhooks into the app once it exists. */
  bindWebhookDelivery(
    deliver: (
      pluginId: string,
      request: { headers: Record<string, string>; rawBody: Buffer },
    ) => Promise<{ status: number }>,
  ): void;
}

/**
 * The plugins whose payments an admin records by hand (cash on delivery): an open one keeps its order from expiring.
 */
export function manualCapturePluginIds(registry: PaymentRegistry): string[] {
  return registry
    .list()
    .filter((p) => p.manualCapture)
    .map((p) => p.id);
}

const PLUGIN_ID = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
const pluginsDir = fileURLToPath(new URL('./plugins/', import.meta.url));

/** The plugin folders shipped with the service: each `plugins/<id>/index.(ts|js)`. */
export function installedPluginIds(): string[] {
  if (!existsSync(pluginsDir)) return [];
  return readdirSync(pluginsDir, { withFileTypes: true })
    .filter(
      (d) =>
        d.isDirectory()
        && PLUGIN_ID.test(d.name)
        && ['index.js', 'index.ts'].some((f) => existsSync(path.join(pluginsDir, d.name, f))),
    )
    .map((d) => d.name)
    .sort();
}

function isPlugin(value: unknown): value is PaymentPlugin {
  const v = value as Partial<PaymentPlugin> | undefined;
  return (
    typeof v === 'object'
    && v !== null
    && typeof v.id === 'string'
    && typeof v.name === 'string'
    && typeof v.configure === 'function'
    && typeof v.create === 'function'
  );
}

async function importPlugin(specifier: string, where: string): Promise<PaymentPlugin> {
  const module = (await import(specifier)) as { default?: unknown; plugin?: unknown };
  const plugin = module.default ?? module.plugin;
  if (!isPlugin(plugin))
    throw new ConfigError(
      'PAYMENT_PLUGINS',
      `${where} does not export a payment plugin (default export with id, name, configure, create)`,
    );
  if (!PLUGIN_ID.test(plugin.id))
    throw new ConfigError(
      'PAYMENT_PLUGINS',
      `${where}: plugin id "${plugin.id}" must be lowercase words joined by "_"`,
    );
  return plugin;
}

async function loadInstalled(id: string): Promise<PaymentPlugin> {
  const file = ['index.js', 'index.ts'].map((f) => path.join(pluginsDir, id, f)).find((f) => existsSync(f));
  if (!file) throw new ConfigError('PAYMENT_PLUGINS', `no plugin folder ${id}`);
  const plugin = await importPlugin(pathToFileURL(file).href, `plugins/${id}`);
  if (plugin.id !== id)
    throw new ConfigError(
      'PAYMENT_PLUGINS',
      `plugins/${id} declares the id "${plugin.id}"; a plugin's id must equal its folder name`,
    );
  return plugin;
}

export interface RegistryOptions {
  /** PAYMENT_PLUGINS: ids of installed plugins or npm package names; undefined means every installed one. */
  enabled: string[] | undefined;
  env: Record<string, string | undefined>;
  embeddedDatabase: boolean;
  context: Omit<PluginContext, 'deliverWebhook' | 'secret'> & {
    /** The store's secret of this name (`<plugin id>-<name>`), called for each secret a plugin declares. */
    secret(name: string): string | Promise<string>;
  };
  /** Told about installed plugins left off because they are not configured. */
  onSkipped?: (id: string, reason: string) => void;
}

/**
 * Discovers the installed plugins (no central list: a folder is a plugin) and the npm packages
 * PAYMENT_PLUGINS names, validates each enabled plugin's configuration, and creates its gateway.
 * A plugin PAYMENT_PLUGINS names that is missing or misconfigured stops the service, before any
 * secret is asked for (the service's secrets live in the database: it is not touched then).
 */
export async function loadPaymentPlugins(options: RegistryOptions): Promise<PaymentRegistry> {
  const installed = installedPluginIds();
  const explicit = options.enabled !== undefined;
  const wanted = options.enabled ?? installed;
  let deliver: Parameters<PaymentRegistry['bindWebhookDelivery']>[0] | undefined;
  const enabled = new Map<string, EnabledPlugin>();
  // Every plugin is configured before any is created, so a bad setting stops the start first.
  const configured: { plugin: PaymentPlugin; config: unknown }[] = [];

  for (const name of wanted) {
    const plugin = installed.includes(name)
      ? await loadInstalled(name)
      : await importPlugin(name, `package "${name}"`).catch((err: unknown) => {
          if (err instanceof ConfigError) throw err;
          throw new ConfigError(
            'PAYMENT_PLUGINS',
            `"${name}" is neither an installed plugin (${installed.join(', ')}) `
              + `nor an importable package: ${(err as Error).message}`,
          );
        });
    if (configured.some((c) => c.plugin.id === plugin.id)) {
      throw new ConfigError('PAYMENT_PLUGINS', `plugin "${plugin.id}" is named twice`);
    }
    let config: unknown;
    try {
      config = plugin.configure(options.env, { explicit, embeddedDatabase: options.embeddedDatabase });
    } catch (err) {
      if (err instanceof PluginConfigError)
        throw new ConfigError('PAYMENT_PLUGINS', `plugin ${plugin.id}: ${err.message}`);
      throw err;
    }
    if (config === undefined) {
      if (explicit)
        throw new ConfigError('PAYMENT_PLUGINS', `plugin ${plugin.id} is enabled but not configured (see its README)`);
      options.onSkipped?.(plugin.id, 'not configured');
      continue;
    }
    configured.push({ plugin, config });
  }

  for (const { plugin, config } of configured) {
    const id = plugin.id;
    const secrets = new Map<string, string>();
    for (const secretName of plugin.secrets ?? []) {
      secrets.set(secretName, await options.context.secret(`${id}-${secretName}`));
    }
    const gateway = plugin.create(config, {
      ...options.context,
      secret: (secretName) => {
        const value = secrets.get(secretName);
        if (value === undefined) throw new Error(`plugin ${id} reads the undeclared secret "${secretName}"`);
        return value;
      },
      deliverWebhook: (request) => {
        if (!deliver) throw new Error('webhook delivery is not bound yet');
        return deliver(id, request);
      },
    });
    enabled.set(id, {
      id,
      name: plugin.name,
      manualCapture: plugin.manualCapture === true,
      capabilities: capabilitiesOf(plugin, gateway),
      gateway,
    });
  }

  return {
    get: (id) => enabled.get(id),
    list: () => [...enabled.values()],
    bindWebhookDelivery: (fn) => {
      deliver = fn;
    },
  };
}
