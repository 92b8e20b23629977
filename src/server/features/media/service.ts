import { randomUUID } from 'node:crypto';
import type { UploadResult } from '../../../domain/uploads.js';
import type { Db } from '../../db/connect.js';
import { type UPLOAD_KINDS, uploads } from '../../db/schema.js';
import type { Storage } from '../../providers/storage/types.js';
import { processImage } from './images.js';

export type UploadKind = (typeof UPLOAD_KINDS)[number];

/** Longest side kept per use: auction photos open in a lightbox; covers are wide banners. */
export const MAX_SIDE: Record<UploadKind, number> = {
  auction_image: 1600,
  quick_auction: 1600,
  session_cover: 1920,
};

/** `images/<yyyy>/<mm>/<uuid>`: unique, so the files can be cached forever. */
function newKeyBase(now: Date): string {
  const yyyy = String(now.getUTCFullYear());
  const mm = String(now.getUTCMonth() + 1).padStart(2, '0');
  return `images/${yyyy}/${mm}/${randomUUID()}`;
}

/**
 * Re-encodes an uploaded image, stores it and its thumbnail, and records both in `uploads`.
 * Throws ImageError for bytes that are not a usable image; nothing is stored then.
 */
export async function saveUploadedImage(
  db: Db,
  storage: Storage,
  opts: { owner: { id: string; companyId: string }; kind: UploadKind; bytes: Buffer; now?: Date },
): Promise<UploadResult> {
  const image = await processImage(opts.bytes, { maxSide: MAX_SIDE[opts.kind] });
  const base = newKeyBase(opts.now ?? new Date());
  const storageKey = `${base}.jpg`;
  const thumbnailKey = `${base}-thumb.jpg`;

  const stored: string[] = [];
  try {
    const { url } = await storage.put(storageKey, image.main, 'image/jpeg');
    stored.push(storageKey);
    const { url: thumbnailUrl } = await storage.put(thumbnailKey, image.thumb, 'image/jpeg');
    stored.push(thumbnailKey);
    await db.insert(uploads).values({
      ownerId: opts.owner.id,
      companyId: opts.owner.companyId,
      kind: opts.kind,
      storageKey,
      url,
      thumbnailKey,
      thumbnailUrl,
      contentType: 'image/jpeg',
      bytes: image.main.length,
      width: image.width,
      height: image.height,
    });
    return { url, thumbnailUrl, width: image.width, height: image.height };
  } catch (err) {
    // A file with no row is an orphan nobody can find again: take it back out.
    await Promise.allSettled(stored.map((key) => storage.delete(key)));
    throw err;
  }
}
