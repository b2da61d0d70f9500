import { BENCH_ADMIN } from '../domain-scenarios.js';
import type { BenchDatabase } from './postgres.js';
import { freePort, runCommand, type Server, startServer } from './processes.js';

/**
 * Builds the app in `root` (npm run build) and starts `dist/main.js` on `database`. Only what the app needs goes into
 * its environment: a stray STORE_CURRENCY or PAYMENT_PLUGINS in the shell must not change the figures.
 */
export async function buildAndStartApp(input: {
  name: string;
  root: string;
  database: BenchDatabase;
  dataDir: string;
  nodeArgs?: string[];
  /** Settings on top of the bench's own (e.g. `JOBS_ENABLED: 'false'` to compare a build with itself). */
  env?: Record<string, string>;
}): Promise<Server> {
  console.log(`Building ${input.name} (npm run build in ${input.root})...`);
  await runCommand('npm', ['run', 'build', '--silent'], input.root);
  const port = await freePort();
  return startServer({
    name: input.name,
    command: process.execPath,
    args: [...(input.nodeArgs ?? []), 'dist/main.js'],
    cwd: input.root,
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: input.database.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      JWT_SECRET: 'bench-only-jwt-secret-0123456789abcdef',
      // Keeps the limiter from answering 429 during the login bench; 1 000 000 is the highest value src/config.ts
      // accepts.
      AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
      PROMO_RATE_LIMIT_PER_MINUTE: '100000000',
      WEBHOOK_RATE_LIMIT_PER_MINUTE: '100000000',
      // Lets the cart-add scenario keep adding to the same lines for the whole run.
      MAX_LINE_QUANTITY: '1000000',
      PAYMENT_PLUGINS: 'cash_on_delivery,sandbox',
      // The webhook scenario delivers to a receiver on 127.0.0.1 (bench/webhook-receiver.ts).
      WEBHOOK_ALLOW_PRIVATE: 'true',
      ADMIN_EMAIL: BENCH_ADMIN.email,
      ADMIN_PASSWORD: BENCH_ADMIN.password,
      DATA_DIR: input.dataDir,
      ...input.env,
    },
    port,
    readyPath: '/readyz',
  });
}
