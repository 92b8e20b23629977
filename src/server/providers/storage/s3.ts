import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { GetObjectCommandOutput, S3Client } from '@aws-sdk/client-s3';
import type { StorageConfig } from '../../config.js';
import { assertByteRange, assertStorageKey, assertStoragePrefix, type Storage } from './types.js';

export type S3StorageConfig = Extract<StorageConfig, { kind: 's3' }>;

/** Keys are unique (a UUID each), so an object never changes under its URL and may be cached for good. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** Files stored with putFile (replays, clips) are kept by the browser that was let in, never by a CDN in front of the bucket. */
export const PRIVATE_CACHE_CONTROL = 'private, max-age=31536000, immutable';

/** The most one PutObject takes; putFile sends a file in one request, so a larger one is refused before it starts. */
export const MAX_PUT_OBJECT_BYTES = 5 * 1024 ** 3;

type S3Error = { name?: string; $metadata?: { httpStatusCode?: number } };
const isMissing = (err: unknown) => ['NoSuchKey', 'NotFound'].includes((err as S3Error).name ?? '') || (err as S3Error).$metadata?.httpStatusCode === 404;
const isUnsatisfiable = (err: unknown) => (err as S3Error).name === 'InvalidRange' || (err as S3Error).$metadata?.httpStatusCode === 416;

/** `bytes 0-99/1000` from a 206's Content-Range. */
function parseContentRange(header: string | undefined): { start: number; end: number; size: number } | null {
  const match = header ? /^bytes (\d+)-(\d+)\/(\d+)$/.exec(header) : null;
  return match ? { start: Number(match[1]), end: Number(match[2]), size: Number(match[3]) } : null;
}

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
    async putFile(key, file, contentType) {
      assertStorageKey(key);
      // One PutObject streaming the file: @aws-sdk/lib-storage (multipart, each part retried) is not a
      // dependency. The SDK does not retry a streamed body, so a failed upload fails the call whole.
      const { size } = await stat(file);
      if (size > MAX_PUT_OBJECT_BYTES) throw new Error(`${file} is ${size} bytes, more than one PutObject takes (5 GiB)`);
      const { client, commands } = await connect();
      const body = createReadStream(file);
      try {
        await client.send(
          new commands.PutObjectCommand({
            Bucket: config.bucket,
            Key: key,
            Body: body,
            ContentType: contentType,
            ContentLength: size,
            CacheControl: PRIVATE_CACHE_CONTROL,
          }),
        );
      } finally {
        body.destroy();
      }
    },
    async deletePrefix(prefix) {
      assertStoragePrefix(prefix);
      const { client, commands } = await connect();
      let deleted = 0;
      let token: string | undefined;
      do {
        // A page lists at most 1,000 keys, as many as one DeleteObjects takes.
        const page = await client.send(new commands.ListObjectsV2Command({ Bucket: config.bucket, Prefix: prefix, ContinuationToken: token }));
        const objects = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
        if (objects.length > 0) {
          const result = await client.send(new commands.DeleteObjectsCommand({ Bucket: config.bucket, Delete: { Objects: objects, Quiet: true } }));
          const failed = result.Errors ?? [];
          // DeleteObjects answers 200 with a list of the keys it could not delete.
          if (failed.length > 0) throw new Error(`could not delete ${failed.length} keys under ${prefix}, as ${failed[0]?.Key}: ${failed[0]?.Code}`);
          deleted += objects.length;
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return deleted;
    },
    async read(key) {
      const { client, commands } = await connect();
      try {
        const object = await client.send(new commands.GetObjectCommand({ Bucket: config.bucket, Key: key }));
        return object.Body ? Buffer.from(await object.Body.transformToByteArray()) : null;
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    async stat(key) {
      assertStorageKey(key);
      const { client, commands } = await connect();
      try {
        const head = await client.send(new commands.HeadObjectCommand({ Bucket: config.bucket, Key: key }));
        return { size: head.ContentLength ?? 0, contentType: head.ContentType ?? null };
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    async readRange(key, range) {
      assertStorageKey(key);
      // Checked here because S3 answers the whole object to a range that ends before it starts.
      if (range) assertByteRange(range);
      const { client, commands } = await connect();
      let object: GetObjectCommandOutput;
      try {
        // One request, not a HEAD first: each seek in a replay is one round trip to the bucket.
        object = await client.send(
          new commands.GetObjectCommand({ Bucket: config.bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
        );
      } catch (err) {
        if (isMissing(err)) return null;
        if (isUnsatisfiable(err)) throw new RangeError(`byte range starts past the object: ${key} ${range?.start}-${range?.end}`);
        throw err;
      }
      const body = object.Body;
      if (!(body instanceof Readable)) throw new Error(`no readable body for ${key}`);
      const span = parseContentRange(object.ContentRange);
      if (range && !span) {
        // A service that ignored the Range would stream the whole object as if it were the range.
        body.destroy();
        throw new Error(`the storage service ignored the byte range asked for ${key}`);
      }
      if (span && span.start >= span.size) {
        // S3 answers 416 for a range of an empty object; s3rver answers `bytes 0-0/0` with a byte.
        body.destroy();
        throw new RangeError(`byte range starts past the object (${span.size} bytes): ${key} ${range?.start}-${range?.end}`);
      }
      const size = span?.size ?? object.ContentLength ?? 0;
      return { body, size, start: span?.start ?? 0, end: span?.end ?? size - 1, contentType: object.ContentType ?? null };
    },
  };
}
