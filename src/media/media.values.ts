/**
 * How product images are named and served: the widths and formats there are, the names under which storage keeps
 * them, and the URLs, `srcset` strings and sizes a storefront is given. Pure: nothing here reads or writes.
 */

/** The widths an image is served at (in pixels); any other is refused, so nobody can make the server render more. */
export const IMAGE_WIDTHS = [160, 320, 640, 1024, 1600] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];

/** The formats an image is served in, by file extension. */
export const SERVED_FORMATS = { webp: 'image/webp', avif: 'image/avif', jpg: 'image/jpeg' } as const;
export type ServedFormat = keyof typeof SERVED_FORMATS;

/** The width of `url` in an image's answer, the single-size fallback (at most the original's width). */
export const DEFAULT_WIDTH: ImageWidth = 640;

/** A stored original's key: the SHA-256 of its bytes, in lower-case hex. Nothing else ever names a stored file. */
export const MEDIA_KEY_PATTERN = '^[0-9a-f]{64}$';
/** A served file's name: one of the widths, one of the formats (`640.webp`). */
export const SERVED_FILE_PATTERN = `^(${IMAGE_WIDTHS.join('|')})\\.(${Object.keys(SERVED_FORMATS).join('|')})$`;

const KEY = new RegExp(MEDIA_KEY_PATTERN);
const FILE = new RegExp(SERVED_FILE_PATTERN);

/**
 * A name under which storage keeps bytes: `originals/<key>` or `derived/<key>/<width>.<format>`. Only the functions
 * below make one, from a checked key, width and format: no text from a request reaches a path or an object name.
 */
export type StorageName = string & { readonly __storageName: unique symbol };

export const isMediaKey = (key: string): boolean => KEY.test(key);

export function originalName(key: string): StorageName {
  if (!isMediaKey(key)) throw new Error(`not a media key: ${JSON.stringify(key)}`);
  return `originals/${key}` as StorageName;
}

export function derivedName(key: string, file: ServedFile): StorageName {
  if (!isMediaKey(key)) throw new Error(`not a media key: ${JSON.stringify(key)}`);
  return `derived/${key}/${file.width}.${file.format}` as StorageName;
}

/** Whether a string is a name only `originalName` or `derivedName` could have made (storage checks it again). */
export function isStorageName(name: string): name is StorageName {
  const [kind, key, file, ...rest] = name.split('/');
  if (rest.length > 0 || key === undefined || !isMediaKey(key)) return false;
  if (kind === 'originals') return file === undefined;
  return kind === 'derived' && file !== undefined && FILE.test(file);
}

export interface ServedFile {
  width: ImageWidth;
  format: ServedFormat;
}

/** A served file's name (`640.webp`) read, or undefined when it is not one of the widths and formats. */
export function servedFile(name: string): ServedFile | undefined {
  const match = FILE.exec(name);
  if (!match) return undefined;
  return { width: Number(match[1]) as ImageWidth, format: match[2] as ServedFormat };
}

/** The path an image is served at, below the service's root. */
export const imagePath = (key: string, file: ServedFile) => `/media/${key}/${file.width}.${file.format}`;

/**
 * The widths offered for an original `width` pixels wide: each listed width below it, then the first at or above it
 * (which serves the original's own width: images are never enlarged), labelled with the width it really has.
 */
export function offeredWidths(width: number): { width: ImageWidth; actual: number }[] {
  const offered: { width: ImageWidth; actual: number }[] = [];
  for (const w of IMAGE_WIDTHS) {
    if (w < width) offered.push({ width: w, actual: w });
    else {
      offered.push({ width: w, actual: width });
      break;
    }
  }
  return offered;
}

/** `srcset` for one format: `/media/<key>/160.webp 160w, …`. */
export function srcsetOf(image: { key: string; width: number }, format: ServedFormat): string {
  return offeredWidths(image.width)
    .map((o) => `${imagePath(image.key, { width: o.width, format })} ${o.actual}w`)
    .join(', ');
}

/** A stored image as a product's answer carries it. */
export interface ImageRef {
  id: number;
  key: string;
  alt: string;
  width: number;
  height: number;
}

/**
 * An image as the storefront and the dashboard show it: `url` (JPEG at DEFAULT_WIDTH, or smaller when the original
 * is), the original's `width` and `height` (so a page reserves its box before the image arrives), `srcset` in WebP
 * and `srcset_avif` in AVIF for `<picture>`.
 */
export function presentImage(image: ImageRef) {
  return { id: image.id, ...presentStoredImage(image) };
}

/** `presentImage` of an image known by its key alone (an order line's, kept as sold): everything but the id. */
export function presentStoredImage(image: Omit<ImageRef, 'id'>) {
  const fallback = offeredWidths(image.width).find((o) => o.width >= DEFAULT_WIDTH || o.actual === image.width);
  return {
    url: imagePath(image.key, { width: fallback?.width ?? DEFAULT_WIDTH, format: 'jpg' }),
    alt: image.alt,
    width: image.width,
    height: image.height,
    srcset: srcsetOf(image, 'webp'),
    srcset_avif: srcsetOf(image, 'avif'),
  };
}
