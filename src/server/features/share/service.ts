import { screenForPath } from '../../../domain/screens.js';
import type { Db } from '../../db/connect.js';
import { messages } from '../../messages.js';
import type { Storage } from '../../providers/storage/types.js';
import { escapeAttr } from '../../web/preload.js';
import { CARD_HEIGHT, CARD_WIDTH, type CardPicture, pictureHash, renderCard } from './card-image.js';
import { type CardKind, lotCardKey, readCard, type ShareCard } from './cards.js';
import { readCardPhoto } from './photos.js';

/**
 * Link previews: the tags a page's HTML carries for WhatsApp, Facebook and X (which read no
 * JavaScript), and the card's picture they point to. A page's card is read from the database and
 * kept a few seconds (a link posted in a big group brings a storm of crawlers at once); pictures
 * are kept by hash in a small LRU, so each is drawn once.
 */

/** How long a page's card is reused: short, so a show that goes live says so within seconds. */
const CARD_TTL_MS = 5_000;
const MAX_CARDS = 1_000;
/** Pictures kept in memory (about 50–200 KB each). */
const MAX_PICTURES = 64;

/** The site's own card: the generic preview for any page without one of its own. */
const SITE_PICTURE: CardPicture = {
  title: messages.share.siteTagline,
  seller: messages.share.siteCardLine,
  detail: '',
  live: false,
  photoUrl: null,
  replay: false,
  poster: null,
};

const pictureOf = (card: ShareCard): CardPicture => ({
  title: card.drawnTitle ?? card.title,
  seller: card.seller,
  detail: card.detail,
  live: card.live,
  photoUrl: card.photoUrl,
  replay: card.replay !== null,
  poster: card.replay?.poster ?? null,
});

/** The picture's path, `/og/live/<id>-<hash>.jpg` (or `/og/martillo-<hash>.jpg` for the site's own). */
export function picturePath(card: ShareCard | null): string {
  if (!card) return `/og/martillo-${pictureHash(SITE_PICTURE)}.jpg`;
  return `/og/${card.kind}/${encodeURIComponent(card.key)}-${pictureHash(pictureOf(card))}.jpg`;
}

export type PictureAnswer = { kind: 'image'; body: Buffer } | { kind: 'moved'; path: string } | { kind: 'none' };

export interface Share {
  /** The tags for a page's head (its address, with `?lote=` if any): `<title>`, description, og: and twitter:, all escaped. */
  pageHead(url: string): Promise<string>;
  /** The picture a `/og/…` path names: the JPEG, a redirect to the current one (an older hash), or none. */
  picture(kind: CardKind | 'site', key: string, hash: string): Promise<PictureAnswer>;
}

