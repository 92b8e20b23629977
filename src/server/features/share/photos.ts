import { or, sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import { uploads } from '../../db/schema.js';
import { SERVABLE_KEY, type Storage, VIDEO_KEY } from '../../providers/storage/types.js';
import type { CardPicture } from './card-image.js';

/** A photo bigger than this is not drawn (uploads are re-encoded to well under it). */
const MAX_PHOTO_BYTES = 20 * 1024 * 1024;

/**
 * The storage key of a photo a record names by URL: the upload it came from (by its URL or its
 * thumbnail's, whichever the record kept: the full-size file is drawn), or a key in this site's own
 * `/uploads/` or the storage's public address. Anything else (an outside https address) has none:
 * the server never fetches a URL a seller typed.
 */
export async function photoKey(db: Db, storage: Storage, url: string): Promise<string | null> {
  const [upload] = await db
    .select({ key: uploads.storageKey })
    .from(uploads)
    .where(or(sql`${uploads.url} = ${url}`, sql`${uploads.thumbnailUrl} = ${url}`))
    .limit(1);
  if (upload && SERVABLE_KEY.test(upload.key)) return upload.key;
  const own = ownKey(storage, url);
  return own && SERVABLE_KEY.test(own) ? own : null;
}

function ownKey(storage: Storage, url: string): string | null {
  const decode = (path: string) => {
    try {
      return path.split('/').map(decodeURIComponent).join('/');
    } catch {
      return null;
    }
  };
  if (url.startsWith('/uploads/')) return decode(url.slice('/uploads/'.length));
  const base = storage.urlFor('x').slice(0, -1);
  if (base !== '/uploads/' && url.startsWith(base)) return decode(url.slice(base.length));
  return null;
}

/**
 * The photo's bytes through the storage provider, or null (none, no such file, too big): the card is
 * then drawn on the branded background. `lasting` is false when storage failed, so that picture is
 * not kept as if it were the card's.
 */
export async function readPhoto(db: Db, storage: Storage, url: string | null): Promise<{ bytes: Buffer | null; lasting: boolean }> {
  if (!url) return { bytes: null, lasting: true };
  const key = await photoKey(db, storage, url);
  if (!key) return { bytes: null, lasting: true };
  try {
    const bytes = await storage.read(key);
    return { bytes: bytes && bytes.length <= MAX_PHOTO_BYTES ? bytes : null, lasting: true };
  } catch {
    return { bytes: null, lasting: false };
  }
}

/** A replay's poster as the replays job stores it (`replays/<session id>/poster.jpg`). */
const POSTER_KEY = /^replays\/[0-9a-f-]+\/poster\.jpg$/;

/**
 * A public replay's poster, read through the storage provider by its key: never by an address (the
 * replays feature serves it, to those who may watch). The card names a poster only while its replay
 * is public (reads/public-replays.ts).
 */
export async function readPoster(storage: Storage, key: string): Promise<{ bytes: Buffer | null; lasting: boolean }> {
  if (!POSTER_KEY.test(key) || !VIDEO_KEY.test(key)) return { bytes: null, lasting: true };
  try {
    const bytes = await storage.read(key);
    return { bytes: bytes && bytes.length <= MAX_PHOTO_BYTES ? bytes : null, lasting: true };
  } catch {
    return { bytes: null, lasting: false };
  }
}

/** What a card draws behind its text: the replay's poster when it has one that reads, else its photo. */
export async function readCardPhoto(db: Db, storage: Storage, picture: CardPicture): Promise<{ bytes: Buffer | null; lasting: boolean }> {
  const poster = picture.poster ? await readPoster(storage, picture.poster.key) : null;
  if (poster?.bytes) return poster;
  const photo = await readPhoto(db, storage, picture.photoUrl);
  return { bytes: photo.bytes, lasting: photo.lasting && (poster?.lasting ?? true) };
}
