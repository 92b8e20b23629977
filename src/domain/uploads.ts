/** POST /api/uploads (multipart, field `file`). */
export interface UploadResult {
  url: string;
  thumbnailUrl: string;
  width: number;
  height: number;
}

/** Bytes accepted per image before re-encoding. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** What the file picker offers; the server decides from the bytes, not from this list. */
export const ACCEPTED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'image/heic', 'image/heif'] as const;
