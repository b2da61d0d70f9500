import { createHash } from 'node:crypto';
import sharp, { type Metadata, type OutputInfo, type Sharp } from 'sharp';
import { DomainError } from '../shared/errors.js';
import { SERVED_FORMATS, type ServedFile } from './media.values.js';

/** What an upload may be: the limits come from the configuration (MEDIA_MAX_UPLOAD_BYTES, MEDIA_MAX_PIXELS). */
export interface ImageLimits {
  maxBytes: number;
  /** Width × height at most: a small file declaring a huge image (a decompression bomb) is refused before decoding. */
  maxPixels: number;
}

/** An uploaded image as stored: re-encoded without metadata, named by the SHA-256 of the stored bytes. */
export interface StoredImage {
  key: string;
  bytes: Buffer;
  mime: string;
  width: number;
  height: number;
}

/** The formats accepted, as sharp names them after reading the content, with what the original is stored as. */
const ACCEPTED: Record<string, { mime: string; encode: (image: Sharp) => Sharp }> = {
  jpeg: { mime: 'image/jpeg', encode: (image) => image.jpeg({ quality: 90 }) },
  png: { mime: 'image/png', encode: (image) => image.png() },
  webp: { mime: 'image/webp', encode: (image) => image.webp({ quality: 90 }) },
  // AVIF is HEIF with AV1 inside; HEIF with HEVC (HEIC) is not accepted (no decoder ships with sharp).
  avif: { mime: 'image/avif', encode: (image) => image.avif({ quality: 70 }) },
  // A GIF is kept as its first frame, in PNG (lossless, and every browser shows it).
  gif: { mime: 'image/png', encode: (image) => image.png() },
};

function acceptedFormat(metadata: Metadata): string | undefined {
  if (metadata.format === 'heif') return metadata.compression === 'av1' ? 'avif' : undefined;
  return metadata.format !== undefined && metadata.format in ACCEPTED ? metadata.format : undefined;
}

/**
 * Reads an upload's type from its content (never from a name or a header), refuses what is not a JPEG, PNG, WebP,
 * AVIF or GIF (SVG included: it is a document that can carry scripts), or is larger than the limits, and re-encodes
 * it: turned upright by its EXIF orientation, then written without any metadata (EXIF, GPS, XMP, ICC profile).
 */
export async function storedImage(upload: Buffer, limits: ImageLimits): Promise<StoredImage> {
  if (upload.length === 0)
    throw new DomainError('invalid_image', { detail: 'the body is empty: send the image bytes' });
  let metadata: Metadata;
  try {
    // Reading the header decodes no pixel: the limit is checked below, with a clearer answer than sharp's.
    metadata = await sharp(upload, { limitInputPixels: false }).metadata();
  } catch {
    // A file that starts like an accepted image but cannot be read is damaged, not of another type.
    if (startsLikeAcceptedImage(upload)) throw damaged('image');
    throw notAccepted();
  }
  const format = acceptedFormat(metadata);
  const accepted = format === undefined ? undefined : ACCEPTED[format];
  if (!accepted) throw notAccepted(metadata.format);
  const { width, height } = metadata;
  if (!width || !height) throw new DomainError('invalid_image', { detail: 'the image has no dimensions' });
  if (width * height > limits.maxPixels) {
    throw new DomainError('image_too_many_pixels', {
      detail: `the image is ${width} × ${height} pixels; at most ${limits.maxPixels} pixels are accepted`,
      extra: { max_pixels: limits.maxPixels },
    });
  }
  let output: { data: Buffer; info: OutputInfo };
  try {
    const decoded = sharp(upload, { limitInputPixels: limits.maxPixels, failOn: 'error' }).rotate();
    output = await accepted.encode(decoded).toBuffer({ resolveWithObject: true });
  } catch {
    throw damaged(`${format} image`);
  }
  return {
    key: createHash('sha256').update(output.data).digest('hex'),
    bytes: output.data,
    mime: accepted.mime,
    width: output.info.width,
    height: output.info.height,
  };
}

const damaged = (what: string) => new DomainError('invalid_image', { detail: `the ${what} is damaged or cut short` });

/** The first bytes of a JPEG, PNG, GIF, WebP (RIFF….WEBP) or AVIF (….ftypavif). */
function startsLikeAcceptedImage(bytes: Buffer): boolean {
  const ascii = (start: number, end: number) => bytes.subarray(start, end).toString('latin1');
  return (
    (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    || ascii(0, 8) === '\x89PNG\r\n\x1a\n'
    || ascii(0, 4) === 'GIF8'
    || (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP')
    || (ascii(4, 8) === 'ftyp' && ['avif', 'avis'].includes(ascii(8, 12)))
  );
}

function notAccepted(format?: string): DomainError {
  return new DomainError('image_type_not_accepted', {
    detail:
      format === undefined
        ? 'the body is not an image of a known type: send a JPEG, PNG, WebP, AVIF or GIF'
        : `${format === 'heif' ? 'HEIC' : format.toUpperCase()} images are not accepted: send a JPEG, PNG, WebP, AVIF `
          + 'or GIF',
  });
}

const ENCODERS: Record<ServedFile['format'], (image: Sharp) => Sharp> = {
  webp: (image) => image.webp({ quality: 80 }),
  // Effort 2 of 9: a first request for an AVIF size takes a fraction of the default's time, for slightly larger files.
  avif: (image) => image.avif({ quality: 55, effort: 2 }),
  jpg: (image) => image.jpeg({ quality: 80, progressive: true }),
};

/** One served size of a stored original: `width` wide at most (never enlarged), in `format`, without metadata. */
export async function resizedImage(original: Buffer, file: ServedFile, maxPixels: number): Promise<Buffer> {
  const image = sharp(original, { limitInputPixels: maxPixels }).resize({
    width: file.width,
    withoutEnlargement: true,
  });
  return ENCODERS[file.format](image).toBuffer();
}

export const servedMime = (file: ServedFile) => SERVED_FORMATS[file.format];
