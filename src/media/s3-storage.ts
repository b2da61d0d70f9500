import { GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { assertStorageName, type MediaStorage } from './media-storage.js';
import type { StorageName } from './media.values.js';

/** Where S3Storage keeps objects (MEDIA_S3_* in the README's configuration table). */
export interface S3Settings {
  bucket: string;
  region: string;
  /** An S3-compatible service's URL (MinIO, R2, a local peer); undefined: AWS. */
  endpoint: string | undefined;
  /** Undefined: the SDK's default chain (environment, profile, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** Bucket in the path rather than the host name (what most S3-compatible services want). */
  forcePathStyle: boolean;
  /** Prefix of every object's key, so one bucket can hold several stores' images. */
  prefix: string;
}

/** Images as objects in an S3 bucket (the official AWS SDK v3), for a store whose processes run on several machines. */
export class S3Storage implements MediaStorage {
  private readonly client: S3Client;

  constructor(private readonly settings: S3Settings) {
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      credentials: settings.credentials,
      forcePathStyle: settings.forcePathStyle,
      // Checksums only where S3 requires them: S3-compatible services do not all know the newer checksum headers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private keyOf(name: string): string {
    assertStorageName(name);
    return `${this.settings.prefix}${name}`;
  }

  async get(name: StorageName): Promise<Buffer | null> {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.keyOf(name) }),
      );
      if (!answer.Body) return null;
      return Buffer.from(await answer.Body.transformToByteArray());
    } catch (err) {
      if (err instanceof NoSuchKey) return null;
      if (err instanceof S3ServiceException && err.$metadata.httpStatusCode === 404) return null;
      throw err;
    }
  }

  async put(name: StorageName, bytes: Buffer, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: this.keyOf(name),
        Body: bytes,
        ContentType: contentType,
      }),
    );
  }

  close(): void {
    this.client.destroy();
  }
}
