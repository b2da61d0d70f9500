import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { S3MediaSettings } from '../src/config.js';
import { S3Storage } from '../src/media/s3-storage.js';
import { derivedName, originalName } from '../src/media/media.values.js';
import { adminApi } from './fixtures.js';
import { bearer, buildTestApp, json, type SignedIn, signInAdmin, type TestApp } from './helpers.js';

// Images kept in S3-compatible storage (MEDIA_STORAGE=s3), against s3rver, a local peer that speaks the S3 protocol,
// started here on a free loopback port: nothing leaves the machine.

let s3: S3rver;
let directory: string;
let settings: S3MediaSettings;
let t: TestApp;
let adminUser: SignedIn;

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 's3rver-'));
  s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: 'media' }] });
  const { port } = await s3.run();
  settings = {
    bucket: 'media',
    region: 'us-east-1',
    endpoint: `http://127.0.0.1:${port}`,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    forcePathStyle: true,
    prefix: 'shop-1/',
  };
  t = await buildTestApp({
    config: {
      media: {
        storage: { kind: 's3', ...settings },
        maxUploadBytes: 1_000_000,
        maxPixels: 4_000_000,
        memoryCacheBytes: 0,
      },
    },
  });
  adminUser = await signInAdmin(t);
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
  await rm(directory, { recursive: true, force: true });
});

async function objectKeys(): Promise<string[]> {
  const client = new S3Client({ ...settings, endpoint: settings.endpoint });
  try {
    const listed = await client.send(new ListObjectsV2Command({ Bucket: 'media' }));
    return (listed.Contents ?? []).map((o) => o.Key ?? '').sort();
  } finally {
    client.destroy();
  }
}

describe('S3 storage', () => {
  it('keeps the original and every size made as objects under the prefix, and serves them back', async () => {
    const product = await adminApi(t, adminUser).product({
      name: 'In a bucket',
      variants: [{ name: 'One', price: '1.00' }],
    });
    const png = await sharp({ create: { width: 700, height: 500, channels: 3, background: '#e90' } })
      .png()
      .toBuffer();
    const res = await t.app.inject({
      method: 'POST',
      url: `/product/dashboard/api/products/${product.id}/media/?alt=Orange`,
      headers: { ...bearer(adminUser.access), 'content-type': 'image/png' },
      payload: png,
    });
    expect(res.statusCode).toBe(201);
    const { key } = json(res);
    expect(await objectKeys()).toEqual([`shop-1/originals/${key}`]);

    const served = await t.app.inject({ method: 'GET', url: `/media/${key}/320.webp` });
    expect(served.statusCode).toBe(200);
    expect((await sharp(served.rawPayload).metadata()).width).toBe(320);
    expect(await objectKeys()).toEqual([`shop-1/derived/${key}/320.webp`, `shop-1/originals/${key}`]);

    // The memory cache is off here: the second answer is the object stored, byte for byte.
    const again = await t.app.inject({ method: 'GET', url: `/media/${key}/320.webp` });
    expect(again.rawPayload.equals(served.rawPayload)).toBe(true);
  });

  it('answers null for an object that is not there, and refuses a name it did not make', async () => {
    const storage = new S3Storage(settings);
    try {
      const key = 'f'.repeat(64);
      expect(await storage.get(originalName(key))).toBeNull();
      await storage.put(derivedName(key, { width: 160, format: 'jpg' }), Buffer.from('x'), 'image/jpeg');
      expect((await storage.get(derivedName(key, { width: 160, format: 'jpg' })))?.toString()).toBe('x');
      // biome-ignore lint/suspicious/noExplicitAny: a name from outside, as no caller in the code can make one
      await expect(storage.get('originals/../../secret' as any)).rejects.toThrow(/not a media storage name/);
    } finally {
      storage.close();
    }
  });
});
