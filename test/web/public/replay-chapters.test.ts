import { describe, expect, it, vi } from 'vitest';
import type { ReplayChapter } from '../../../src/domain/replays';
import {
  type AddressBar,
  chapterAt,
  chapterFromSearch,
  followReplay,
  formatMoment,
  playChapter,
  searchWithLot,
} from '../../../src/web/public/live/replay-chapters';

/**
 * The replay's chapters against its video: which one is playing as the clock moves, a tap that
 * seeks and names the lot in the address, and '?lote=' opening the video at its lot. The video is
 * an event target with a clock, as the page's <video> is to this code.
 */

const CHAPTERS: ReplayChapter[] = [
  { auctionId: 'a1', name: 'Reloj Omega', imageUrl: '/uploads/omega.jpg', startMs: 0, endMs: 65_000, result: 'sold', price: 1250 },
  { auctionId: 'a2', name: 'Reloj Seiko', imageUrl: null, startMs: 65_000, endMs: 130_000, result: 'unsold', price: null },
  { auctionId: 'a3', name: 'Reloj Casio', imageUrl: null, startMs: 140_000, endMs: 200_000, result: 'sold', price: 300 },
];

class FakeVideo extends EventTarget {
  currentTime = 0;
  readyState = 0;
  play = vi.fn(async () => undefined);

  /** The clock moves and the browser says so. */
  playTo(seconds: number): void {
    this.currentTime = seconds;
    this.dispatchEvent(new Event('timeupdate'));
  }

  metadataLoaded(): void {
    this.readyState = 1;
    this.dispatchEvent(new Event('loadedmetadata'));
  }
}

function fakeAddress(path: string, search: string, hash = ''): AddressBar & { urls: string[] } {
  const urls: string[] = [];
  const address = {
    location: { pathname: path, search, hash },
    history: {
      state: { kept: true },
      replaceState: vi.fn((state: unknown, _unused: string, url?: string | URL | null) => {
        expect(state).toEqual({ kept: true });
        urls.push(String(url));
        const next = new URL(String(url), 'https://martillo.test');
        address.location = { pathname: next.pathname, search: next.search, hash: next.hash };
      }),
    },
    urls,
  };
  return address;
}

describe('which chapter is playing', () => {
  it('is the one whose [start, end) holds the moment; none in a gap or past the end', () => {
    expect(chapterAt(CHAPTERS, 0)?.auctionId).toBe('a1');
    expect(chapterAt(CHAPTERS, 64_999)?.auctionId).toBe('a1');
    expect(chapterAt(CHAPTERS, 65_000)?.auctionId).toBe('a2');
    expect(chapterAt(CHAPTERS, 135_000)).toBeNull();
    expect(chapterAt(CHAPTERS, 200_000)).toBeNull();
  });

  it("follows the video's timeupdate", () => {
    const video = new FakeVideo();
    const seen: (string | null)[] = [];
    const stop = followReplay(video, { chapters: CHAPTERS, start: null, onChapter: (c) => seen.push(c?.auctionId ?? null) });
    video.playTo(10);
    video.playTo(70);
    video.playTo(135);
    video.playTo(150);
    expect(seen).toEqual(['a1', 'a2', null, 'a3']);
    stop();
    video.playTo(1);
    expect(seen).toHaveLength(4);
  });
});

describe('?lote= opens the replay at its lot', () => {
  it('names the chapter of the lot, and none for a lot that is not in the replay', () => {
    expect(chapterFromSearch(CHAPTERS, '?lote=a2')?.name).toBe('Reloj Seiko');
    expect(chapterFromSearch(CHAPTERS, '?utm_source=wa&lote=a3')?.name).toBe('Reloj Casio');
    expect(chapterFromSearch(CHAPTERS, '?lote=otro')).toBeNull();
    expect(chapterFromSearch(CHAPTERS, '')).toBeNull();
  });

  it('sets the clock at the chapter once the metadata is in, and only once', () => {
    const video = new FakeVideo();
    const onChapter = vi.fn();
    followReplay(video, { chapters: CHAPTERS, start: chapterFromSearch(CHAPTERS, '?lote=a3'), onChapter });
    expect(video.currentTime).toBe(0);
    video.metadataLoaded();
    expect(video.currentTime).toBe(140);
    expect(onChapter).toHaveBeenLastCalledWith(CHAPTERS[2]);
    // The viewer goes elsewhere; metadata again (a source reload) does not pull them back.
    video.playTo(5);
    video.metadataLoaded();
    expect(video.currentTime).toBe(5);
  });

  it('sets the clock at once when the metadata came before', () => {
    const video = new FakeVideo();
    video.readyState = 1;
    followReplay(video, { chapters: CHAPTERS, start: CHAPTERS[1] ?? null, onChapter: () => undefined });
    expect(video.currentTime).toBe(65);
  });
});

describe('a tap on a chapter', () => {
  it('seeks the video to its start, plays, and puts ?lote= in the address without a new entry', () => {
    const video = new FakeVideo();
    const address = fakeAddress('/live/tienda-lucia/s1', '?utm_source=wa', '#chat');
    playChapter(video, CHAPTERS[1] as ReplayChapter, address);
    expect(video.currentTime).toBe(65);
    expect(video.play).toHaveBeenCalledOnce();
    expect(address.urls).toEqual(['/live/tienda-lucia/s1?utm_source=wa&lote=a2#chat']);
    playChapter(video, CHAPTERS[2] as ReplayChapter, address);
    expect(address.urls.at(-1)).toBe('/live/tienda-lucia/s1?utm_source=wa&lote=a3#chat');
  });

  it('stays at the chapter when the browser refuses to play', async () => {
    const video = new FakeVideo();
    video.play.mockRejectedValueOnce(new DOMException('not allowed', 'NotAllowedError'));
    playChapter(video, CHAPTERS[2] as ReplayChapter, fakeAddress('/live/s1', ''));
    await Promise.resolve();
    expect(video.currentTime).toBe(140);
  });
});

describe("a chapter's words", () => {
  it('its moment as m:ss, minutes going past the hour', () => {
    expect(formatMoment(0)).toBe('0:00');
    expect(formatMoment(65_400)).toBe('1:05');
    expect(formatMoment(4_530_000)).toBe('75:30');
  });

  it("its link's query keeps the others", () => {
    expect(searchWithLot('', 'a1')).toBe('?lote=a1');
    expect(searchWithLot('?lote=a1&x=1', 'a2')).toBe('?lote=a2&x=1');
  });
});
