import { USER_NOTICE_EVENTS, USER_NOTICES_EVENT, type UserNoticeEventName, type UserNoticesMessage } from '../../domain/realtime.js';
import { rooms } from './rooms.js';
import type { RealtimeServer } from './types.js';

/** With several instances, how often at most an instance sends its users' frequent notices to the others (as the room relay's window). */
export const USER_NOTICE_WINDOW_MS = 20;

/**
 * Notices to one user that may come hundreds a second: an outbid notice per bid on a hot lot.
 * Through the adapter each would be a Redis publish of its own on the user's channel, whether or
 * not another instance holds that user's sockets; on the instance that takes a hot auction's bids,
 * one publish per bid. Instead the user's sockets on this instance hear a notice at once, and the
 * other instances get this instance's notices gathered, at most one peer message per window (the
 * first at once, the rest at the end of the window), each instance delivering them to the sockets
 * it holds. One instance has no peers: a notice goes to its sockets and nowhere else.
 */
export function createUserNotices(io: RealtimeServer, opts: { peers: boolean; windowMs?: number }) {
  const windowMs = opts.windowMs ?? USER_NOTICE_WINDOW_MS;
  const adapter = io.of('/').adapter;
  let waiting: UserNoticesMessage['notices'] = [];
  let timer: NodeJS.Timeout | null = null;
  let lastSent = 0;

  function here(userId: string, event: UserNoticeEventName, payload: unknown) {
    const room = rooms.user(userId);
    // Most notices find no socket on a given instance: nothing to encode then.
    if (!adapter.rooms.has(room)) return;
    io.local.to(room).emit(event, payload as never);
  }

  function flush() {
    if (timer) clearTimeout(timer);
    timer = null;
    if (waiting.length === 0) return;
    const message: UserNoticesMessage = { notices: waiting };
    waiting = [];
    lastSent = Date.now();
    io.serverSideEmit(USER_NOTICES_EVENT, message);
  }

  if (opts.peers) {
    io.on(USER_NOTICES_EVENT, (message: unknown) => {
      const notices = (message as { notices?: unknown } | null)?.notices;
      if (!Array.isArray(notices)) return;
      for (const notice of notices as { userId?: unknown; event?: unknown; payload?: unknown }[]) {
        if (typeof notice?.userId !== 'string' || !USER_NOTICE_EVENTS.includes(notice.event as UserNoticeEventName)) continue;
        here(notice.userId, notice.event as UserNoticeEventName, notice.payload);
      }
    });
  }

  return {
    send(userId: string, event: UserNoticeEventName, payload: unknown) {
      here(userId, event, payload);
      if (!opts.peers) return;
      waiting.push({ userId, event, payload });
      if (timer) return;
      const wait = windowMs - (Date.now() - lastSent);
      if (wait <= 0) return flush();
      timer = setTimeout(flush, wait);
    },
    /** Sends what waits now (the instance is closing). */
    flush,
  };
}
