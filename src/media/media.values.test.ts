import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  derivedName,
  IMAGE_WIDTHS,
  isStorageName,
  offeredWidths,
  originalName,
  presentImage,
  servedFile,
  srcsetOf,
} from './media.values.js';

const key = 'a'.repeat(64);

describe('the widths an image is offered at', () => {
  it('offers each listed width below the original, then one that serves the original width, never more', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), (width) => {
        const offered = offeredWidths(width);
        expect(offered.length).toBeGreaterThan(0);
        for (const o of offered) expect(o.actual).toBeLessThanOrEqual(width);
        expect(offered.map((o) => o.actual)).toEqual([...new Set(offered.map((o) => o.actual))].sort((a, b) => a - b));
        const largest = offered.at(-1);
        expect(largest?.actual).toBe(Math.min(width, IMAGE_WIDTHS.at(-1) ?? 0));
      }),
    );
  });

  it('labels the size that serves an 800-pixel original with its real width', () => {
    expect(srcsetOf({ key, width: 800 }, 'webp').split(', ')).toEqual([
      `/media/${key}/160.webp 160w`,
      `/media/${key}/320.webp 320w`,
      `/media/${key}/640.webp 640w`,
      `/media/${key}/1024.webp 800w`,
    ]);
  });

  it('gives a JPEG 640 wide as the url, or the size that serves a smaller original', () => {
    expect(presentImage({ id: 1, key, alt: 'x', width: 2000, height: 1000 }).url).toBe(`/media/${key}/640.jpg`);
    expect(presentImage({ id: 1, key, alt: 'x', width: 200, height: 100 }).url).toBe(`/media/${key}/320.jpg`);
  });
});

describe('storage names', () => {
  it('are made only from a 64-hex key, one of the widths and one of the formats', () => {
    expect(originalName(key)).toBe(`originals/${key}`);
    expect(derivedName(key, { width: 320, format: 'avif' })).toBe(`derived/${key}/320.avif`);
    expect(() => originalName('../etc/passwd')).toThrow();
    expect(servedFile('500.webp')).toBeUndefined();
    expect(servedFile('320.svg')).toBeUndefined();
    expect(servedFile('1024.jpg')).toEqual({ width: 1024, format: 'jpg' });
  });

  it('recognises no string with a dot segment, a slash too many or a key of another shape', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (text) => {
        if (isStorageName(text)) {
          expect(text).toMatch(/^(originals\/[0-9a-f]{64}|derived\/[0-9a-f]{64}\/\d+\.(webp|avif|jpg))$/);
        }
      }),
    );
    for (const bad of [`originals/${key}/x`, `originals/../${key}`, `derived/${key}/../../x`, `Originals/${key}`]) {
      expect(isStorageName(bad)).toBe(false);
    }
  });
});