export function createShare(deps: { db: Db; storage: Storage; publicUrl: URL }): Share {
  const cards = new Map<string, { expires: number; card: Promise<ShareCard | null> }>();
  const pictures = new Map<string, Promise<Buffer>>();

  const cardFor = (kind: CardKind, key: string): Promise<ShareCard | null> => {
    const id = `${kind}:${key}`;
    const now = Date.now();
    const kept = cards.get(id);
    if (kept && kept.expires > now) return kept.card;
    const card = readCard(deps.db, kind, key);
    cards.delete(id);
    cards.set(id, { expires: now + CARD_TTL_MS, card });
    // A failed read is not kept.
    card.catch(() => cards.delete(id));
    for (const oldest of cards.keys()) {
      if (cards.size <= MAX_CARDS) break;
      cards.delete(oldest);
    }
    return card;
  };

  /** Drawn once per hash: a second request for it while it is drawn waits for the same work. */
  const draw = (hash: string, picture: CardPicture): Promise<Buffer> => {
    const kept = pictures.get(hash);
    if (kept) {
      // Most recently used last.
      pictures.delete(hash);
      pictures.set(hash, kept);
      return kept;
    }
    const made = (async () => {
      const photo = await readCardPhoto(deps.db, deps.storage, picture);
      const jpeg = await renderCard(picture, photo.bytes);
      if (!photo.lasting) pictures.delete(hash);
      return jpeg;
    })();
    pictures.set(hash, made);
    made.catch(() => pictures.delete(hash));
    for (const oldest of pictures.keys()) {
      if (pictures.size <= MAX_PICTURES) break;
      pictures.delete(oldest);
    }
    return made;
  };

  const absolute = (path: string) => new URL(path, deps.publicUrl).href;

  const cardOfPath = async (pathname: string, lot: string | null): Promise<ShareCard | null> => {
    const screen = screenForPath(pathname);
    if (screen.kind === 'live' && screen.sessionId) {
      // A show's lot (search results link it so): its own card, else the show's.
      const lotCard = lot ? await cardFor('lote', lotCardKey(screen.sessionId, lot)) : null;
      return lotCard ?? cardFor('live', screen.sessionId);
    }
    if (screen.kind === 'auction') return cardFor('auction', screen.auctionId);
    if (screen.kind === 'store') return cardFor('tienda', screen.slug);
    return Promise.resolve(null);
  };

  /** The page a generic preview names: the buyers' own pages by their path, anything else the home. */
  const genericPath = (pathname: string) => {
    const kind = screenForPath(pathname).kind;
    return ['home', 'search', 'alerts', 'sell'].includes(kind) ? pathname : '/';
  };

  return {
    async pageHead(address) {
      const [pathname = '/', query = ''] = address.split('?');
      const lot = new URLSearchParams(query).get('lote');
      let card: ShareCard | null = null;
      try {
        card = await cardOfPath(pathname, lot);
      } catch {
        // The database failing must not take the page down: the generic preview.
      }
      const share = messages.share;
      const title = card ? `${card.title} · ${share.siteName}` : share.siteTitle;
      const description = card ? card.description : share.siteDescription;
      const url = absolute(card ? card.path : genericPath(pathname));
      const image = absolute(picturePath(card));
      const meta = (attr: 'name' | 'property', name: string, content: string) => `<meta ${attr}="${name}" content="${escapeAttr(content)}">`;
      // A public replay is an MP4 anyone may fetch (with Range): the tags that let a preview play it.
      const video = card?.replay ? absolute(card.replay.videoPath) : null;
      const videoTags = video
        ? [
            meta('property', 'og:video', video),
            ...(video.startsWith('https:') ? [meta('property', 'og:video:secure_url', video)] : []),
            meta('property', 'og:video:type', 'video/mp4'),
          ]
        : [];
      return [
        `<title>${escapeAttr(title)}</title>`,
        meta('name', 'description', description),
        `<link rel="canonical" href="${escapeAttr(url)}">`,
        meta('property', 'og:type', video ? 'video.other' : 'website'),
        meta('property', 'og:site_name', share.siteName),
        meta('property', 'og:locale', 'es_MX'),
        meta('property', 'og:title', card ? card.title : share.siteTitle),
        meta('property', 'og:description', description),
        meta('property', 'og:url', url),
        meta('property', 'og:image', image),
        meta('property', 'og:image:type', 'image/jpeg'),
        meta('property', 'og:image:width', String(CARD_WIDTH)),
        meta('property', 'og:image:height', String(CARD_HEIGHT)),
        meta('property', 'og:image:alt', share.imageAlt.replace('{title}', card ? card.title : share.siteName)),
        ...videoTags,
        meta('name', 'twitter:card', 'summary_large_image'),
        meta('name', 'twitter:title', card ? card.title : share.siteTitle),
        meta('name', 'twitter:description', description),
        meta('name', 'twitter:image', image),
      ].join('');
    },

    async picture(kind, key, hash) {
      if (kind === 'site') {
        const current = pictureHash(SITE_PICTURE);
        if (hash !== current) return { kind: 'moved', path: picturePath(null) };
        return { kind: 'image', body: await draw(current, SITE_PICTURE) };
      }
      const card = await cardFor(kind, key);
      if (!card) return { kind: 'none' };
      const picture = pictureOf(card);
      const current = pictureHash(picture);
      if (hash !== current) return { kind: 'moved', path: picturePath(card) };
      return { kind: 'image', body: await draw(current, picture) };
    },
  };
}
