import { randomBytes } from 'node:crypto';

const MAX_COUNTER = 0xfff;

/**
 * Event ids: UUIDs of version 7 (RFC 9562), whose first 48 bits are the Unix time in ms, so ids sort by when they
 * were made (the events list's order and page cursor, and an index that grows at its end). Within one generator they
 * strictly increase: ids of one millisecond take a 12-bit counter (RFC 9562, method 1), started at a random value
 * below 2048 each millisecond; 62 more bits are random. Across processes, ids of the same millisecond sort in no
 * particular order.
 */
/** Random bytes are drawn this many at a time (a placement batch makes dozens of ids; each draw is a system call). */
const RANDOM_POOL_BYTES = 4096;

export class EventIds {
  #ms = 0;
  #counter = 0;
  #pool = Buffer.alloc(0);
  #used = 0;

  /** `n` fresh random bytes, never handed out twice. */
  #random(n: number): Buffer {
    if (this.#used + n > this.#pool.length) {
      this.#pool = randomBytes(RANDOM_POOL_BYTES);
      this.#used = 0;
    }
    this.#used += n;
    return this.#pool.subarray(this.#used - n, this.#used);
  }

  next(now: number = Date.now()): string {
    if (now > this.#ms) {
      this.#ms = now;
      this.#counter = this.#random(2).readUInt16BE(0) & 0x7ff;
    } else if (this.#counter < MAX_COUNTER) {
      this.#counter += 1;
    } else {
      // 4,096 ids in one millisecond: borrow the next one (the clock catches up).
      this.#ms += 1;
      this.#counter = 0;
    }
    const bytes = this.#random(16);
    bytes.writeUIntBE(this.#ms, 0, 6);
    bytes[6] = 0x70 | (this.#counter >> 8);
    bytes[7] = this.#counter & 0xff;
    bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);
    const hex = bytes.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
}
