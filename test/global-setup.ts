// Runs once before the suite, in vitest's main process: on the embedded database, one empty migrated database is
// made and kept as an image in a temporary file, which every test database then starts from (test/helpers.ts
// `createTestDatabase`): loading it takes about 0.3 s where creating and migrating one takes 1.2-1.8 s.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { pgliteImage } from '../src/db/client.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The file holding the migrated empty embedded database (absent on PostgreSQL). */
    pgliteImagePath: string | undefined;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.TEST_DATABASE_URL) {
    project.provide('pgliteImagePath', undefined);
    return async () => {};
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sf-test-image-'));
  const file = path.join(dir, 'migrated.tar');
  await writeFile(file, Buffer.from(await (await pgliteImage()).arrayBuffer()));
  project.provide('pgliteImagePath', file);
  return () => rm(dir, { recursive: true, force: true });
}
