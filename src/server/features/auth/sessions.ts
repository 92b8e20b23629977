import { createHmac, randomBytes } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { SessionCacheMessage } from '../../../domain/realtime.js';
import { effectiveCompanyId, type Role } from '../../../domain/role-rules.js';
import type { Db } from '../../db/connect.js';
import { authSessions, userProfiles, users } from '../../db/schema.js';

export const SESSION_COOKIE = 'martillo_session';

/** The signed-in person as every route and socket sees them. */
export interface CurrentUser {
  id: string;
  email: string;
  displayName: string | null;
  roles: Role[];
  /** The profile's companyId, null for a platform admin or a user who is their own company. */
  profileCompanyId: string | null;
  /** SPEC §3: companyId falls back to the user's id. */
  companyId: string;
  companyName: string | null;
  sessionId: string;
}

/**
 * Tokens are stored as HMAC-SHA256 keyed with SESSION_SECRET: a copy of the database alone
 * cannot be matched against cookies, and changing the secret signs everyone out.
 */
export function hashToken(token: string, secret: string): string {
  return createHmac('sha256', secret).update(token).digest('hex');
}

export async function createSession(
  db: Db,
  opts: { userId: string; days: number; secret: string; userAgent?: string | undefined; ip?: string | undefined },
): Promise<{ token: string; sessionId: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + opts.days * 86_400_000);
  const [row] = await db
    .insert(authSessions)
    .values({ tokenHash: hashToken(token, opts.secret), userId: opts.userId, expiresAt, userAgent: opts.userAgent?.slice(0, 300) ?? null, ip: opts.ip ?? null })
    .returning({ id: authSessions.id });
  if (!row) throw new Error('session insert returned nothing');
  return { token, sessionId: row.id, expiresAt };
}

/** Looks up a cookie token; an unknown or expired one is simply nobody. */
export async function resolveSession(db: Db, token: string | undefined, secret: string): Promise<CurrentUser | null> {
  return (await lookupSession(db, token, secret))?.user ?? null;
}

async function lookupSession(db: Db, token: string | undefined, secret: string): Promise<{ user: CurrentUser; expiresAt: number } | null> {
  if (!token || token.length > 200) return null;
  const [row] = await db
    .select({
      sessionId: authSessions.id,
      lastSeenAt: authSessions.lastSeenAt,
      expiresAt: authSessions.expiresAt,
      id: users.id,
      email: users.email,
      displayName: userProfiles.displayName,
      roles: userProfiles.roles,
      companyId: userProfiles.companyId,
      companyName: userProfiles.companyName,
    })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
    .where(and(eq(authSessions.tokenHash, hashToken(token, secret)), gt(authSessions.expiresAt, sql`now()`)))
    .limit(1);
  if (!row) return null;
  if (Date.now() - row.lastSeenAt.getTime() > 3_600_000) {
    await db.update(authSessions).set({ lastSeenAt: new Date() }).where(eq(authSessions.id, row.sessionId));
  }
  const user: CurrentUser = {
    id: row.id,
    email: row.email,
    displayName: row.displayName ?? null,
    ...accessOf(row.id, row),
    sessionId: row.sessionId,
  };
  return { user, expiresAt: row.expiresAt.getTime() };
}

export async function deleteSession(db: Db, sessionId: string): Promise<void> {
  await db.delete(authSessions).where(eq(authSessions.id, sessionId));
}

export async function deleteExpiredSessions(db: Db): Promise<void> {
  await db.delete(authSessions).where(lt(authSessions.expiresAt, sql`now()`));
}

/** Between instances (realtime's toPeers): what to drop from the session caches (typed in domain/realtime.ts). */
export { SESSION_CACHE_EVENT, type SessionCacheMessage } from '../../../domain/realtime.js';

/** What a user's sockets are granted by, read afresh when an admin changes it (realtime's refreshUserAccess). */
export async function loadAccess(db: Db, userId: string): Promise<Access> {
  const [row] = await db
    .select({ roles: userProfiles.roles, companyId: userProfiles.companyId, companyName: userProfiles.companyName })
    .from(userProfiles)
    .where(eq(userProfiles.userId, userId));
  return accessOf(userId, row);
}

type Access = Pick<CurrentUser, 'roles' | 'profileCompanyId' | 'companyId' | 'companyName'>;

/** What a user's profile grants, as a session and a socket read it. */
function accessOf(userId: string, profile: { roles: string[] | null; companyId: string | null; companyName: string | null } | undefined): Access {
  return {
    // SPEC §6: a missing profile means an empty role list, which means no access.
    roles: (profile?.roles ?? []) as Role[],
    profileCompanyId: profile?.companyId ?? null,
    companyId: effectiveCompanyId(userId, profile?.companyId),
    companyName: profile?.companyName ?? null,
  };
}

/** How session caches of several instances reach each other (realtime.ts, over Redis). */
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
