import { readdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminApi, adminApi } from './fixtures.js';
import {
  bearer,
  buildMediaTestApp,
  expectProblem,
  json,
  type SignedIn,
  signInAdmin,
  signUp,
  type TestApp,
} from './helpers.js';

// Product images (docs/catalog.md#media): upload with every refusal, metadata stripped, the order and the variants
// they show, served resized and cached, and what the storefront's product answers carry of them.

const admin = '/product/dashboard/api';
const shop = '/product/storefront/api';

let t: TestApp;
let api: AdminApi;
let adminUser: SignedIn;
let customer: SignedIn;

beforeAll(async () => {
  t = await buildMediaTestApp('media-test-');
  adminUser = await signInAdmin(t);
  api = adminApi(t, adminUser);
  customer = await signUp(t.app);
});
afterAll(async () => {
  await t?.close();
});

const solid = (width: number, height: number, colour: string) =>
  sharp({ create: { width, height, channels: 3, background: colour } });

/** A JPEG carrying EXIF with an owner's name and a GPS position, as a phone writes it. */
const jpegWithGps = () =>
  solid(800, 600, '#c33')
    .jpeg()
    .withExif({
      IFD0: { Copyright: 'Secret Owner', Artist: 'Secret Owner' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' },
    })
    .toBuffer();

let counter = 0;
const product = (variants = [{ name: 'One', price: '5.00' }]) => {
  counter += 1;
  return api.product({ name: `Pictured ${counter}`, variants });
};

/** An upload as the admin: `query` carries the alt text (default "A red square"), `headers` replace the defaults. */
const upload = (productId: number, body: Buffer, options: { query?: string; headers?: Record<string, string> } = {}) =>
  t.app.inject({
    method: 'POST',
    url: `${admin}/products/${productId}/media/?${options.query ?? 'alt=A%20red%20square'}`,
    headers: { ...bearer(adminUser.access), 'content-type': 'image/jpeg', ...options.headers },
    payload: body,
  });

const send = (method: 'PATCH' | 'DELETE' | 'GET', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(adminUser.access), ...(payload ? { payload } : {}) });

