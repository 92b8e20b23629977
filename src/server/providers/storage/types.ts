import type { Readable } from 'node:stream';

/**
 * What the public images' keys look like (`images/2026/05/<uuid>-thumb.jpg`): no dots but the
 * extension, no escapes. Never under `replays/` or `clips/`: a hidden replay's poster and a buyer's
 * clip are served by the replays feature, to those who may see them, never at `/uploads/`.
 */
export const SERVABLE_KEY = /^(?!replays\/|clips\/)[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+)*\.(?:jpg|jpeg|png|webp|gif|avif)$/;

/** A stored file's type from its key's extension: local disk keeps none, and a move to S3 sets it so. */
export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.avif': 'image/avif',
  '.mp4': 'video/mp4',
};

/**
 * What replays' keys look like (`replays/<uuid>/replay.mp4`, `replays/<uuid>/poster.jpg`,
 * `clips/<uuid>.mp4`): the same shape as SERVABLE_KEY with video's extensions.
 */
export const VIDEO_KEY = /^[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+)*\.(?:mp4|jpg)$/;

/** Bytes `start` to `end` of an object, both included, as in an HTTP Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface StoredObject {
  size: number;
  /** The type given when it was stored (S3), or the one its extension names (local disk). */
  contentType: string | null;
}

export interface StoredRange extends StoredObject {
  /** Bytes `start`..`end` only; the caller must read it to the end or destroy it, or a file or socket stays open. */
  body: Readable;
  start: number;
  /** Never past the last byte: a range that asks beyond the object ends at `size - 1`. */
  end: number;
}

/**
 * Where uploaded files live: local disk (DATA_DIR/uploads) by default, or a bucket of S3 or an
 * S3-compatible service (STORAGE=s3), chosen from config in providers/index.ts.
 */
export interface Storage {
  /** Stores `body` under `key` (a relative path such as `images/2026/11/<id>.jpg`) and answers its public URL. */
  put(key: string, body: Buffer, contentType: string): Promise<{ url: string }>;
  /** Stores the file at the local path `file` under `key`, streamed: replays are gigabytes and never held in memory. */
  putFile(key: string, file: string, contentType: string): Promise<void>;
  delete(key: string): Promise<void>;
  /** Deletes every key under `prefix` (`replays/<id>/`, ending in '/') and answers how many there were. */
  deletePrefix(prefix: string): Promise<number>;
  /** The bytes stored under `key`, or null when there are none (the share card reads photos this way, never by URL). */
  read(key: string): Promise<Buffer | null>;
  /** The size and type of `key`, or null when there is none. */
  stat(key: string): Promise<StoredObject | null>;
  /**
   * A stream of `range` of `key` (the whole object for null), or null when there is none: the server
   * serves replays itself, with HTTP Range, so seeking never downloads a whole show. Whether the range
   * suits the request is the caller's to decide; one that starts past the object or ends before it
   * starts is a RangeError.
   */
  readRange(key: string, range: ByteRange | null): Promise<StoredRange | null>;
  /** The public URL of a key, without touching storage. */
  urlFor(key: string): string;
  /** Local disk only: the folder served at `/uploads/`. */
  readonly localDir: string | null;
}

/**
 * Throws unless `key` is a plain relative path: no leading '/', no backslash, no empty, '.' or '..'
 * segment (nor '..' anywhere), no control character. Keys are built by the server, so one that is
 * not is a bug worth stopping before it reaches the disk or the bucket, where S3 would take it as
 * a different key from the one local disk resolves.
 */
export function assertStorageKey(key: string): void {
  const segments = key.split('/');
  const isSafe =
    key.length > 0 &&
    !key.includes('\\') &&
    !key.includes('..') &&
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for.
    !/[\u0000-\u001f\u007f]/.test(key) &&
    segments.every((segment) => segment !== '' && segment !== '.');
  if (!isSafe) throw new Error(`unsafe storage key: ${JSON.stringify(key)}`);
}

/** Throws unless `prefix` is a folder of safe keys (`replays/<id>/`): never empty, always ending in '/'. */
export function assertStoragePrefix(prefix: string): void {
  if (!prefix.endsWith('/')) throw new Error(`a storage prefix ends with '/': ${JSON.stringify(prefix)}`);
  assertStorageKey(prefix.slice(0, -1));
}

/**
 * Checks `range` against an object of `size` bytes and answers the bytes to read, `end` cut to the
 * last byte; null reads the whole object (`end` is -1 for an empty one).
 */
export function clampRange(range: ByteRange | null, size: number): { start: number; end: number } {
  if (!range) return { start: 0, end: size - 1 };
  assertByteRange(range);
  if (range.start >= size) throw new RangeError(`byte range starts past the object (${size} bytes): ${range.start}-${range.end}`);
  return { start: range.start, end: Math.min(range.end, size - 1) };
}

/** Throws a RangeError unless `range` is whole, non-negative byte offsets that do not end before they start. */
export function assertByteRange({ start, end }: ByteRange): void {
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0) throw new RangeError(`not a byte range: ${start}-${end}`);
  if (start > end) throw new RangeError(`byte range ends before it starts: ${start}-${end}`);
}
