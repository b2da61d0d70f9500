import { Type } from 'typebox';
import { Id, StrictObject } from '../http/schemas.js';
import { MEDIA_KEY_PATTERN, SERVED_FILE_PATTERN } from './media.values.js';

const Alt = Type.String({
  minLength: 1,
  maxLength: 500,
  pattern: '\\S',
  description: 'What the image shows, for people who cannot see it (required, not blank)',
});
const VariantIds = Type.Array(Id, {
  uniqueItems: true,
  maxItems: 100,
  description: "The product's variants this image shows, the whole list (replaces the one stored)",
});
const Position = Type.Integer({ minimum: 0, maximum: 10_000, description: '0 first; past the end: last' });

/** An upload's fields, in the query string: the body is the image's bytes. */
export const UploadQuery = Type.Object({
  alt: Alt,
  position: Type.Optional(Position),
  variant_ids: Type.Optional(
    Type.String({ pattern: '^\\d{1,10}(,\\d{1,10}){0,99}$', description: 'Comma-separated variant ids, e.g. "12,13"' }),
  ),
});

export const ImageChangeBody = StrictObject(
  { alt: Type.Optional(Alt), position: Type.Optional(Position), variant_ids: Type.Optional(VariantIds) },
  { examples: [{ alt: 'The mug from above, white glaze', position: 0, variant_ids: [12] }] },
);

/** An image by its URLs and size: what a cart's or an order's line shows (`image`), and an `Image` without its id. */
export const ImageView = Type.Object({
  url: Type.String({ description: 'A JPEG of the image, 640 pixels wide or the original width if smaller' }),
  alt: Type.String(),
  width: Type.Integer({ description: "The original's width in pixels (with height: the box to reserve)" }),
  height: Type.Integer(),
  srcset: Type.String({ description: 'WebP sizes for <img srcset> or <source type="image/webp">' }),
  srcset_avif: Type.String({ description: 'AVIF sizes for <source type="image/avif">' }),
});

/** An image as products' answers carry it (storefront and dashboard). */
export const Image = Type.Object({ id: Type.Integer(), ...ImageView.properties });

/** A line's thumbnail: its variant's first image, else its product's; null when the product has none. */
export const LineImage = Type.Union([ImageView, Type.Null()], {
  description:
    "The line's image (its variant's first, else its product's first; an order's line keeps the one it was sold with);"
    + ' null: none. Show it at a small width with `srcset`; `width`/`height` give its box',
});

/** An image as the dashboard manages it. */
export const AdminImage = Type.Object({
  ...Image.properties,
  product_id: Type.Integer(),
  key: Type.String({ description: 'SHA-256 of the stored original' }),
  mime: Type.String({ description: 'The type the original is stored in' }),
  byte_size: Type.Integer(),
  position: Type.Integer(),
  variant_ids: Type.Array(Type.Integer()),
});

export const ServedParams = Type.Object({
  key: Type.String({ pattern: MEDIA_KEY_PATTERN, description: "SHA-256 of the original, from an image's URL" }),
  file: Type.String({ pattern: SERVED_FILE_PATTERN, description: 'width.format: 160, 320, 640, 1024 or 1600 wide' }),
});