describe('uploading an image (admin)', () => {
  it('stores a JPEG re-encoded without its EXIF and GPS metadata, named by the hash of what is stored', async () => {
    const p = await product();
    const original = await jpegWithGps();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    expect(original.includes('Secret Owner')).toBe(true);

    const res = await upload(p.id, original);
    expect(res.statusCode).toBe(201);
    const image = json(res);
    expect(image).toMatchObject({ product_id: p.id, alt: 'A red square', width: 800, height: 600, mime: 'image/jpeg' });
    expect(image.key).toMatch(/^[0-9a-f]{64}$/);
    expect(image.position).toBe(0);

    const stored = await readdir(path.join(t.config.dataDir, 'media', 'originals'));
    expect(stored).toContain(image.key);
    for (const url of [image.url, `/media/${image.key}/1024.jpg`, `/media/${image.key}/320.webp`]) {
      const served = await t.app.inject({ method: 'GET', url });
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.includes('Secret Owner')).toBe(false);
      const metadata = await sharp(served.rawPayload).metadata();
      expect(metadata.exif).toBeUndefined();
      expect(metadata.xmp).toBeUndefined();
    }
  });

  it('reads the type from the bytes, whatever the Content-Type says, and keeps a PNG as a PNG', async () => {
    const p = await product();
    const png = await solid(300, 200, '#3a6').png().toBuffer();
    const res = await upload(p.id, png, {
      query: 'alt=Green',
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(res.statusCode).toBe(201);
    expect(json(res)).toMatchObject({ mime: 'image/png', width: 300, height: 200 });
  });

  it('refuses an SVG, even one sent as image/jpeg, with 415', async () => {
    const p = await product();
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect/></svg>',
    );
    const body = expectProblem(await upload(p.id, svg), 415, 'image_type_not_accepted');
    expect(body.detail).toContain('SVG');
  });

  it('refuses text named like a JPEG with 415', async () => {
    const p = await product();
    const res = await upload(p.id, Buffer.from('this is not a picture, only text in a file called photo.jpg'));
    expectProblem(res, 415, 'image_type_not_accepted');
  });

  it('refuses an empty body and a cut-short JPEG with 422', async () => {
    const p = await product();
    expectProblem(await upload(p.id, Buffer.alloc(0)), 422, 'invalid_image');
    const jpeg = await solid(400, 400, '#08f').jpeg().toBuffer();
    expectProblem(await upload(p.id, jpeg.subarray(0, 200)), 422, 'invalid_image');
  });

  it('refuses a body larger than MEDIA_MAX_UPLOAD_BYTES with 413', async () => {
    const p = await product();
    const big = Buffer.alloc(250_000, 1);
    const body = expectProblem(await upload(p.id, big), 413, 'payload_too_large');
    expect(body.detail).toContain('200000');
  });

  it('refuses a small PNG declaring more pixels than MEDIA_MAX_PIXELS (a decompression bomb) with 422', async () => {
    const p = await product();
    const png = Buffer.from(await solid(1, 1, '#000').png().toBuffer());
    // The IHDR chunk's width and height (its checksum left stale: the dimensions are refused before any decoding).
    png.writeUInt32BE(100_000, 16);
    png.writeUInt32BE(100_000, 20);
    const body = expectProblem(await upload(p.id, png), 422, 'image_too_many_pixels');
    expect(body.detail).toContain('100000 × 100000');
  });

  it('requires alt text that is not blank (422 naming alt)', async () => {
    const p = await product();
    const png = await solid(20, 20, '#000').png().toBuffer();
    const missing = expectProblem(await upload(p.id, png, { query: '' }), 422, 'validation_error');
    expect(JSON.stringify(missing.errors)).toContain('alt');
    expectProblem(await upload(p.id, png, { query: 'alt=%20%20' }), 422, 'validation_error');
  });

  it('answers 404 for an unknown product and stores nothing for it', async () => {
    const png = await solid(21, 21, '#123456').png().toBuffer();
    expectProblem(await upload(999_999, png), 404, 'product_not_found');
  });

  it('is for admins only: 401 without a token, 403 for a customer', async () => {
    const p = await product();
    const png = await solid(20, 20, '#000').png().toBuffer();
    const url = `${admin}/products/${p.id}/media/?alt=x`;
    expectProblem(await t.app.inject({ method: 'POST', url, payload: png }), 401, 'unauthorized');
    const asCustomer = await t.app.inject({ method: 'POST', url, headers: bearer(customer.access), payload: png });
    expectProblem(asCustomer, 403, 'forbidden');
    expectProblem(await t.app.inject({ method: 'GET', url: `${admin}/products/${p.id}/media/` }), 401, 'unauthorized');
  });
});

describe('ordering images and showing them for variants (admin)', () => {
  it('adds images last, moves one to a position, closes the gap on delete', async () => {
    const p = await product();
    const ids: number[] = [];
    for (const colour of ['#100', '#200', '#300']) {
      ids.push(
        json(await upload(p.id, await solid(40, 30, colour).png().toBuffer(), { query: `alt=${colour.slice(1)}` })).id,
      );
    }
    const order = async () =>
      json(await send('GET', `${admin}/products/${p.id}/media/`)).map((i: { id: number }) => i.id);
    expect(await order()).toEqual(ids);

    const moved = json(await send('PATCH', `${admin}/media/${ids[2]}/`, { position: 0 }));
    expect(moved.position).toBe(0);
    expect(await order()).toEqual([ids[2], ids[0], ids[1]]);

    expect((await send('DELETE', `${admin}/media/${ids[0]}/`)).statusCode).toBe(204);
    const after = json(await send('GET', `${admin}/products/${p.id}/media/`));
    expect(after.map((i: { id: number; position: number }) => [i.id, i.position])).toEqual([
      [ids[2], 0],
      [ids[1], 1],
    ]);
    expectProblem(await send('DELETE', `${admin}/media/${ids[0]}/`), 404, 'media_not_found');
  });

  it("changes alt text, assigns images to the product's variants and refuses another product's variant", async () => {
    const p = await product([
      { name: 'Red', price: '5.00' },
      { name: 'Blue', price: '5.00' },
    ]);
    const other = await product();
    const [red, blue] = p.variants;
    const first = json(await upload(p.id, await solid(50, 50, '#f00').png().toBuffer(), { query: 'alt=Red' }));
    const second = json(
      await upload(p.id, await solid(50, 50, '#00f').png().toBuffer(), { query: `alt=Blue&variant_ids=${blue?.id}` }),
    );
    expect(second.variant_ids).toEqual([blue?.id]);

    const changed = json(
      await send('PATCH', `${admin}/media/${first.id}/`, { alt: 'Red mug', variant_ids: [red?.id] }),
    );
    expect(changed).toMatchObject({ alt: 'Red mug', variant_ids: [red?.id] });

    const foreign = await send('PATCH', `${admin}/media/${first.id}/`, { variant_ids: [other.variants[0]?.id] });
    expect(expectProblem(foreign, 422, 'validation_error').errors[0].field).toBe('variant_ids');
    expectProblem(await send('PATCH', `${admin}/media/${first.id}/`, { alt: '' }), 422, 'validation_error');

    const listed = json(await send('GET', `${admin}/products/${p.id}/`));
    expect(listed.images.map((i: { alt: string }) => i.alt)).toEqual(['Red mug', 'Blue']);

    // The storefront's answer, cached or not, shows the change at once (the catalog cache is cleared by the write).
    const shown = json(await t.app.inject({ method: 'GET', url: `${shop}/products/${p.id}/` }));
    expect(shown.images).toHaveLength(2);
    expect(shown.images[0]).toMatchObject({ id: first.id, alt: 'Red mug', width: 50, height: 50 });
    expect(shown.images[0].url).toBe(`/media/${first.key}/160.jpg`);
    expect(shown.images[0].srcset).toBe(`/media/${first.key}/160.webp 50w`);
    const imageIds = Object.fromEntries(
      shown.variants.map((v: { id: number; image_ids: number[] }) => [v.id, v.image_ids]),
    );
    expect(imageIds).toEqual({ [String(red?.id)]: [first.id], [String(blue?.id)]: [second.id] });
  });
});

