import type { ChatMessage } from '../../domain/chat.js';

/** From this many viewers a show's chat goes out in windows: below it, each line at once. */
export const CHAT_BATCH_FROM_VIEWERS = 100;
/** A large room's window: a line waits at most this long, and the room gets one send per window. */
export const CHAT_BATCH_WINDOW_MS = 200;

interface Pending {
  lines: ChatMessage[];
  timer: NodeJS.Timeout | null;
  lastSentAt: number;
}

/**
 * A large room's chat lines, coalesced: sending one line to a thousand sockets costs the process
 * about as much as sending a window's several lines at once (bench/README.md, live chat), so a
 * busy show's chat would take the event loop from the bids and closes. The first line of a quiet
 * window goes at once; the lines after it wait for the window's end and go together, ordered by
 * `seq` (two instances' lines race to the room, the window puts them back in order). Small rooms
 * get every line at once. `flush` sends a session's waiting lines now: a removal or a pin must not
 * overtake the line it names.
 */
export function createChatBatcher(opts: {
  viewerCount: (sessionId: string) => number;
  send: (sessionId: string, lines: ChatMessage[]) => void;
  windowMs?: number;
  fromViewers?: number;
}) {
  const windowMs = opts.windowMs ?? CHAT_BATCH_WINDOW_MS;
  const fromViewers = opts.fromViewers ?? CHAT_BATCH_FROM_VIEWERS;
  const sessions = new Map<string, Pending>();

  function flush(sessionId: string): void {
    const pending = sessions.get(sessionId);
    if (!pending) return;
    if (pending.timer) clearTimeout(pending.timer);
    pending.timer = null;
    if (pending.lines.length === 0) {
      sessions.delete(sessionId);
      return;
    }
    const lines = pending.lines.sort((a, b) => a.seq - b.seq);
    pending.lines = [];
    pending.lastSentAt = Date.now();
    opts.send(sessionId, lines);
    // Kept one more window, so a line right after this one waits for it instead of going alone.
    pending.timer = setTimeout(() => flush(sessionId), windowMs);
    pending.timer.unref();
  }

  return {
    line(message: ChatMessage): void {
      const sessionId = message.sessionId;
      const pending = sessions.get(sessionId);
      if (!pending && opts.viewerCount(sessionId) < fromViewers) {
        opts.send(sessionId, [message]);
        return;
      }
      if (!pending) {
        // A quiet large room: this line goes now, the next ones wait for the window.
        const fresh: Pending = { lines: [message], timer: null, lastSentAt: 0 };
        sessions.set(sessionId, fresh);
        flush(sessionId);
        return;
      }
      pending.lines.push(message);
      if (!pending.timer) {
        pending.timer = setTimeout(() => flush(sessionId), Math.max(0, windowMs - (Date.now() - pending.lastSentAt)));
        pending.timer.unref();
      }
    },
    flush,
    /** Sends whatever waits (on shutdown). */
    flushAll(): void {
      for (const sessionId of [...sessions.keys()]) flush(sessionId);
      for (const pending of sessions.values()) if (pending.timer) clearTimeout(pending.timer);
      sessions.clear();
    },
  };
}
export type ChatBatcher = ReturnType<typeof createChatBatcher>;
