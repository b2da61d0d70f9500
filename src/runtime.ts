import { ensureAdmin } from './auth/auth.service.js';
import { createDemoAdmin, type DemoAdmin, existingDemoAdmin } from './auth/demo-admin.js';
import { seedDemoIfEmpty } from './demo/demo-seed.js';
import { seedDemoImagesFor } from './demo/demo-images.js';
import { currencyExponent } from './shared/currency.js';
import { createTokenService, type TokenService } from './auth/tokens.js';
import type { Config } from './config.js';
import { type Database, type DatabaseTarget, openDatabase } from './db/client.js';
import { loadPaymentPlugins, type PaymentRegistry } from './payments/plugin-registry.js';
import { storeSecret } from './db/store-secrets.js';

export function databaseTarget(config: Config): DatabaseTarget {
  return config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : { kind: 'pglite', dataDir: config.dataDir };
}

/** What a process of the service holds: the open database and the token keys. */
export interface Runtime {
  database: Database;
  tokens: TokenService;
  payments: PaymentRegistry;
  /**
   * The demo store's admin when no admin is configured (ADMIN_EMAIL): made with a generated password at the start that
   * loads the demo store (then `password` is set, for that start to show once), found again at later starts.
   */
  demoAdmin?: DemoAdmin;
}

/**
 * Opens the database (migrated), loads the store's secrets, ensures the configured admin and, on a new demo store,
 * makes the demo admin.
 */
export async function openRuntime(config: Config, log: (message: string) => void = () => {}): Promise<Runtime> {
  // Plugins are configured first, so a misconfigured one stops the start before the database is
  // touched; the database opens when the first plugin secret is needed, or right after.
  let opening: Promise<Database> | undefined;
  const open = () => (opening ??= openDatabase(databaseTarget(config)));
  let payments: PaymentRegistry;
  try {
    payments = await loadPaymentPlugins({
      enabled: config.paymentPlugins,
      env: process.env,
      embeddedDatabase: config.databaseUrl === undefined,
      context: {
        publicBaseUrl: config.publicBaseUrl,
        secret: async (name) => storeSecret(await open(), { name: `plugin-${name}`, dataDir: config.dataDir }),
      },
      onSkipped: (id, reason) => log(`payment plugin ${id} not enabled: ${reason}`),
    });
  } catch (err) {
    await opening?.then(
      (opened) => opened.close(),
      () => {},
    );
    throw err;
  }
  const database = await open();
  try {
    const jwtSecret = config.jwtSecret ?? (await storeSecret(database, { name: 'jwt', dataDir: config.dataDir }));
    const tokens = createTokenService(jwtSecret);
    if (config.admin) await ensureAdmin(database.db, config.admin);
    let demoAdmin: DemoAdmin | undefined;
    if (config.seedDemo) {
      const added = await seedDemoIfEmpty(database.db, currencyExponent(config.storeCurrency), config.storeCurrency);
      if (added > 0) await seedDemoImagesFor(database.db, config);
      if (!config.admin) {
        demoAdmin = added > 0 ? await createDemoAdmin(database.db) : await existingDemoAdmin(database.db);
      }
    }
    return { database, tokens, payments, demoAdmin };
  } catch (err) {
    await database.close();
    throw err;
  }
}
