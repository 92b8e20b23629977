import { describe, expect, it } from 'vitest';
import { lotSpans, recordingOffset, replayOffsetOf } from '../../../../src/server/features/replays/timeline.js';

/** The replay's clock: moments of the show laid on its joined segments. */

const T = 1_800_000_000_000;
// Two segments of 10 s, with a 50 s pause between them.
const SEGMENTS = [
  { startedAt: T, durationMs: 10_000 },
  { startedAt: T + 60_000, durationMs: 10_000 },
];

describe('the recording’s clock', () => {
  it('places a moment inside a segment after the segments before it, one in a pause where the next starts, one before or after at the ends', () => {
    expect(recordingOffset(SEGMENTS, T + 2_000)).toBe(2_000);
    expect(recordingOffset(SEGMENTS, T + 62_500)).toBe(12_500);
    expect(recordingOffset(SEGMENTS, T + 30_000)).toBe(10_000);
    expect(recordingOffset(SEGMENTS, T - 5_000)).toBe(0);
    expect(recordingOffset(SEGMENTS, T + 600_000)).toBe(20_000);
    expect(recordingOffset([], T)).toBe(0);
  });

  it('places a chat line written while recording at its moment, and none written before, in a pause or after', () => {
    expect(replayOffsetOf(SEGMENTS, T)).toBe(0);
    expect(replayOffsetOf(SEGMENTS, T + 2_000)).toBe(2_000);
    expect(replayOffsetOf(SEGMENTS, T + 10_000)).toBe(10_000);
    expect(replayOffsetOf(SEGMENTS, T + 60_000)).toBe(10_000);
    expect(replayOffsetOf(SEGMENTS, T + 62_500)).toBe(12_500);
    expect(replayOffsetOf(SEGMENTS, T + 70_000)).toBe(20_000);
    expect(replayOffsetOf(SEGMENTS, T - 1)).toBeNull();
    expect(replayOffsetOf(SEGMENTS, T + 10_001)).toBeNull();
    expect(replayOffsetOf(SEGMENTS, T + 30_000)).toBeNull();
    expect(replayOffsetOf(SEGMENTS, T + 70_001)).toBeNull();
    expect(replayOffsetOf([], T)).toBeNull();
  });

  it('gives each lot its last run, drops one that ran while nothing was recorded, and runs an unclosed one to the end', () => {
    const spans = lotSpans(SEGMENTS, [
      { auctionId: 'a', openedAt: T + 1_000, closedAt: T + 3_000 },
      { auctionId: 'b', openedAt: T + 3_000, closedAt: T + 5_000 },
      // 'a' put back in line and run again after the pause: its last run is its chapter.
      { auctionId: 'a', openedAt: T + 61_000, closedAt: T + 64_000 },
      // Ran during the pause: nothing of it was recorded.
      { auctionId: 'c', openedAt: T + 20_000, closedAt: T + 40_000 },
      // The show ended on it.
      { auctionId: 'd', openedAt: T + 65_000, closedAt: null },
    ]);
    expect(spans).toEqual([
      { auctionId: 'b', startMs: 3_000, endMs: 5_000 },
      { auctionId: 'a', startMs: 11_000, endMs: 14_000 },
      { auctionId: 'd', startMs: 15_000, endMs: 20_000 },
    ]);
  });
});
