/**
 * The replay's own clock. A show's recording is its segments joined in order (a pause, a lost
 * camera or a reload starts a new one), so a moment of the show (a lot opening, its hammer) lands
 * on the replay at: the lengths of the segments before its own, plus how far into its own segment
 * it came. A moment between two segments (the show was paused) lands where the next one starts; one
 * after the last, at the end.
 */

export interface RecordedSegment {
  /** When its first frame was recorded (epoch ms). */
  startedAt: number;
  /** Its length as the file has it (ffprobe), not as the clock on the wall had it. */
  durationMs: number;
}

/** Where `at` (epoch ms) is on the joined recording, in ms from its start. */
export function recordingOffset(segments: readonly RecordedSegment[], at: number): number {
  let before = 0;
  for (const segment of segments) {
    if (at < segment.startedAt) return before;
    if (at <= segment.startedAt + segment.durationMs) return before + (at - segment.startedAt);
    before += segment.durationMs;
  }
  return before;
}

/**
 * Where `at` (epoch ms) is on the joined recording, in ms from its start, when it was recorded;
 * null for a moment while nothing was (before the first segment, in a pause, after the last). A
 * chat line is placed with it: one written while the camera was off has no moment in the replay.
 */
export function replayOffsetOf(segments: readonly RecordedSegment[], at: number): number | null {
  let before = 0;
  for (const segment of segments) {
    if (at >= segment.startedAt && at <= segment.startedAt + segment.durationMs) return before + (at - segment.startedAt);
    before += segment.durationMs;
  }
  return null;
}

export interface LotRun {
  auctionId: string;
  openedAt: number;
  /** When it left the block (its hammer, or the next lot opened); null if it never did (the show ended on it). */
  closedAt: number | null;
}

/**
 * One span per lot that ran, on the recording's clock: from its last run's opening to that run's
 * close (a lot put back in line and run again is told by its last run, where it sold or did not).
 * A lot whose span is empty on the recording (it ran while nothing was recorded) has none.
 */
export function lotSpans(segments: readonly RecordedSegment[], runs: readonly LotRun[]): { auctionId: string; startMs: number; endMs: number }[] {
  const total = segments.reduce((sum, s) => sum + s.durationMs, 0);
  const last = new Map<string, LotRun>();
  for (const run of [...runs].sort((a, b) => a.openedAt - b.openedAt)) last.set(run.auctionId, run);
  const spans: { auctionId: string; startMs: number; endMs: number }[] = [];
  for (const run of [...last.values()].sort((a, b) => a.openedAt - b.openedAt)) {
    const startMs = recordingOffset(segments, run.openedAt);
    const endMs = run.closedAt === null ? total : recordingOffset(segments, run.closedAt);
    if (endMs > startMs) spans.push({ auctionId: run.auctionId, startMs, endMs });
  }
  return spans;
}
