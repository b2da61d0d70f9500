import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { MediaSettings } from '../config.js';
import { FileStorage, type MediaStorage } from './media-storage.js';
import { S3Storage } from './s3-storage.js';

/** The storage MEDIA_STORAGE names: files under DATA_DIR/media, or an S3 bucket; `close` lets go of its client. */
export function createMediaStorage(input: { settings: MediaSettings; dataDir: string }): {
  storage: MediaStorage;
  close: () => void;
} {
  const { storage } = input.settings;
  if (storage.kind === 'file') return { storage: new FileStorage(path.join(input.dataDir, 'media')), close: () => {} };
  const { kind: _kind, ...s3 } = storage;
  const bucket = new S3Storage(s3);
  return { storage: bucket, close: () => bucket.close() };
}

/** The app's media storage, closed with the app. */
export function openMediaStorage(
  app: FastifyInstance,
  input: { settings: MediaSettings; dataDir: string },
): MediaStorage {
  const { storage, close } = createMediaStorage(input);
  app.addHook('onClose', async () => close());
  return storage;
}
