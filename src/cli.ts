import { parseArgs } from 'node:util';
import { ensureAdmin } from './auth/auth.service.js';
import { generatePassword } from './auth/demo-admin.js';
import { seedDemoCatalog } from './demo/demo-seed.js';
import { seedDemoImagesFor } from './demo/demo-images.js';
import { currencyExponent } from './shared/currency.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { DataDirLockedError } from './db/data-dir-lock.js';
import { DatabaseOpenError } from './db/open-errors.js';
import { databaseTarget } from './runtime.js';
import { DomainError } from './shared/errors.js';

const createAdminUsage = `create-admin --email <email> [--password <password> | --generate-password]
      Creates an admin, or promotes an existing user and sets the password: also how to
      reset a forgotten one (the demo admin's: --email admin@example.com).
      The password may instead come from the ADMIN_PASSWORD environment variable (out of
      shell history); --generate-password makes a random one and prints it once.`;

const usage = `Usage: npm run cli -- <command> [options]

Commands:
  ${createAdminUsage}
  seed-demo
      Loads the demo catalog (idempotent: demo products already there are left alone).
  migrate
      Applies pending database migrations and exits.

The database is the one the service would use: DATABASE_URL, or the embedded one in DATA_DIR
(stop the service first: the embedded database can be open in one process only).`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === 'help') {
    console.log(usage);
    return command === undefined ? 2 : 0;
  }
  // ADMIN_PASSWORD is create-admin's password here: the service's rule that it comes with ADMIN_EMAIL
  // (an admin ensured at every start) does not apply to the CLI, which never ensures that admin.
  const config = loadConfig({ ...process.env, ADMIN_EMAIL: undefined, ADMIN_PASSWORD: undefined });
  switch (command) {
    case 'create-admin': {
      const { values } = parseArgs({
        args: rest,
        options: {
          email: { type: 'string' },
          password: { type: 'string' },
          'generate-password': { type: 'boolean' },
          help: { type: 'boolean', short: 'h' },
        },
      });
      if (values.help) {
        console.log(`Usage: npm run cli -- ${createAdminUsage}`);
        return 0;
      }
      const generated = values['generate-password'] ? generatePassword() : undefined;
      const given = values.password ?? process.env.ADMIN_PASSWORD;
      if (generated !== undefined && values.password !== undefined) {
        console.error('create-admin takes --password or --generate-password, not both');
        return 2;
      }
      const password = generated ?? given;
      if (!values.email || !password) {
        console.error('create-admin needs --email and --password (or ADMIN_PASSWORD, or --generate-password)');
        return 2;
      }
      const database = await openDatabase(databaseTarget(config));
      try {
        const { user, created } = await ensureAdmin(database.db, { email: values.email, password });
        console.log(`${created ? 'created' : 'updated'} admin ${user.email} (id ${user.id})`);
        // The one place this password exists in clear: the person who asked for it sees it once.
        if (generated !== undefined) console.log(`password: ${generated} (shown once)`);
      } finally {
        await database.close();
      }
      return 0;
    }
    case 'seed-demo': {
      const database = await openDatabase(databaseTarget(config));
      try {
        const added = await seedDemoCatalog(database.db, currencyExponent(config.storeCurrency), config.storeCurrency);
        console.log(`demo catalog: ${added} product(s) added`);
        const pictures = await seedDemoImagesFor(database.db, config);
        console.log(`demo images: ${pictures} added (to demo products that had none)`);
      } finally {
        await database.close();
      }
      return 0;
    }
    case 'migrate': {
      const database = await openDatabase(databaseTarget(config));
      await database.close();
      console.log('database is up to date');
      return 0;
    }
    default:
      console.error(`unknown command "${command}"\n\n${usage}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof ConfigError) console.error(`Configuration error: ${err.message}`);
    else if (err instanceof DataDirLockedError || err instanceof DatabaseOpenError) {
      console.error(`Cannot open the database: ${err.message}`);
    } else if (err instanceof DomainError) console.error(`${err.code}: ${err.message}`);
    else if (
      err instanceof Error
      && err.name === 'TypeError'
      && 'code' in err
      && String(err.code).startsWith('ERR_PARSE_ARGS')
    )
      console.error(`${err.message}\n\n${usage}`);
    else console.error(err);
    process.exit(1);
  },
);
