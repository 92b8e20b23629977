/** What the stored keys look like (`images/2026/05/<uuid>-thumb.jpg`): no dots but the extension, no escapes. */
export const SERVABLE_KEY = /^[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+)*\.(?:jpg|jpeg|png|webp|gif|avif)$/;

/**
 * Where uploaded files live: local disk (DATA_DIR/uploads) by default, or a bucket of S3 or an
 * S3-compatible service (STORAGE=s3), chosen from config in providers/index.ts.
 */
export interface Storage {
  /** Stores `body` under `key` (a relative path such as `images/2026/11/<id>.jpg`) and answers its public URL. */
  put(key: string, body: Buffer, contentType: string): Promise<{ url: string }>;
  delete(key: string): Promise<void>;
  /** The bytes stored under `key`, or null when there are none (the share card reads photos this way, never by URL). */
  read(key: string): Promise<Buffer | null>;
  /** The public URL of a key, without touching storage. */
  urlFor(key: string): string;
  /** Local disk only: the folder served at `/uploads/`. */
  readonly localDir: string | null;
}
