import type { ChatMessage } from '../../../domain/chat.js';
import type { ReplayChatLine, ReplayChatPage } from '../../../domain/replays.js';
import type { ReplayVideo } from './replay-chapters';

/**
 * The replay's chat against its video, as plain functions so the panel (replay-chat.tsx) only wires
 * them to React: which lines were written by the video's moment, when the next page is wanted, and
 * the video's clock, whose jumps (a seek back or ahead) rewind or advance the list.
 */

/** How far ahead of the video the next page is asked for, so its lines are in before they are due. */
export const CHAT_LOOKAHEAD_MS = 60_000;
/** The most lines the list holds, the latest by the video's moment: a long show's thousands would slow a phone. */
export const CHAT_SHOWN_MAX = 150;

/**
 * The pages' lines in the chat's order, each moment at least the one before it: two lines written
 * in the same instant may be numbered in the other order, and the list only ever grows at its end.
 */
export function replayChatLines(pages: readonly ReplayChatPage[] | undefined): ReplayChatLine[] {
  const lines: ReplayChatLine[] = [];
  let latest = 0;
  for (const page of pages ?? []) {
    for (const line of page.lines) {
      latest = Math.max(latest, line.atMs);
      lines.push(line.atMs === latest ? line : { ...line, atMs: latest });
    }
  }
  return lines;
}

/** How many of `lines` (their moments in order) were written by `ms` on the replay's clock. */
export function countUpTo(lines: readonly { atMs: number }[], ms: number): number {
  let low = 0;
  let high = lines.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((lines[middle] as { atMs: number }).atMs <= ms) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The lines to show at `ms`: the latest CHAT_SHOWN_MAX written by then, oldest first. */
export function linesAt(lines: readonly ReplayChatLine[], ms: number): ReplayChatLine[] {
  const count = countUpTo(lines, ms);
  return lines.slice(Math.max(0, count - CHAT_SHOWN_MAX), count);
}

/** Whether the next page is wanted now: there is one, none is on its way, and the lines read so far run out before the video needs more. */
export function wantsNextPage(opts: { lines: readonly { atMs: number }[]; hasNext: boolean; isFetching: boolean; nowMs: number }): boolean {
  if (!opts.hasNext || opts.isFetching) return false;
  return (opts.lines.at(-1)?.atMs ?? 0) <= opts.nowMs + CHAT_LOOKAHEAD_MS;
}

/**
 * Follows the video's clock: `onMoment` at once, as it plays, and when it jumps (`isJump`: a seek
 * or a chapter's tap). Returns the cleanup.
 */
export function followClock(video: ReplayVideo, onMoment: (ms: number, isJump: boolean) => void): () => void {
  const now = () => Math.max(0, Math.floor(video.currentTime * 1000));
  const tick = () => onMoment(now(), false);
  const jump = () => onMoment(now(), true);
  video.addEventListener('timeupdate', tick);
  video.addEventListener('seeking', jump);
  video.addEventListener('seeked', jump);
  tick();
  return () => {
    video.removeEventListener('timeupdate', tick);
    video.removeEventListener('seeking', jump);
    video.removeEventListener('seeked', jump);
  };
}

/** A replay's line as the chat's own line draws it: nobody's is marked 'tú' and none is held back (the replay has only public lines). */
export const asChatMessage = (line: ReplayChatLine, sessionId: string): ChatMessage => ({ ...line, sessionId, authorTag: null, onlyAuthor: false });
