import { resizedImage, servedMime } from './images.js';
import type { MediaStorage } from './media-storage.js';
import { derivedName, originalName, type ServedFile } from './media.values.js';

/** Recently served sizes in memory, the least recently used dropped first beyond a byte budget. */
class BytesByName {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(name: string): Buffer | undefined {
    const found = this.entries.get(name);
    if (found) {
      this.entries.delete(name);
      this.entries.set(name, found);
    }
    return found;
  }

  set(name: string, value: Buffer): void {
    if (value.length > this.maxBytes / 8 || this.entries.has(name)) return;
    this.entries.set(name, value);
    this.bytes += value.length;
    for (const [oldest, bytes] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= bytes.length;
    }
  }
}

/**
 * The sizes of stored images, made on first request and kept: in storage under their derived name (so every process
 * and every restart finds them), and the most asked in this process's memory. Names are content hashes, so what is
 * kept never goes stale. Two requests for a size not made yet share one resize.
 */
export class ServedImages {
  private readonly memory: BytesByName;
  private readonly making = new Map<string, Promise<Buffer | null>>();
  private readonly maxPixels: number;

  constructor(
    private readonly storage: MediaStorage,
    options: { memoryBytes: number; maxPixels: number },
  ) {
    this.memory = new BytesByName(options.memoryBytes);
    this.maxPixels = options.maxPixels;
  }

  /** The bytes of one size of the image `key`, or null when no such image is stored. */
  async get(key: string, file: ServedFile): Promise<Buffer | null> {
    const name = derivedName(key, file);
    const held = this.memory.get(name);
    if (held) return held;
    const under = this.making.get(name);
    if (under) return under;
    const made = this.load(key, file).finally(() => this.making.delete(name));
    this.making.set(name, made);
    return made;
  }

  private async load(key: string, file: ServedFile): Promise<Buffer | null> {
    const name = derivedName(key, file);
    let bytes = await this.storage.get(name);
    if (!bytes) {
      const original = await this.storage.get(originalName(key));
      if (!original) return null;
      bytes = await resizedImage(original, file, this.maxPixels);
      await this.storage.put(name, bytes, servedMime(file));
    }
    this.memory.set(name, bytes);
    return bytes;
  }
}
