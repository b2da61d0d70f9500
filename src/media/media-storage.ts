import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isStorageName, type StorageName } from './media.values.js';

/**
 * Where image bytes are kept: the originals (named by the SHA-256 of their bytes) and the sizes made from them. The
 * default keeps files under DATA_DIR/media; S3Storage keeps objects in a bucket, for a store on several machines.
 * Names are made only by media.values.ts from checked keys, and each implementation checks them again.
 */
export interface MediaStorage {
  /** The bytes stored under `name`, or null when there are none. */
  get(name: StorageName): Promise<Buffer | null>;
  /** Stores `bytes` under `name`, replacing what was there (the same bytes: names are content hashes). */
  put(name: StorageName, bytes: Buffer, contentType: string): Promise<void>;
}

export function assertStorageName(name: string): asserts name is StorageName {
  if (!isStorageName(name)) throw new Error(`not a media storage name: ${JSON.stringify(name)}`);
}

/** Files under one directory (DATA_DIR/media): `originals/<key>`, `derived/<key>/<width>.<format>`. */
export class FileStorage implements MediaStorage {
  constructor(private readonly root: string) {}

  private pathOf(name: string): string {
    assertStorageName(name);
    const full = path.resolve(this.root, ...name.split('/'));
    // The name's shape already rules it out; this is the second lock on the door.
    if (!full.startsWith(path.resolve(this.root) + path.sep)) throw new Error(`outside the media root: ${name}`);
    return full;
  }

  async get(name: StorageName): Promise<Buffer | null> {
    try {
      return await readFile(this.pathOf(name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async put(name: StorageName, bytes: Buffer): Promise<void> {
    const target = this.pathOf(name);
    await mkdir(path.dirname(target), { recursive: true });
    // Written aside and renamed: a reader never sees half a file, two writers of the same name both succeed.
    const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temporary, bytes);
      await rename(temporary, target);
    } catch (err) {
      await rm(temporary, { force: true });
      throw err;
    }
  }
}
