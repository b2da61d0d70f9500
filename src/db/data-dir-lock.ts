import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * PGlite corrupts a data folder that two processes open at once, so the embedded database is
 * guarded by a lock file holding the owner's pid. A lock whose process is gone (killed, crashed)
 * is stale and taken over.
 */
export class DataDirLockedError extends Error {
  constructor(
    readonly lockFile: string,
    readonly pid: number,
  ) {
    super(
      `the data directory ${path.dirname(lockFile)} is in use by process ${pid}; `
        + `stop that process first (or, if you are sure it is gone, delete ${lockFile})`,
    );
    this.name = 'DataDirLockedError';
  }
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function lockHolder(lockFile: string): number | undefined {
  try {
    const pid = Number(JSON.parse(readFileSync(lockFile, 'utf8')).pid);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined; // unreadable or half-written: treated as stale
  }
}

/** Takes the lock or throws DataDirLockedError; returns the function that releases it. */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockFile = path.join(dataDir, 'storefront.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx', 0o600);
      writeSync(fd, JSON.stringify({ pid: process.pid, since: new Date().toISOString() }));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        if (lockHolder(lockFile) === process.pid) rmSync(lockFile, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = lockHolder(lockFile);
      if (pid !== undefined && processIsAlive(pid)) throw new DataDirLockedError(lockFile, pid);
      rmSync(lockFile, { force: true }); // stale lock of a process that no longer runs
    }
  }
  throw new DataDirLockedError(lockFile, lockHolder(lockFile) ?? 0);
}
