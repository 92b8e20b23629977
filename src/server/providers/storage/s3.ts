import type { S3Client } from '@aws-sdk/client-s3';
import type { StorageConfig } from '../../config.js';
import type { Storage } from './types.js';

export type S3StorageConfig = Extract<StorageConfig, { kind: 's3' }>;

/** Keys are unique (a UUID each), so an object never changes under its URL and may be cached for good. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** One client for the bucket, also used by `npm run storage:to-s3`. */
export async function createS3Client(config: S3StorageConfig): Promise<S3Client> {
  const { S3Client } = await import('@aws-sdk/client-s3');
  return new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    // A copy: the SDK writes its own bookkeeping into the credentials object it is given.
    ...(config.credentials ? { credentials: { ...config.credentials } } : {}),
    // The SDK's default since 2025 adds CRC checksums to every upload, which several S3-compatible
    // services refused at first; checksums are sent only where the API requires them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** The public URL of a key: the bucket's (or the CDN's) address plus the key, each segment encoded. */
export function s3UrlFor(config: Pick<S3StorageConfig, 'publicUrl'>, key: string): string {
  return `${config.publicUrl}/${key.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * Objects in a bucket of S3 or an S3-compatible service. Pages load images from `publicUrl` (the
 * bucket made public, or a CDN in front of it); the server reads one only to draw a share card.
 */
export function createS3Storage(config: S3StorageConfig): Storage {
  // The SDK is loaded on the first upload: a server on local disk, or one that only reads, never pays for it.
  let sdk: Promise<{ client: S3Client; commands: typeof import('@aws-sdk/client-s3') }> | null = null;
  const connect = () => {
    sdk ??= Promise.all([createS3Client(config), import('@aws-sdk/client-s3')]).then(([client, commands]) => ({ client, commands }));
    return sdk;
  };
  return {
    localDir: null,
    urlFor: (key) => s3UrlFor(config, key),
    async put(key, body, contentType) {
      const { client, commands } = await connect();
      await client.send(
        new commands.PutObjectCommand({
          Bucket: config.bucket,
          Key: key,
          Body: body,
          ContentType: contentType,
          ContentLength: body.length,
          CacheControl: IMMUTABLE_CACHE_CONTROL,
        }),
      );
      return { url: s3UrlFor(config, key) };
    },
    async delete(key) {
      // S3 answers 204 for a key that is not there too, as the local provider ignores a missing file.
      const { client, commands } = await connect();
      await client.send(new commands.DeleteObjectCommand({ Bucket: config.bucket, Key: key }));
    },
    async read(key) {
      const { client, commands } = await connect();
      try {
        const object = await client.send(new commands.GetObjectCommand({ Bucket: config.bucket, Key: key }));
        return object.Body ? Buffer.from(await object.Body.transformToByteArray()) : null;
      } catch (err) {
        if ((err as { name?: string }).name === 'NoSuchKey' || (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404)
          return null;
        throw err;
      }
    },
  };
}