describe('serving images', () => {
  let key: string;
  beforeAll(async () => {
    const p = await product();
    key = json(await upload(p.id, await solid(1200, 900, '#4a8').jpeg().toBuffer(), { query: 'alt=Wide' })).key;
  });

  it('serves each width in WebP, AVIF and JPEG, never wider than the original, cached for a year', async () => {
    for (const [file, format, width] of [
      ['320.webp', 'webp', 320],
      ['640.avif', 'heif', 640],
      ['1024.jpg', 'jpeg', 1024],
      ['1600.jpg', 'jpeg', 1200],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url: `/media/${key}/${file}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers.etag).toBe(`"${key}-${file}"`);
      const metadata = await sharp(res.rawPayload).metadata();
      expect(metadata.format).toBe(format);
      expect(metadata.width).toBe(width);
    }
  });

  it('keeps what it made: the second request reads the stored size, and If-None-Match gets a 304', async () => {
    const first = await t.app.inject({ method: 'GET', url: `/media/${key}/160.webp` });
    const derived = await readdir(path.join(t.config.dataDir, 'media', 'derived', key));
    expect(derived).toContain('160.webp');
    const second = await t.app.inject({ method: 'GET', url: `/media/${key}/160.webp` });
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    const again = await t.app.inject({
      method: 'GET',
      url: `/media/${key}/160.webp`,
      headers: { 'if-none-match': `"${key}-160.webp"` },
    });
    expect(again.statusCode).toBe(304);
  });

  it('answers 404 problem+json for an unknown key, and 422 for a width or format not offered', async () => {
    expectProblem(
      await t.app.inject({ method: 'GET', url: `/media/${'0'.repeat(64)}/320.webp` }),
      404,
      'media_not_found',
    );
    const unknown = await t.app.inject({ method: 'GET', url: `/media/${'1'.repeat(64)}/320.webp` });
    expect(String(unknown.headers['cache-control'])).not.toContain('immutable');
    expectProblem(await t.app.inject({ method: 'GET', url: `/media/${key}/500.webp` }), 422, 'validation_error');
    expectProblem(await t.app.inject({ method: 'GET', url: `/media/${key}/320.svg` }), 422, 'validation_error');
  });

  it('cannot be walked out of the media folder', async () => {
    for (const url of [
      '/media/..%2F..%2F..%2Fetc%2Fpasswd/320.webp',
      `/media/${key}/..%2F..%2F${key}`,
      '/media/%2e%2e/320.jpg',
      `/media/${key.toUpperCase()}/320.jpg`,
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect([404, 422]).toContain(res.statusCode);
      expect(String(res.headers['content-type'])).toMatch(/^application\/problem\+json/);
    }
    const dotted = await t.app.inject({ method: 'GET', url: '/media/../../etc/passwd' });
    expect(dotted.statusCode).toBe(404);
  });
});
