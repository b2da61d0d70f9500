import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from './data-dir-lock.js';

const tempDir = () => mkdtempSync(path.join(os.tmpdir(), 'sf-lock-'));

/** The pid of a process that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

describe('lockDataDir', () => {
  it('refuses a second lock while the first is held, and allows it after release', () => {
    const dir = tempDir();
    const release = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    release();
    expect(existsSync(path.join(dir, 'storefront.lock'))).toBe(false);
    lockDataDir(dir)();
  });

  it('names the holding process and the lock file in its message', () => {
    const dir = tempDir();
    const release = lockDataDir(dir);
    try {
      lockDataDir(dir);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(DataDirLockedError);
      expect((err as Error).message).toContain(String(process.pid));
      expect((err as Error).message).toContain(path.join(dir, 'storefront.lock'));
    } finally {
      release();
    }
  });

  it('takes over a stale lock left by a process that no longer runs', () => {
    const dir = tempDir();
    const lockFile = path.join(dir, 'storefront.lock');
    writeFileSync(lockFile, JSON.stringify({ pid: deadPid() }));
    const release = lockDataDir(dir);
    expect(JSON.parse(readFileSync(lockFile, 'utf8')).pid).toBe(process.pid);
    release();
  });

  it('takes over a lock file that is empty or garbled', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'storefront.lock'), '{not json');
    lockDataDir(dir)();
  });
});
