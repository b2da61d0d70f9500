import { createHash } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import sharp from 'sharp';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { productMedia, productVariants } from '../db/schema.js';
import { type ImageLimits, storedImage } from '../media/images.js';
import type { MediaStorage } from '../media/media-storage.js';
import { originalName } from '../media/media.values.js';
import { addImage } from '../media/media.repository.js';
import { createMediaStorage } from '../media/open-storage.js';
import { demoCatalog } from './demo-seed.js';

// The demo store's images are drawn here, at seed time, from raw pixels: nothing is downloaded, nothing is checked
// in but this code. Each product gets a gradient in colours of its own with its initial in a square, and each of its
// variants (when it has several) another, tinted, shown first for that variant.

const WIDTH = 1200;
const HEIGHT = 900;

/** 5 × 7 capitals, each row five bits (the high bit on the left). */
const GLYPHS: Record<string, number[]> = {
  A: [14, 17, 17, 31, 17, 17, 17],
  B: [30, 17, 17, 30, 17, 17, 30],
  C: [14, 17, 16, 16, 16, 17, 14],
  D: [30, 17, 17, 17, 17, 17, 30],
  E: [31, 16, 16, 30, 16, 16, 31],
  F: [31, 16, 16, 30, 16, 16, 16],
  G: [14, 17, 16, 23, 17, 17, 15],
  H: [17, 17, 17, 31, 17, 17, 17],
  I: [14, 4, 4, 4, 4, 4, 14],
  J: [7, 2, 2, 2, 2, 18, 12],
  K: [17, 18, 20, 24, 20, 18, 17],
  L: [16, 16, 16, 16, 16, 16, 31],
  M: [17, 27, 21, 21, 17, 17, 17],
  N: [17, 17, 25, 21, 19, 17, 17],
  O: [14, 17, 17, 17, 17, 17, 14],
  P: [30, 17, 17, 30, 16, 16, 16],
  Q: [14, 17, 17, 17, 21, 18, 13],
  R: [30, 17, 17, 30, 20, 18, 17],
  S: [15, 16, 16, 14, 1, 1, 30],
  T: [31, 4, 4, 4, 4, 4, 4],
  U: [17, 17, 17, 17, 17, 17, 14],
  V: [17, 17, 17, 17, 17, 10, 4],
  W: [17, 17, 17, 21, 21, 21, 10],
  X: [17, 17, 10, 4, 10, 17, 17],
  Y: [17, 17, 10, 4, 4, 4, 4],
  Z: [31, 1, 2, 4, 8, 16, 31],
};

type Rgb = [number, number, number];

/** Two colours made from a name: the same name, the same picture. */
function coloursOf(name: string): { from: Rgb; to: Rgb } {
  const hash = createHash('sha256').update(name).digest();
  const colour = (at: number): Rgb => [
    64 + ((hash[at] ?? 0) % 160),
    64 + ((hash[at + 1] ?? 0) % 160),
    64 + ((hash[at + 2] ?? 0) % 160),
  ];
  return { from: colour(0), to: colour(3) };
}

/** A diagonal gradient with `letter` drawn large in a pale square in the middle, as raw RGB pixels. */
function drawn(name: string, letter: string): Buffer {
  const { from, to } = coloursOf(name);
  const pixels = Buffer.alloc(WIDTH * HEIGHT * 3);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const t = (x / WIDTH + y / HEIGHT) / 2;
      const at = (y * WIDTH + x) * 3;
      for (let c = 0; c < 3; c++) pixels[at + c] = Math.round((from[c] ?? 0) * (1 - t) + (to[c] ?? 0) * t);
    }
  }
  const cell = 60;
  const box = { x: WIDTH / 2 - 4.5 * cell, y: HEIGHT / 2 - 5.5 * cell, width: 9 * cell, height: 11 * cell };
  const paint = (area: { x: number; y: number; width: number; height: number }, rgb: Rgb) => {
    for (let y = area.y; y < area.y + area.height; y++) {
      for (let x = area.x; x < area.x + area.width; x++) pixels.set(rgb, (y * WIDTH + x) * 3);
    }
  };
  paint(box, [250, 248, 242]);
  const rows = GLYPHS[letter.toUpperCase()] ?? [];
  for (const [row, bits] of rows.entries()) {
    for (let column = 0; column < 5; column++) {
      if ((bits >> (4 - column)) & 1) {
        paint({ x: box.x + (2 + column) * cell, y: box.y + (2 + row) * cell, width: cell, height: cell }, from);
      }
    }
  }
  return pixels;
}

async function pictureOf(name: string, letter: string): Promise<Buffer> {
  return sharp(drawn(name, letter), { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

/**
 * Gives each demo product that has no image its pictures (stored like an upload: through the same checks, into the
 * store's media storage). Returns how many images were added.
 */
export async function seedDemoImages(db: Db, input: { storage: MediaStorage; limits: ImageLimits }): Promise<number> {
  const aliases = demoCatalog.map((p) => p.variants[0]?.alias ?? '');
  const firstVariants = await db
    .select({ alias: productVariants.alias, productId: productVariants.productId })
    .from(productVariants)
    .where(inArray(productVariants.alias, aliases));
  const productIds = firstVariants.map((v) => v.productId);
  if (productIds.length === 0) return 0;
  const pictured = new Set(
    (
      await db
        .select({ productId: productMedia.productId })
        .from(productMedia)
        .where(inArray(productMedia.productId, productIds))
    ).map((r) => r.productId),
  );
  const variants = await db
    .select({ id: productVariants.id, alias: productVariants.alias, productId: productVariants.productId })
    .from(productVariants)
    .where(inArray(productVariants.productId, productIds));
  let added = 0;
  const store = async (
    productId: number,
    picture: { name: string; letter: string; alt: string; variantIds?: number[] },
  ) => {
    const image = await storedImage(await pictureOf(picture.name, picture.letter), input.limits);
    await input.storage.put(originalName(image.key), image.bytes, image.mime);
    const { key, width, height, mime } = image;
    await addImage(db, {
      productId,
      key,
      width,
      height,
      mime,
      byteSize: image.bytes.length,
      alt: picture.alt,
      variantIds: picture.variantIds,
    });
    added += 1;
  };
  for (const demo of demoCatalog) {
    const productId = firstVariants.find((v) => v.alias === demo.variants[0]?.alias)?.productId;
    if (productId === undefined || pictured.has(productId)) continue;
    await store(productId, {
      name: demo.name,
      letter: demo.name.charAt(0),
      alt: `${demo.name}: the demo store's picture, its initial on a gradient`,
    });
    if (demo.variants.length < 2) continue;
    for (const variant of demo.variants) {
      const id = variants.find((v) => v.alias === variant.alias)?.id;
      if (id === undefined) continue;
      await store(productId, {
        name: `${demo.name} ${variant.name}`,
        letter: variant.name.charAt(0),
        alt: `${demo.name}, ${variant.name}: the demo store's picture of this variant`,
        variantIds: [id],
      });
    }
  }
  return added;
}

/** seedDemoImages into the storage the configuration names (MEDIA_STORAGE), with its limits. */
export async function seedDemoImagesFor(db: Db, config: Pick<Config, 'media' | 'dataDir'>): Promise<number> {
  const { storage, close } = createMediaStorage({ settings: config.media, dataDir: config.dataDir });
  try {
    const limits = { maxBytes: config.media.maxUploadBytes, maxPixels: config.media.maxPixels };
    return await seedDemoImages(db, { storage, limits });
  } finally {
    close();
  }
}
