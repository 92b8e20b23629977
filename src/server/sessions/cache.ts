import type { SessionCacheMessage } from '../../domain/realtime.js';
import type { Db } from '../db/connect.js';
import { type CurrentUser, lookupSession } from './store.js';

/** How session caches of several instances reach each other (realtime/index.ts's peers, over Redis). */
export interface SessionCachePeers {
  send(message: SessionCacheMessage): void;
  /** Messages come from the network: the cache checks their shape. */
  onMessage(handler: (message: unknown) => void): void;
}

/**
 * Signed-in users by token, for up to a minute. Every API request resolves its session, and under
 * load (a hot auction) that lookup cost as much as the bid itself. Changes made through the app
 * (sign-out, roles, company, profile) drop the entries at once, in this process and, through
 * `peers`, in every other instance. Only a change made outside the app waits for `ttlMs`.
 */
export function createSessionCache(opts: { ttlMs?: number; max?: number; peers?: SessionCachePeers | null } = {}) {
  const ttlMs = opts.ttlMs ?? 60_000;
  const max = opts.max ?? 50_000;
  const entries = new Map<string, { user: CurrentUser; until: number }>();
  /** Bumped by every drop: a lookup that was under way across one does not fill the cache. */
  let generation = 0;

  function drop(message: SessionCacheMessage): void {
    generation++;
    for (const [token, entry] of entries) {
      if ('userId' in message ? entry.user.id === message.userId : entry.user.sessionId === message.sessionId) entries.delete(token);
    }
  }
  opts.peers?.onMessage((message: unknown) => {
    const m = message as Partial<Record<'userId' | 'sessionId', unknown>> | null;
    if (typeof m?.userId === 'string') drop({ userId: m.userId });
    else if (typeof m?.sessionId === 'string') drop({ sessionId: m.sessionId });
  });
  function forget(message: SessionCacheMessage): void {
    drop(message);
    opts.peers?.send(message);
  }

  return {
    async resolve(db: Db, token: string | undefined, secret: string): Promise<CurrentUser | null> {
      if (!token || token.length > 200) return null;
      const now = Date.now();
      const hit = entries.get(token);
      if (hit && hit.until > now) return hit.user;
      const startedAt = generation;
      const found = await lookupSession(db, token, secret);
      entries.delete(token);
      if (found && startedAt === generation) {
        // Map keeps insertion order: past the cap, the oldest entry goes.
        if (entries.size >= max) entries.delete(entries.keys().next().value as string);
        // Never past the session's own expiry.
        entries.set(token, { user: found.user, until: Math.min(now + ttlMs, found.expiresAt) });
      }
      return found?.user ?? null;
    },
    forgetSession(sessionId: string): void {
      forget({ sessionId });
    },
    forgetUser(userId: string): void {
      forget({ userId });
    },
  };
}
export type SessionCache = ReturnType<typeof createSessionCache>;
