// Settings of the PostgreSQL server the service runs on that an operator should change, read once at start and
// logged as warnings (docs/operations.md, "Running").
import type { Database, Statement } from './client.js';

const settingsRead: Statement = {
  name: 'server_settings_read',
  text: "select current_setting('autovacuum') as autovacuum",
};

export interface ServerSettings {
  autovacuum: string;
}

/**
 * What to tell the operator about `settings`. Autovacuum off: orders, stock and carts are updated in place all day,
 * and their dead row versions would never be removed; writes slow down the longer the server runs (on this project's
 * bench VM, shipments 1,134/s with it on, 583–663/s after 18 s of load with it off: docs/benchmarks.md).
 */
export function serverSettingWarnings(settings: ServerSettings): string[] {
  return settings.autovacuum === 'on'
    ? []
    : [
        "PostgreSQL's autovacuum is off on this server: rows updated in place (orders, stock, carts) leave dead "
          + 'versions nothing removes, and writes slow down the longer it runs. Turn it on '
          + '(alter system set autovacuum = on; select pg_reload_conf()), or vacuum the database on a schedule.',
      ];
}

/** The warnings about the server behind `database`; none on the embedded database (it has no autovacuum to run). */
export async function readServerSettingWarnings(database: Database): Promise<string[]> {
  if (database.kind !== 'postgres') return [];
  const [settings] = await database.run<ServerSettings>(settingsRead, []);
  return settings ? serverSettingWarnings(settings) : [];
}
