import { describe, expect, it, vi } from 'vitest';
import type { ReplayChatLine, ReplayChatPage } from '../../../src/domain/replays';
import {
  asChatMessage,
  CHAT_LOOKAHEAD_MS,
  CHAT_SHOWN_MAX,
  countUpTo,
  followClock,
  linesAt,
  replayChatLines,
  wantsNextPage,
} from '../../../src/web/public/live/replay-chat-lines';

/**
 * The replay's chat against its video: the lines written by the video's moment (and only those, a
 * seek back rewinding them), the next page asked before its lines are due, and the video's clock
 * followed as it plays and jumps. The video is an event target with a clock, as the page's <video>
 * is to this code.
 */

const SESSION = '6f1c0c54-9a57-4a43-9d4c-0f1f4f9d5c11';

const line = (seq: number, atMs: number, over: Partial<ReplayChatLine> = {}): ReplayChatLine => ({
  id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
  seq,
  kind: 'user',
  authorName: 'Sofía R.',
  authorIsModerator: false,
  text: `línea ${seq}`,
  system: null,
  createdAt: 1_900_000_000_000 + atMs,
  atMs,
  ...over,
});

class FakeVideo extends EventTarget {
  currentTime = 0;
  readyState = 1;
  play = vi.fn(async () => undefined);

  playTo(seconds: number): void {
    this.currentTime = seconds;
    this.dispatchEvent(new Event('timeupdate'));
  }

  seekTo(seconds: number): void {
    this.dispatchEvent(new Event('seeking'));
    this.currentTime = seconds;
    this.dispatchEvent(new Event('seeked'));
  }
}

describe('the lines shown beside the replay', () => {
  const lines = [line(1, 2_000), line(2, 9_000), line(3, 9_000), line(4, 12_500), line(5, 30_000)];

  it('are those written by the video’s moment, newest last, and fewer again after a seek back', () => {
    expect(linesAt(lines, 0)).toEqual([]);
    expect(linesAt(lines, 1_999)).toEqual([]);
    expect(linesAt(lines, 2_000).map((l) => l.seq)).toEqual([1]);
    expect(linesAt(lines, 12_600).map((l) => l.seq)).toEqual([1, 2, 3, 4]);
    expect(linesAt(lines, 60_000).map((l) => l.seq)).toEqual([1, 2, 3, 4, 5]);
    // Back to 9 s: the list rewinds to what had been written by then.
    expect(linesAt(lines, 9_000).map((l) => l.seq)).toEqual([1, 2, 3]);
    expect(countUpTo([], 5_000)).toBe(0);
  });

  it(`hold the latest ${CHAT_SHOWN_MAX} of a busy show’s thousands`, () => {
    const busy = Array.from({ length: 3_000 }, (_, i) => line(i + 1, i * 100));
    const shown = linesAt(busy, 200_000);
    expect(shown).toHaveLength(CHAT_SHOWN_MAX);
    expect(shown.at(-1)?.atMs).toBe(200_000);
    expect(shown[0]?.seq).toBe(2_001 - CHAT_SHOWN_MAX + 1);
  });

  it('keep the chat’s order across pages, a line numbered after another never shown before it', () => {
    const pages: ReplayChatPage[] = [
      { lines: [line(1, 2_000), line(2, 5_001)], next: '2' },
      // Written in the same instant as line 2, and numbered after it.
      { lines: [line(3, 5_000), line(4, 7_000)], next: null },
    ];
    const all = replayChatLines(pages);
    expect(all.map((l) => [l.seq, l.atMs])).toEqual([
      [1, 2_000],
      [2, 5_001],
      [3, 5_001],
      [4, 7_000],
    ]);
    expect(linesAt(all, 5_000).map((l) => l.seq)).toEqual([1]);
    expect(replayChatLines(undefined)).toEqual([]);
  });

  it('are drawn as public lines: nobody’s marked as the reader’s, none held back', () => {
    expect(asChatMessage(line(1, 2_000), SESSION)).toMatchObject({ sessionId: SESSION, authorTag: null, onlyAuthor: false, text: 'línea 1' });
  });
});

describe('the next page of the replay’s chat', () => {
  const read = [line(1, 2_000), line(500, 100_000)];

  it('is asked once the lines read so far run out within a minute of the video', () => {
    expect(wantsNextPage({ lines: read, hasNext: true, isFetching: false, nowMs: 0 })).toBe(false);
    expect(wantsNextPage({ lines: read, hasNext: true, isFetching: false, nowMs: 100_000 - CHAT_LOOKAHEAD_MS })).toBe(true);
    // A seek far ahead asks too, page after page, until the lines reach it.
    expect(wantsNextPage({ lines: read, hasNext: true, isFetching: false, nowMs: 3_600_000 })).toBe(true);
  });

  it('is not asked while one is on its way, or after the last', () => {
    expect(wantsNextPage({ lines: read, hasNext: true, isFetching: true, nowMs: 3_600_000 })).toBe(false);
    expect(wantsNextPage({ lines: read, hasNext: false, isFetching: false, nowMs: 3_600_000 })).toBe(false);
  });
});

describe('the video’s clock', () => {
  it('is told at once, as it plays, and as a jump when the reader seeks; never after the cleanup', () => {
    const video = new FakeVideo();
    video.currentTime = 4.25;
    const moments: [number, boolean][] = [];
    const stop = followClock(video, (ms, isJump) => moments.push([ms, isJump]));
    video.playTo(5.5);
    video.seekTo(1);
    video.playTo(1.25);
    expect(moments).toEqual([
      [4_250, false],
      [5_500, false],
      [5_500, true],
      [1_000, true],
      [1_250, false],
    ]);
    stop();
    video.playTo(9);
    video.seekTo(0);
    expect(moments).toHaveLength(5);
  });
});
