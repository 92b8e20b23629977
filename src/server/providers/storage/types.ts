/**
 * Where uploaded files live. Local disk (DATA_DIR/uploads) by default; the S3 implementation
 * arrives behind this same interface, chosen from config in providers/index.ts.
 */
export interface Storage {
  /** Stores `body` under `key` (a relative path such as `images/2026/11/<id>.jpg`) and answers its public URL. */
  put(key: string, body: Buffer, contentType: string): Promise<{ url: string }>;
  delete(key: string): Promise<void>;
  /** The public URL of a key, without touching storage. */
  urlFor(key: string): string;
  /** Local disk only: the folder served at `/uploads/`. */
  readonly localDir: string | null;
}
