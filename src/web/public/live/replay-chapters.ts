import type { ReplayChapter } from '../../../domain/replays.js';

/**
 * The replay's chapters and its video, as plain functions of a video-like element and the address,
 * so the player (replay-player.tsx) only wires them to React: which chapter plays now, the link's
 * `?lote={auctionId}` that opens the replay at a lot, and a tap that seeks there.
 */

/** The address's parameter naming a lot of the show (a seller's page links to it too). */
export const LOT_PARAM = 'lote';

/** What the player needs of a <video>: its clock, its load state, play, and its events. */
export interface ReplayVideo {
  currentTime: number;
  readonly readyState: number;
  play(): Promise<void> | undefined;
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
}

/** The part of `window` a tap changes: the address, without a reload. */
export interface AddressBar {
  location: { pathname: string; search: string; hash: string };
  history: { state: unknown; replaceState(data: unknown, unused: string, url?: string | URL | null): void };
}

/** HTMLMediaElement.HAVE_METADATA: the duration is known, so the clock may be set. */
const HAVE_METADATA = 1;

/** The chapter playing at `ms` on the replay's clock: the one whose [startMs, endMs) holds it. */
export function chapterAt(chapters: readonly ReplayChapter[], ms: number): ReplayChapter | null {
  return chapters.find((chapter) => ms >= chapter.startMs && ms < chapter.endMs) ?? null;
}

/** The chapter the address names (`?lote={auctionId}`), or null. */
export function chapterFromSearch(chapters: readonly ReplayChapter[], search: string): ReplayChapter | null {
  const auctionId = new URLSearchParams(search).get(LOT_PARAM);
  return auctionId ? (chapters.find((chapter) => chapter.auctionId === auctionId) ?? null) : null;
}

/** `search` with `?lote=` set to `auctionId`, its other parameters kept. */
export function searchWithLot(search: string, auctionId: string): string {
  const params = new URLSearchParams(search);
  params.set(LOT_PARAM, auctionId);
  return `?${params.toString()}`;
}

/** A moment of the replay as m:ss ('1:05', '75:30' past the hour). */
export function formatMoment(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

/**
 * Follows the video: `onChapter` with the chapter playing whenever its clock moves, and, once its
 * metadata is in, the clock set once at `start` (the lot the link named). Returns the cleanup.
 */
export function followReplay(
  video: ReplayVideo,
  opts: { chapters: readonly ReplayChapter[]; start: ReplayChapter | null; onChapter: (chapter: ReplayChapter | null) => void },
): () => void {
  const report = () => opts.onChapter(chapterAt(opts.chapters, video.currentTime * 1000));
  let isPositioned = opts.start === null;
  const position = () => {
    if (isPositioned || !opts.start) return;
    isPositioned = true;
    video.currentTime = opts.start.startMs / 1000;
    report();
  };
  video.addEventListener('timeupdate', report);
  video.addEventListener('seeked', report);
  video.addEventListener('loadedmetadata', position);
  // The metadata may have come before this ran (a cached video).
  if (video.readyState >= HAVE_METADATA) position();
  return () => {
    video.removeEventListener('timeupdate', report);
    video.removeEventListener('seeked', report);
    video.removeEventListener('loadedmetadata', position);
  };
}

/** A tap on a chapter: the video jumps to its start and plays, and the address names the lot (no reload, no new history entry). */
export function playChapter(video: ReplayVideo, chapter: ReplayChapter, address: AddressBar): void {
  video.currentTime = chapter.startMs / 1000;
  // A browser may refuse to play (no gesture it counts, data saver): the video stays at the chapter, paused.
  video.play()?.catch(() => undefined);
  const { pathname, search, hash } = address.location;
  address.history.replaceState(address.history.state, '', `${pathname}${searchWithLot(search, chapter.auctionId)}${hash}`);
}
