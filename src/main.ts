import { buildApp, redactedPaths } from './app.js';
import { dashboardNotice } from './auth/demo-admin.js';
import { ConfigError, loadConfig } from './config.js';
import { DataDirLockedError } from './db/data-dir-lock.js';
import { DatabaseOpenError } from './db/open-errors.js';
import { readServerSettingWarnings } from './db/server-settings.js';
import { purgeExpiredIdempotencyKeys } from './orders/idempotency.js';
import { openRuntime } from './runtime.js';

const SHUTDOWN_GRACE_MS = 10_000;
const NOTICE_AFTER_LOGS_MS = 100;

async function main(): Promise<void> {
  const config = loadConfig();
  const skipped: string[] = [];
  const { demoAdmin, ...runtime } = await openRuntime(config, (message) => skipped.push(message));
  const app = await buildApp({
    config,
    ...runtime,
    processMetrics: true,
    logger: { level: config.logLevel, redact: { paths: redactedPaths, censor: '[redacted]' } },
  });

  // Idempotency keys are kept 24 hours; sweep the expired ones every hour.
  const sweep = () =>
    purgeExpiredIdempotencyKeys(runtime.database.db)
      .then((n) => n > 0 && app.log.info({ deleted: n }, 'expired idempotency keys purged'))
      .catch((err: unknown) => app.log.warn({ err }, 'idempotency key purge failed'));
  const sweeper = setInterval(sweep, 3_600_000);
  sweeper.unref();
  void sweep();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const timer = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    timer.unref();
    clearInterval(sweeper);
    try {
      await app.close();
    } finally {
      await runtime.database.close();
    }
    app.log.info('stopped');
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await runtime.database.close();
    throw err;
  }
  for (const message of skipped) app.log.info(message);
  for (const warning of await readServerSettingWarnings(runtime.database)) app.log.warn(warning);
  app.log.info({ payment_plugins: runtime.payments.list().map((p) => p.id) }, 'payment plugins enabled');
  // Where emails go, never the credentials in SMTP_URL.
  const smtp = config.smtpUrl === undefined ? undefined : new URL(config.smtpUrl);
  app.log.info(
    smtp ? { smtp: `${smtp.protocol}//${smtp.host}`, from: config.mailFrom.address } : {},
    smtp ? 'customer emails sent over SMTP' : 'customer emails not sent (SMTP_URL not set)',
  );
  app.log.info(
    { database: runtime.database.kind, currency: config.storeCurrency, url: config.publicBaseUrl },
    'storefront ready',
  );
  if (demoAdmin) {
    // Printed, not logged: the demo admin's generated password is shown this once, on the terminal only
    // (operations.md). Pino writes the start's log lines asynchronously (and its flush does not wait for a write under
    // way): a moment's wait puts the notice below them, where a person looks, instead of among them.
    await new Promise((resolve) => setTimeout(resolve, NOTICE_AFTER_LOGS_MS));
    console.log(dashboardNotice(demoAdmin, config.publicBaseUrl));
  }
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    console.error(`Configuration error: ${err.message}`);
  } else if (err instanceof DataDirLockedError || err instanceof DatabaseOpenError) {
    console.error(`Cannot start: ${err.message}`);
  } else {
    console.error('Cannot start:', err);
  }
  process.exit(1);
});
